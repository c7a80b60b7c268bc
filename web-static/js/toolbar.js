// The drawer's toolbar: tools, widths, palette, custom colour, undo/clear/skip, keys.

import { $, $$, el } from './dom.js';
import { t } from './i18n.js';
import { ui, send } from './context.js';
import { ask } from './confirm-dialog.js';

const PALETTE = [
  '#000000', '#4b5563', '#9ca3af', '#ffffff', '#7f1d1d', '#ef4444', '#f97316', '#facc15',
  '#84cc16', '#16a34a', '#14b8a6', '#0ea5e9', '#2563eb', '#1e3a8a', '#7c3aed', '#db2777',
  '#f9a8d4', '#92400e', '#d6a77a', '#fde68a',
];
const WIDTHS = [2, 4, 8, 16, 32, 48];
const TOOL_KEYS = { b: 'pen', p: 'pen', e: 'eraser', f: 'fill', l: 'line', r: 'rect', o: 'ellipse' };
/** 'on' or 'off' once a pen or finger with pressure was seen here (the switch then shows at once). */
const PRESSURE_KEY = 'drawserver.pressure';

function hexToRgb(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  const n = m ? parseInt(m[1], 16) : 0;
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function selectColor(hex, btn) {
  ui.board.color = hexToRgb(hex);
  for (const b of $$('#palette button')) b.setAttribute('aria-pressed', String(b === btn));
  if (ui.board.tool === 'eraser') setTool('pen');
}

function buildPalette() {
  const palette = $('#palette');
  PALETTE.forEach((hex, i) => {
    const b = el('button', {
      type: 'button',
      className: 'swatch',
      title: hex,
      dataset: { hex },
      attrs: { 'aria-label': t('tools.colourN', { hex }), 'aria-pressed': String(i === 0) },
      on: { click: () => selectColor(hex, b) },
    });
    b.style.setProperty('--swatch', hex);
    palette.append(b);
  });
  $('#custom-color').addEventListener('input', (ev) => selectColor(ev.target.value, null));
}

function buildWidths() {
  const widths = $('#widths');
  const pressure = $('#tool-pressure');
  WIDTHS.forEach((w) => {
    const b = el('button', {
      type: 'button',
      className: 'tool width',
      title: t('tools.widthN', { n: w }),
      dataset: { width: String(w) },
      attrs: { 'aria-label': t('tools.widthN', { n: w }), 'aria-pressed': String(w === ui.board.width) },
      on: { click: () => {
        ui.board.width = w;
        for (const x of $$('.width', widths)) x.setAttribute('aria-pressed', String(x === b));
        updateBrushCursor();
      } },
    }, el('span', { className: 'width-dot', attrs: { 'aria-hidden': 'true' } }));
    b.style.setProperty('--w', `${Math.max(3, Math.min(26, w * 0.6))}px`);
    pressure.before(b);
  });
}

function storedPressure() {
  try {
    return localStorage.getItem(PRESSURE_KEY);
  } catch {
    return null;
  }
}

function storePressure(value) {
  try {
    localStorage.setItem(PRESSURE_KEY, value);
  } catch {
    /* private mode: not remembered */
  }
}

/**
 * The pen-pressure switch (on by default), after the width buttons. It is hidden until
 * a pen or finger shows pressure (board.onPressureFound), here or in an earlier visit:
 * mouse users never see it.
 */
function initPressureToggle() {
  const board = ui.board;
  const btn = $('#tool-pressure');
  const render = () => btn.setAttribute('aria-pressed', String(board.pressure.enabled));
  const stored = storedPressure();
  board.pressure.enabled = stored !== 'off';
  btn.hidden = stored !== 'on' && stored !== 'off';
  board.onPressureFound = () => {
    if (!btn.hidden) return;
    btn.hidden = false;
    storePressure(board.pressure.enabled ? 'on' : 'off');
  };
  btn.addEventListener('click', () => {
    board.pressure.enabled = !board.pressure.enabled;
    storePressure(board.pressure.enabled ? 'on' : 'off');
    render();
  });
  render();
}

const CURSOR_MAX = 120; // browsers ignore cursor images over 128 px
const CURSOR_MIN = 4;

/**
 * The pen's and eraser's cursor: a ring as wide as the brush at the board's current
 * scale, zoom included (the fill and shape tools' cursors are set by the CSS).
 */
export function updateBrushCursor() {
  const board = ui.board;
  const rect = board.canvas.getBoundingClientRect();
  const scale = rect.width > 0 ? rect.width / board.model.w : 1;
  const d = Math.round(Math.max(CURSOR_MIN, Math.min(CURSOR_MAX, board.width * scale)));
  const size = d + 4;
  const c = size / 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">`
    + `<circle cx="${c}" cy="${c}" r="${d / 2}" fill="none" stroke="white" stroke-width="3"/>`
    + `<circle cx="${c}" cy="${c}" r="${d / 2}" fill="none" stroke="black" stroke-width="1"/></svg>`;
  board.canvas.style.setProperty('--brush-cursor', `url("data:image/svg+xml,${encodeURIComponent(svg)}") ${Math.round(c)} ${Math.round(c)}, crosshair`);
}

function onKey(ev) {
  const board = ui.board;
  if (!board.enabled) return;
  const tag = ev.target?.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
  if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 'z') {
    ev.preventDefault();
    board.undo();
  } else if (!ev.ctrlKey && !ev.metaKey && !ev.altKey) {
    const tool = TOOL_KEYS[ev.key.toLowerCase()];
    if (tool) setTool(tool);
  }
}

export function initToolbar() {
  buildPalette();
  buildWidths();
  initPressureToggle();
  for (const b of $$('[data-tool]')) b.addEventListener('click', () => setTool(b.dataset.tool));
  $('#tool-undo').addEventListener('click', () => ui.board.undo());
  $('#tool-clear').addEventListener('click', () => ui.board.clear());
  $('#tool-skip').addEventListener('click', async () => {
    if (await ask('tools.skipConfirm')) send({ t: 'skip' });
  });
  document.addEventListener('keydown', onKey);
  ui.board.onViewChange = updateBrushCursor;
  setTool('pen');
}

export function retranslateToolbar() {
  for (const b of $$('#palette .swatch')) b.setAttribute('aria-label', t('tools.colourN', { hex: b.dataset.hex }));
  for (const b of $$('#widths .width')) {
    const label = t('tools.widthN', { n: b.dataset.width });
    b.setAttribute('aria-label', label);
    b.title = label;
  }
}

export function setTool(tool) {
  ui.board.tool = tool;
  for (const b of $$('[data-tool]')) b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
  ui.board.canvas.dataset.activeTool = tool;
  updateBrushCursor();
}
