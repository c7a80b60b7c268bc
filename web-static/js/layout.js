// Sizing of the room on wide screens (see docs/CLIENT.md, "Layout").

import { $ } from './dom.js';

export const PHONE_MAX_WIDTH = 760; // the CSS breakpoint of the phone layout
const PAGE_BOTTOM = 12; // the page's bottom padding
const STAGE_GAP = 8; // between the board and the toolbar
const TOOLBAR_H = 53; // one toolbar row (when the CSS gives no min-height)
const MIN_BOARD_W = 320;

/**
 * On a wide screen the board is as large as fits between the room header and the
 * toolbar, so the drawer sees the word, the timer, the whole canvas and the tools
 * without scrolling; the side panels take the height left below the header. Phones
 * scroll (the header then sticks at the top). `ratio` is the canvas's w / h.
 */
export function fitRoom(ratio) {
  const wrap = $('#board-wrap');
  const grid = $('.room-grid');
  if (!wrap || !grid) return;
  if (window.innerWidth <= PHONE_MAX_WIDTH) {
    wrap.style.maxWidth = '';
    grid.style.removeProperty('--panel-h');
    return;
  }
  const gridTop = grid.getBoundingClientRect().top + window.scrollY;
  grid.style.setProperty('--panel-h', `${Math.max(320, window.innerHeight - gridTop - PAGE_BOTTOM)}px`);
  if (wrap.hidden) return;
  const toolbar = $('#toolbar');
  // the toolbar's room (its CSS min-height, one row) is kept while it is hidden, so the
  // board does not jump at a turn start
  const toolbarH = toolbar.hidden ? parseFloat(getComputedStyle(toolbar).minHeight) || TOOLBAR_H : toolbar.offsetHeight;
  const top = wrap.getBoundingClientRect().top + window.scrollY;
  const avail = window.innerHeight - top - toolbarH - STAGE_GAP - PAGE_BOTTOM;
  wrap.style.maxWidth = `${Math.max(MIN_BOARD_W, Math.floor(avail * ratio))}px`;
}
