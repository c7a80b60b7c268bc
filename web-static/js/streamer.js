// Streamer mode (docs/CLIENT.md, docs/PROTOCOL.md 12.2): while the room's
// `settings.streamer` is on, every page in it keeps the room code, the invite link and
// player ids off the screen. The code shows as dots wherever it appears (header, chat
// lines, invite prompt); only the host has a button that shows it, until the next click,
// on this page only. The real values stay in the state and in data attributes (never on
// screen); everything here is re-applied on each render, so turning the setting off (or
// on) takes effect at once.

import { $, $$, el, show } from './dom.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { maskedText } from './util.js';
import { state, isHost, streamerMode, codeHidden, setCodeRevealed } from './store.js';

/** A room code as this page may show it now. */
export function shownCode(code) {
  return maskedText(code, codeHidden());
}

/** A player id as this page may show it now (never in streamer mode, not even one's own). */
export function shownId(id) {
  return maskedText(id, streamerMode());
}

/** Phones share the invite through the system sheet, which prints the link: not in streamer mode. */
export function useShareSheet() {
  return typeof navigator.share === 'function' && !streamerMode();
}

/** A room code inside a text (a chat line, the invite prompt), masked and unmasked with the header's. */
export function codeRef(code) {
  return el('bdi', { className: 'code-ref', dataset: { code: String(code ?? '') }, text: shownCode(code) });
}

/** Apply the room's streamer mode (or its absence) to everything that shows a code or an id. */
export function renderStreamer() {
  const on = streamerMode();
  const hidden = codeHidden();
  document.body.classList.toggle('streamer', on);
  show($('#streamer-badge'), on);
  // a streamer's room is listed nowhere, whatever `public` says: the badge takes its place
  show($('#room-visibility'), !on);
  const code = $('#room-code');
  code.textContent = shownCode(state.room?.code);
  code.classList.toggle('masked', hidden);
  if (hidden) code.setAttribute('aria-label', t('streamer.hidden'));
  else code.removeAttribute('aria-label');
  renderRevealButton(on && isHost(), hidden);
  // the link is the code: only the host may copy it (without showing it)
  const invite = $('#copy-invite');
  show(invite, !on || isHost());
  invite.dataset.i18n = useShareSheet() ? 'room.share' : 'room.copyInvite';
  invite.textContent = t(invite.dataset.i18n);
  for (const n of $$('.code-ref')) n.textContent = shownCode(n.dataset.code);
  const id = $('#me-id');
  id.textContent = shownId(state.meId);
  if (on) id.setAttribute('aria-label', t('streamer.hidden'));
  else id.removeAttribute('aria-label');
}

function renderRevealButton(visible, hidden) {
  const btn = $('#code-reveal');
  show(btn, visible);
  if (!visible) return;
  const label = t(hidden ? 'streamer.show' : 'streamer.hide');
  btn.setAttribute('aria-pressed', String(!hidden));
  btn.setAttribute('aria-label', label);
  btn.title = label;
  btn.replaceChildren(icon(hidden ? 'eye' : 'eyeOff'));
}

export function initStreamer() {
  $('#code-reveal').addEventListener('click', () => {
    setCodeRevealed(!state.codeRevealed);
    renderStreamer();
  });
}
