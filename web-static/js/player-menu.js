// One small menu for per-player actions (vote kick, kick), opened from a button on the
// player's row, instead of buttons on every row. Closes on Escape, a click outside, a
// window resize and when the page leaves the room. While open it follows the player
// list: a re-render re-attaches it to the player's new button with fresh items (a vote
// count), or closes it when no action applies any more.

import { $, el } from './dom.js';

let openFor = null; // the button that opened the menu
let openId = null; // the player the menu is for
let getItems = null; // () => the current items for that player

export function closePlayerMenu() {
  const menu = $('#player-menu');
  if (!menu || menu.hidden) return;
  menu.hidden = true;
  menu.replaceChildren();
  openFor?.setAttribute('aria-expanded', 'false');
  openFor = null;
  openId = null;
  getItems = null;
}

function renderItems(menu, items) {
  const focused = [...menu.children].indexOf(document.activeElement);
  menu.replaceChildren(...items.map((it) => el('button', {
    type: 'button',
    className: `menu-item${it.danger ? ' menu-danger' : ''}`,
    text: it.label,
    dataset: { action: it.id },
    attrs: { role: 'menuitem' },
    on: { click: () => { closePlayerMenu(); it.action(); } },
  })));
  if (focused >= 0) menu.children[Math.min(focused, menu.children.length - 1)]?.focus();
}

function place(menu, button) {
  const r = button.getBoundingClientRect();
  const rtl = document.documentElement.dir === 'rtl';
  const w = menu.offsetWidth;
  let left = rtl ? r.left : r.right - w;
  left = Math.max(8, Math.min(left, window.innerWidth - w - 8));
  menu.style.left = `${left + window.scrollX}px`;
  menu.style.top = `${r.bottom + 4 + window.scrollY}px`;
}

/** Open (or, from the same button, close) the menu for player `id` under `button`. */
export function openPlayerMenu(button, id, items) {
  const menu = $('#player-menu');
  if (openFor === button) {
    closePlayerMenu();
    return;
  }
  closePlayerMenu();
  const list = items();
  if (!list.length) return;
  renderItems(menu, list);
  menu.hidden = false;
  openFor = button;
  openId = id;
  getItems = items;
  button.setAttribute('aria-expanded', 'true');
  place(menu, button);
  menu.querySelector('button')?.focus();
}

/** After the player list re-rendered: `findButton(id)` is the player's new menu button. */
export function refreshPlayerMenu(findButton) {
  if (!openId) return;
  const button = findButton(openId);
  const list = button ? getItems() : [];
  if (!list.length) {
    closePlayerMenu();
    return;
  }
  const menu = $('#player-menu');
  openFor = button;
  button.setAttribute('aria-expanded', 'true');
  renderItems(menu, list);
  place(menu, button);
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
