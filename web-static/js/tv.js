// The big-screen page, /tv and /tv/CODE (docs/CLIENT.md, "The big screen"): a screen that
// watches a room (`join` with `watch`: no seat, never the word) and shows it to a sofa:
// the canvas as large as it goes, the mask, the clock, the scoreboard, who guessed, the
// word at the turn's end and the podium. It resumes with its token like any player.

import { $, el } from './dom.js';
import { t, setLocale, initialLocale } from './i18n.js';
import { Connection } from './connection.js';
import { Board } from './board.js';
import { avatarNode } from './avatar.js';
import { normalizeCode, codeFromPath, scoreboard, clock, shownCode } from './tv-model.js';

const MAX_EVENTS = 5;
const conn = new Connection({ name: 'TV' });
const state = {
  code: null,
  room: null,
  drawer: null,
  mask: '',
  deadline: null,
  guessed: new Set(),
  events: [],
  joined: false,
};
let board = null;

function names(id) {
  return state.room?.players?.find((p) => p.id === id)?.name || '';
}

function watch() {
  if (!state.code || !conn.isOpen) return;
  conn.watching = true;
  conn.send({ t: 'join', code: state.code, watch: true });
}

function setDeadline(remainingMs) {
  state.deadline = Number.isFinite(remainingMs) && remainingMs > 0 ? performance.now() + remainingMs : null;
}

function addEvent(text) {
  state.events = [text, ...state.events].slice(0, MAX_EVENTS);
  $('#tv-events').replaceChildren(...state.events.map((line) => el('li', { text: line })));
}

function renderScores() {
  const rows = scoreboard(state.room?.players, { drawer: state.drawer, guessed: state.guessed });
  $('#tv-scores').replaceChildren(...rows.map((p) => el('li', {
    className: `tv-score${p.guessedNow ? ' guessed' : ''}${p.drawing ? ' drawing' : ''}${p.connected === false ? ' away' : ''}`,
  }, avatarNode(p.avatar, p.name, { size: 48 }), el('span', { className: 'tv-score-name', text: p.name, attrs: { dir: 'auto' } }),
  el('span', { className: 'tv-score-points', text: String(p.score) }))));
}

function renderStatus() {
  const room = state.room;
  if (!room) return;
  $('#tv-name').textContent = room.name || '';
  $('#tv-room-code').textContent = shownCode(room);
  const phase = room.phase;
  $('#tv-round').textContent = phase === 'lobby' ? '' : t('tv.round', { round: room.round || 1, rounds: room.rounds || 1 });
  let who = t('tv.waiting');
  if (phase === 'choosing') who = t('tv.choosing', { name: names(state.drawer) });
  else if (phase === 'drawing') who = t('tv.drawing', { name: names(state.drawer) });
  else if (phase === 'gameEnd') who = t('tv.gameOver');
  $('#tv-who').textContent = who;
  const mask = phase === 'drawing' ? state.mask : '';
  $('#tv-mask').textContent = mask;
  // As large as the column allows: a long word (or several) gets smaller letters.
  $('#tv-mask').style.fontSize = `${Math.min(3.2, 30 / Math.max(1, mask.length))}rem`;
}

function render() {
  renderStatus();
  renderScores();
  tick();
}

function tick() {
  const left = state.deadline === null ? null : state.deadline - performance.now();
  $('#tv-timer').textContent = left === null ? '' : clock(left);
  $('#tv-timer').classList.toggle('hurry', left !== null && left < 10_000);
}

function showReveal(label, word, ranking = []) {
  $('#tv-reveal-label').textContent = label;
  $('#tv-reveal-word').textContent = word || '';
  $('#tv-podium').replaceChildren(...ranking.slice(0, 5).map((r) => el('li', { className: `place-${r.place}` },
    el('span', { className: 'tv-place', text: String(r.place) }), avatarNode(r.avatar, r.name, { size: 56 }),
    el('span', { className: 'tv-score-name', text: r.name, attrs: { dir: 'auto' } }), el('span', { className: 'tv-score-points', text: String(r.score) }))));
  $('#tv-reveal').hidden = false;
}

function hideReveal() {
  $('#tv-reveal').hidden = true;
}

const handlers = {
  welcome: (msg) => {
    // A resumed screen is put back in its room by its hello (a `room` follows); a new one
    // asks to watch.
    state.joined = false;
    if (!msg.resumed) watch();
    else setTimeout(() => { if (!state.joined) watch(); }, 300);
  },
  room: (msg) => {
    state.joined = true;
    state.room = msg;
    state.drawer = msg.drawer || null;
    state.mask = msg.mask || state.mask;
    if (msg.canvas) board.ensureSize(msg.canvas.w, msg.canvas.h);
    if (msg.phase === 'lobby') { board.reset(); state.guessed.clear(); hideReveal(); }
    if (msg.phase === 'drawing' || msg.phase === 'choosing') setDeadline(msg.remainingMs);
    else if (msg.phase === 'lobby') setDeadline(null);
    // The address names the room, so a reload watches it again; not a streamer's room.
    if (!msg.settings?.streamer) history.replaceState(null, '', `/tv/${msg.code}`);
    showScreen('room');
    render();
  },
  canvas: (msg) => board.reset(msg.w, msg.h),
  choosing: (msg) => {
    state.drawer = msg.drawer;
    if (state.room) state.room.phase = 'choosing';
    setDeadline(msg.remainingMs);
    hideReveal();
    render();
  },
  turn: (msg) => {
    const fresh = state.drawer !== msg.drawer || state.room?.phase !== 'drawing';
    state.drawer = msg.drawer;
    state.mask = msg.mask;
    if (state.room) { state.room.phase = 'drawing'; state.room.round = msg.round; }
    if (fresh) { board.reset(); state.guessed.clear(); }
    setDeadline(msg.remainingMs);
    hideReveal();
    render();
  },
  hint: (msg) => { state.mask = msg.mask; renderStatus(); },
  guessed: (msg) => {
    state.guessed.add(msg.playerId);
    addEvent(t('tv.guessed', { name: names(msg.playerId), points: msg.points ?? 0 }));
    renderScores();
  },
  turnEnd: (msg) => {
    if (state.room) {
      state.room.phase = 'turnEnd';
      for (const p of state.room.players || []) p.score += msg.scores?.[p.id] || 0;
    }
    setDeadline(null);
    showReveal(t('tv.wordWas'), msg.word);
    render();
  },
  gameEnd: (msg) => {
    if (state.room) state.room.phase = 'gameEnd';
    setDeadline(null);
    showReveal(t('tv.gameOver'), '', msg.ranking || []);
    render();
  },
  joined: (msg) => {
    if (state.room && msg.player && !state.room.players.some((p) => p.id === msg.player.id)) state.room.players.push(msg.player);
    renderScores();
  },
  left: (msg) => {
    if (state.room) state.room.players = state.room.players.filter((p) => p.id !== msg.playerId);
    renderScores();
  },
  closed: () => { state.room = null; showScreen('entry', t('tv.closed')); },
  error: (msg) => {
    if (msg.ref === 'join' || !state.joined) showScreen('entry', t('tv.joinFailed', { reason: msg.message || msg.code }));
  },
};

function showScreen(which, error = '') {
  $('#tv-entry').hidden = which !== 'entry';
  $('#tv-room').hidden = which !== 'room';
  $('#tv-error').hidden = !error;
  $('#tv-error').textContent = error;
  if (which === 'entry') {
    state.code = null;
    history.replaceState(null, '', '/tv');
    $('#tv-code').focus();
  }
}

function onSubmit(ev) {
  ev.preventDefault();
  const code = normalizeCode($('#tv-code').value);
  if (!code) {
    showScreen('entry', t('tv.badCode'));
    return;
  }
  state.code = code;
  $('#tv-error').hidden = true;
  if (conn.stopped) conn.start('TV');
  else watch();
}

function translate() {
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
}

function onStatus(status) {
  const offline = status.state !== 'open';
  $('#tv-offline').hidden = !offline || $('#tv-room').hidden;
  $('#tv-offline').textContent = offline ? t(status.key || 'conn.reconnecting') : '';
}

async function keepAwake() {
  try {
    await navigator.wakeLock?.request('screen');
  } catch {
    /* not offered, or refused: the TV's own settings decide */
  }
}

function boot() {
  setLocale(initialLocale(), { remember: false });
  translate();
  board = new Board($('#tv-board'), () => {});
  conn.addEventListener('message', (ev) => handlers[ev.detail.t]?.(ev.detail));
  conn.addEventListener('binary', (ev) => { if (state.room) board.applyFrame(ev.detail); });
  conn.addEventListener('status', (ev) => onStatus(ev.detail));
  $('#tv-form').addEventListener('submit', onSubmit);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) keepAwake(); });
  setInterval(tick, 250);
  keepAwake();
  state.code = codeFromPath(location.pathname);
  if (state.code) {
    showScreen('room');
    $('#tv-room-code').textContent = state.code;
    conn.start('TV');
  } else {
    showScreen('entry');
  }
  window.drawserverTV = { state, conn, board }; // for the e2e test
}

boot();
