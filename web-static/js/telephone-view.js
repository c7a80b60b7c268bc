// The telephone game's screens in the room's stage (docs/CLIENT.md, "Telephone mode"):
// the step panel (write, describe, the draw step's bar, the waiting state, a watcher's
// note) and the album the host reveals. Reads `state.phone` (telephone-model.js); the
// only input it takes is the Done / Change / Next buttons, wired once by initTelephone().

import { $, el, show, toast } from './dom.js';
import { t } from './i18n.js';
import { avatarNode } from './avatar.js';
import { icon } from './icons.js';
import { stepScreen, albumView, progressCount, cleanPhoneText, PHONE_TEXT_MAX } from './telephone-model.js';
import { state, player, playerName, isHost, markPhoneSubmitted, reopenPhoneAnswer } from './store.js';
import { send } from './context.js';

// the step's kind at a glance, as party games do (SVG: no emoji font needed)
const KIND_ICONS = Object.freeze({ write: 'pen', draw: 'fill', describe: 'eye' });
// A text typed but not handed in is sent this long before the step's end (as Gartic
// Phone does): the server would count it as empty. Early enough to arrive within the
// step; a later send could land in the next step and answer that one.
const DRAFT_SEND_MS = 1500;

let rerender = () => {};
let shownReveal = ''; // the reveal last drawn ("chain:entry"): a new one scrolls into view

/** Wire the buttons; `onChange` re-renders the room (a submit changes the stage). */
export function initTelephone(onChange) {
  rerender = onChange;
  $('#phone-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = cleanPhoneText($('#phone-input').value);
    if (text === null) {
      toast(t('phone.tooLong', { n: PHONE_TEXT_MAX }), 'error');
      return;
    }
    if (send({ t: 'phoneSubmit', text })) {
      markPhoneSubmitted(text);
      rerender();
    }
  });
  $('#phone-input').addEventListener('input', renderCount);
  $('#phone-draw-done').addEventListener('click', () => {
    if (send({ t: 'phoneSubmit' })) {
      markPhoneSubmitted('');
      rerender();
    }
  });
  $('#phone-edit').addEventListener('click', () => {
    reopenPhoneAnswer();
    rerender();
    $('#phone-input').focus();
  });
  $('#album-next').addEventListener('click', () => send({ t: 'albumNext' }));
}

/** Every timer tick of a step: hand in a typed, unsent text just before the time is up. */
export function phoneTick(remainingMs) {
  const p = state.phone;
  if (p.step === null || p.kind === 'draw' || (p.submitted && !p.editing) || remainingMs > DRAFT_SEND_MS || remainingMs <= 0) return;
  const text = cleanPhoneText($('#phone-input').value);
  // an edit that went back to the text sent needs no send either
  if (text === null || (p.editing && text === p.myText)) return;
  if (send({ t: 'phoneSubmit', text })) {
    markPhoneSubmitted(text);
    rerender();
  }
}

function renderCount() {
  const n = [...$('#phone-input').value].length;
  $('#phone-count').textContent = `${n}/${PHONE_TEXT_MAX}`;
  $('#phone-count').classList.toggle('over', n > PHONE_TEXT_MAX);
}

/** The stage's telephone parts for the current phase (hidden outside telephone/album). */
export function renderTelephone() {
  const phase = state.phase;
  show($('#phone-panel'), phase === 'telephone');
  show($('#album-panel'), phase === 'album');
  if (phase === 'telephone') renderStep();
  if (phase === 'album') renderAlbum();
  else shownReveal = '';
}

/**
 * "Step 2 of 5" (the header's pill and the panel's). A watcher is told no steps: it
 * shows the step the last progress was of, or just "Telephone" before any.
 */
export function stepLabel() {
  const p = state.phone;
  const step = p.step ?? p.progressStep;
  if (step === null) return t('phone.title');
  return t('phone.stepOf', { step: step + 1, steps: progressCount(p, seatedCount()).total || '?' });
}

/**
 * The players seated now: a watcher's count of the game's players (the room message does
 * not say who plays; a watcher knows at least that it does not).
 */
function seatedCount() {
  const seated = (state.room?.players || []).filter((q) => !q.spectator);
  return state.phone.step === null ? seated.filter((q) => q.id !== state.meId).length : seated.length;
}

function renderStep() {
  const p = state.phone;
  const screen = p.step === null ? 'watching' : stepScreen(p);
  const panel = $('#phone-panel');
  panel.dataset.screen = screen;
  panel.dataset.kind = p.kind || '';
  $('#phone-step').textContent = stepLabel();
  const kindIcon = screen === 'watching' ? 'eye' : KIND_ICONS[p.kind];
  $('#phone-title').replaceChildren(kindIcon ? icon(kindIcon) : '', titleText(p, screen));
  const form = screen === 'answer';
  show($('#phone-form'), form);
  show($('#phone-draw-done'), screen === 'draw');
  show($('#phone-waiting'), screen === 'waiting' || screen === 'drawDone' || screen === 'watching');
  renderHanded(p, screen);
  syncInput(p);
  if (form) renderForm(p);
  renderWaiting(p, screen);
  renderProgress(p);
}

function titleText(p, screen) {
  if (screen === 'watching') return t('phone.watching');
  if (p.kind === 'write') return t('phone.write.title');
  if (p.kind === 'describe') return t('phone.describe.title');
  return screen === 'drawDone' ? t('phone.drawDone') : t('phone.draw.hint');
}

/** The drawing handed to describe (large), or the note that it was left empty. */
function renderHanded(p, screen) {
  const describing = p.kind === 'describe' && screen !== 'watching';
  const has = describing && Boolean(p.drawing);
  const fig = $('#phone-drawing');
  show(fig, has);
  // the <img> exists only while there is a drawing to describe: no element, no request
  if (!has) fig.replaceChildren();
  else if (fig.firstElementChild?.getAttribute('src') !== p.drawing.png) {
    fig.replaceChildren(el('img', { id: 'phone-drawing-img', src: p.drawing.png, alt: t('phone.drawingLabel'), attrs: { width: 800, height: 600 } }));
  }
  show($('#phone-empty'), describing && !p.drawing);
  $('#phone-empty').textContent = t('phone.describe.empty');
}

function renderForm(p) {
  const input = $('#phone-input');
  const key = p.kind === 'describe' ? 'phone.describe.placeholder' : 'phone.write.placeholder';
  input.placeholder = t(key);
  $('#phone-input-label').textContent = t(p.kind === 'describe' ? 'phone.describe.title' : 'phone.write.title');
  $('#phone-done').textContent = p.editing ? t('phone.update') : t('phone.done');
  renderCount();
}

/**
 * A new step's form starts empty, "Change my answer" starts from the text sent; a text
 * is not left in the (hidden) field once sent, so the page keeps nothing it need not.
 */
function syncInput(p) {
  const input = $('#phone-input');
  const formKey = `${p.step}:${p.submitted}:${p.editing}`;
  if (input.dataset.step === formKey) return;
  input.dataset.step = formKey;
  input.value = p.editing ? p.myText : '';
}

function renderWaiting(p, screen) {
  const { done, total } = progressCount(p, seatedCount());
  const waiting = screen === 'waiting' || screen === 'drawDone';
  $('#phone-waiting-text').textContent = waiting ? t('phone.waiting', { done, total }) : '';
  show($('#phone-waiting-text'), waiting);
  const mine = screen === 'waiting' && p.myText;
  show($('#phone-mine'), Boolean(mine));
  $('#phone-mine').textContent = mine ? p.myText : '';
  show($('#phone-edit'), screen === 'waiting');
}

/** Who has submitted: every player's avatar, a check mark on those done, and "3/5 done". */
function renderProgress(p) {
  const { done, total } = progressCount(p, seatedCount());
  const watching = p.step === null;
  const seated = (state.room?.players || []).filter((q) => !q.spectator && !(watching && q.id === state.meId));
  const doneSet = new Set(p.done);
  // the game's players are those seated at its start; later joiners are spectators or
  // came after: show the done ones first (they are known), then the seated others
  const ids = [...p.done, ...seated.map((q) => q.id).filter((id) => !doneSet.has(id))].slice(0, Math.max(total, p.done.length));
  $('#phone-avatars').replaceChildren(...ids.map((id) => {
    const isDone = doneSet.has(id);
    const name = playerName(id);
    return el('li', { className: isDone ? 'is-done' : '', dataset: { id }, attrs: { title: isDone ? t('phone.doneBy', { name }) : name } },
      avatarNode(player(id)?.avatar, name, { size: 34 }),
      isDone ? el('span', { className: 'phone-check' }, icon('check', t('phone.doneMark'))) : null);
  }));
  $('#phone-progress-text').textContent = t('phone.progress', { done, total });
  $('#phone-progress').style.setProperty('--done', String(total ? done / total : 0));
}

// ------------------------------------------------------------------ album

function renderAlbum() {
  const v = albumView(state.phone);
  const panel = $('#album-panel');
  if (!v) {
    panel.dataset.state = 'loading';
    $('#album-entries').replaceChildren();
    return;
  }
  panel.dataset.state = v.newest < 0 ? 'title' : 'entries';
  const ownerName = playerName(v.owner);
  $('#album-count').textContent = t('album.chainOf', { n: v.chain + 1, count: v.count });
  $('#album-owner').replaceChildren(
    avatarNode(player(v.owner)?.avatar, ownerName, { size: v.newest < 0 ? 96 : 40 }),
    el('span', { className: 'album-owner-name' }, el('bdi', { text: t('album.title', { name: ownerName }) })),
  );
  $('#album-entries').replaceChildren(...v.entries.map((e, i) => albumEntry(e, i === v.newest)));
  const host = isHost();
  show($('#album-next'), host);
  $('#album-next').textContent = v.last ? t('album.finish') : t('album.next');
  show($('#album-wait'), !host);
  $('#album-wait').textContent = host ? '' : t('album.hostShows');
  const key = `${v.chain}:${v.newest}`;
  if (key !== shownReveal) {
    shownReveal = key;
    const newest = $('#album-entries .is-newest');
    requestAnimationFrame(() => (newest || $('#album-owner')).scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  }
}

/** One entry: who, then what (a speech bubble for a text, the picture for a drawing). */
function albumEntry(e, newest) {
  const name = playerName(e.by);
  const who = el('div', { className: 'album-by' },
    avatarNode(player(e.by)?.avatar, name, { size: newest ? 32 : 24 }),
    el('bdi', { className: 'album-by-name', text: name }),
    el('span', { className: 'muted small', text: e.kind === 'drawing' ? t('album.drew') : t('album.wrote') }));
  return el('li', { className: `album-entry album-kind-${e.kind}${newest ? ' is-newest' : ''}` }, who,
    e.kind === 'drawing' ? albumDrawing(e.drawing, name) : albumText(e.text));
}

function albumText(text) {
  return text
    ? el('p', { className: 'album-text', attrs: { dir: 'auto' }, text })
    : el('p', { className: 'album-text album-empty muted', text: t('album.emptyText') });
}

/** The drawing's PNG; a click plays its time-lapse (the APNG) from the start, again to stop. */
function albumDrawing(d, name) {
  if (!d) return el('p', { className: 'album-text album-empty muted', text: t('album.emptyDrawing') });
  const img = el('img', { className: 'album-img', src: d.png, alt: t('album.drawingBy', { name }), attrs: { loading: 'lazy', width: 800, height: 600 } });
  if (!d.timelapse) return el('figure', { className: 'album-figure' }, img);
  const btn = el('button', { type: 'button', className: 'btn btn-ghost btn-sm album-replay', attrs: { 'aria-pressed': 'false' } }, icon('play'), ` ${t('album.replay')}`);
  const toggle = () => {
    const playing = btn.getAttribute('aria-pressed') !== 'true';
    // a fresh query restarts the APNG from its first frame
    img.src = playing ? `${d.timelapse}?play=${Date.now()}` : d.png;
    btn.setAttribute('aria-pressed', String(playing));
  };
  btn.addEventListener('click', toggle);
  img.addEventListener('click', toggle);
  return el('figure', { className: 'album-figure' }, img, btn);
}
