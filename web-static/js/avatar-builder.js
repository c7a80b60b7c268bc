// The avatar builder on the nickname screen: a preview and, per part, previous/next
// buttons over the enumerated choices. The choice is remembered in localStorage.

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
    this.parts.replaceChildren(...Object.keys(AVATAR_PARTS).map((part) => {
      const label = t(PART_LABELS[part]);
      const count = AVATAR_PARTS[part];
      const step = (delta) => this.set(stepAvatar(this.avatar, part, delta));
      const rtl = document.documentElement.dir === 'rtl';
      return el('div', { className: 'avatar-part', dataset: { part } },
        el('button', { type: 'button', className: 'btn btn-ghost btn-xs avatar-prev', text: rtl ? '›' : '‹', attrs: { 'aria-label': t('avatar.prev', { part: label }) }, on: { click: () => step(-1) } }),
        el('span', { className: 'avatar-part-name', text: `${label} ${this.avatar[part] + 1}/${count}` }),
        el('button', { type: 'button', className: 'btn btn-ghost btn-xs avatar-next', text: rtl ? '‹' : '›', attrs: { 'aria-label': t('avatar.next', { part: label }) }, on: { click: () => step(1) } }),
      );
    }));
  }
}
