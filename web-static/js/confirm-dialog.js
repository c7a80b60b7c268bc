// An in-page question with two buttons (a <dialog>), instead of the browser's native
// confirm(): it is translated, styled, keeps the page running (timers, the socket) and
// never blocks a test driver.

import { $, el } from './dom.js';
import { t, tParts } from './i18n.js';

let pending = null; // the resolve of the question on screen

function finish(answer) {
  const dialog = $('#confirm-dialog');
  if (dialog.open) dialog.close();
  const resolve = pending;
  pending = null;
  resolve?.(answer);
}

/**
 * Ask `key` (with `params`; each parameter, a name, isolated in <bdi>); resolves true
 * for the confirming button, false for Cancel, Escape or a newer question.
 */
export function ask(key, params = {}, { okKey = 'dialog.ok', danger = false } = {}) {
  const dialog = $('#confirm-dialog');
  if (pending) finish(false);
  $('#confirm-text').replaceChildren(...tParts(key, params).map((p) => (p.param ? el('bdi', { text: p.text }) : p.text)));
  const ok = $('#confirm-ok');
  ok.textContent = t(okKey);
  ok.className = `btn ${danger ? 'btn-danger' : 'btn-primary'}`;
  $('#confirm-cancel').textContent = t('dialog.cancel');
  return new Promise((resolve) => {
    pending = resolve;
    dialog.showModal();
    $('#confirm-cancel').focus();
  });
}

export function initConfirmDialog() {
  const dialog = $('#confirm-dialog');
  $('#confirm-ok').addEventListener('click', () => finish(true));
  $('#confirm-cancel').addEventListener('click', () => finish(false));
  dialog.addEventListener('close', () => finish(false));
  // a click on the backdrop (outside the card) is a Cancel
  dialog.addEventListener('click', (ev) => { if (ev.target === dialog) finish(false); });
}
