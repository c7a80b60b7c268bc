// The avatar builder on the nickname screen: a preview, per part previous/next buttons
// and a tab, and a grid of every choice of the selected part (one tap picks). The choice is remembered in localStorage.

import { el } from './dom.js';
import { t } from './i18n.js';
import { AVATAR_PARTS, avatarNode, loadAvatar, randomAvatar, saveAvatar, stepAvatar } from './avatar.js';

const PART_LABELS = { color: 'avatar.color', eyes: 'avatar.eyes', mouth: 'avatar.mouth', accessory: 'avatar.accessory' };

export class AvatarBuilder {
  /** `onChange(avatar)` runs after every change (also the first, random, one). */
  constructor({ preview, parts, random }, onChange) {
    this.preview = preview;
    this.parts = parts;
    this.onChange = onChange;
    this.part = 'color'; // the part whose choices the grid shows
    this.avatar = loadAvatar();
    if (!this.avatar) {
      this.avatar = randomAvatar();
      saveAvatar(this.avatar);
    }
    random.addEventListener('click', () => this.set(randomAvatar()));
    this.render();
    this.onChange(this.avatar);
  }

  set(avatar) {
    this.avatar = avatar;
    saveAvatar(avatar);
    this.render();
    this.onChange(avatar);
  }

  render() {
    this.preview.replaceChildren(avatarNode(this.avatar, '', { size: 84 }));
    const rtl = document.documentElement.dir === 'rtl';
    const rows = Object.keys(AVATAR_PARTS).map((part) => {
      const label = t(PART_LABELS[part]);
      const step = (delta) => this.set(stepAvatar(this.avatar, part, delta));
      return el('div', { className: 'avatar-part', dataset: { part } },
        el('button', { type: 'button', className: 'btn btn-ghost btn-xs avatar-prev', text: rtl ? '›' : '‹', attrs: { 'aria-label': t('avatar.prev', { part: label }) }, on: { click: () => step(-1) } }),
        el('button', {
          type: 'button',
          className: 'btn btn-ghost btn-xs avatar-part-name',
          text: label,
          attrs: { 'aria-pressed': String(part === this.part), 'aria-controls': 'avatar-grid' },
          on: { click: () => { this.part = part; this.render(); } },
        }),
        el('button', { type: 'button', className: 'btn btn-ghost btn-xs avatar-next', text: rtl ? '‹' : '›', attrs: { 'aria-label': t('avatar.next', { part: label }) }, on: { click: () => step(1) } }),
      );
    });
    this.parts.replaceChildren(...rows, this.grid());
  }

  /** Every choice of the selected part, each drawn on the current avatar: one tap picks. */
  grid() {
    const part = this.part;
    const label = t(PART_LABELS[part]);
    const options = Array.from({ length: AVATAR_PARTS[part] }, (_, i) => {
      const a = { ...this.avatar, [part]: i };
      const name = t('avatar.option', { part: label, n: i + 1 });
      return el('button', {
        type: 'button',
        className: 'avatar-option',
        dataset: { part, index: String(i) },
        attrs: { 'aria-pressed': String(this.avatar[part] === i), 'aria-label': name, title: name },
        on: { click: () => this.set(a) },
      }, avatarNode(a, '', { size: 34 }));
    });
    return el('div', { className: 'avatar-grid', id: 'avatar-grid', attrs: { role: 'group', 'aria-label': label } }, ...options);
  }
}
