// One small menu for per-player actions (vote kick, kick), opened from a button on the
// player's row, instead of buttons on every row. Closes on Escape, a click outside, a
// window resize and when the page leaves the room; it stays open while the list
// re-renders (its items act on the player id, not on the row).

import { $, el } from './dom.js';

let openFor = null; // the button that opened the menu

export function closePlayerMenu() {
  const menu = $('#player-menu');
  if (!menu || menu.hidden) return;
  menu.hidden = true;
  menu.replaceChildren();
  const btn = openFor;
  openFor = null;
  btn?.setAttribute('aria-expanded', 'false');
}

/** Open the menu under `button` with `items` [{label, danger, action}]. */
export function openPlayerMenu(button, items) {
  const menu = $('#player-menu');
  if (openFor === button) {
    closePlayerMenu();
    return;
  }
  closePlayerMenu();
  menu.replaceChildren(...items.map((it) => el('button', {
    type: 'button',
    className: `menu-item${it.danger ? ' menu-danger' : ''}`,
    text: it.label,
    dataset: { action: it.id },
    attrs: { role: 'menuitem' },
    on: { click: () => { closePlayerMenu(); it.action(); } },
  })));
  menu.hidden = false;
  openFor = button;
  button.setAttribute('aria-expanded', 'true');
  const r = button.getBoundingClientRect();
  const rtl = document.documentElement.dir === 'rtl';
  const w = menu.offsetWidth;
  let left = rtl ? r.left : r.right - w;
  left = Math.max(8, Math.min(left, window.innerWidth - w - 8));
  menu.style.left = `${left + window.scrollX}px`;
  menu.style.top = `${r.bottom + 4 + window.scrollY}px`;
  menu.querySelector('button')?.focus();
}

export function initPlayerMenu() {
  document.addEventListener('pointerdown', (ev) => {
    if (!openFor) return;
    if (ev.target.closest('#player-menu') || ev.target.closest('.player-menu-btn') === openFor) return;
    closePlayerMenu();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && openFor) {
      const btn = openFor;
      closePlayerMenu();
      btn.focus();
    }
  });
}
