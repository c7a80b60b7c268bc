// The big-screen page, entry point of tv.html (served at /tv and /tv/CODE; docs/CLIENT.md
// "The big screen"). It says `hello` as "TV" with its own stored token (a reload resumes),
// then `{"t":"join","code":…,"watch":true}`: a screen that watches takes no seat, never
// plays and sees what a spectator sees (docs/PROTOCOL.md 12.3). The room's state lives in
// the player client's store (js/store.js); server messages go through TV_HANDLERS. A
// telephone game (PROTOCOL 12.5) is watched from `phoneProgress` (the step, who has handed
// in, the step's clock) and the album; who plays is `tv.phone` (tv-model.js's watch), kept
// in sessionStorage for a reload.

import { $, el } from './dom.js';
import { Connection } from './connection.js';
import { Board } from './board.js';
import { Sounds } from './sounds.js';
import { t, LOCALES, locale, initialLocale, setLocale, onLocaleChange } from './i18n.js';
import { turnKey } from './chat-history.js';
import * as store from './store.js';
import { state, playerName, streamerMode } from './store.js';
import {
  TV_TOKEN_KEY, TV_NAME, tvPathCode, tvPath, checkTvCode, feedFromHistory, addFeed,
  PHONE_MEMO_KEY, initialWatch, watchStart, watchRoom, phoneMemo, restoreWatch,
} from './tv-model.js';
import { tv, showView, renderEntry, renderRoom, renderScores, renderFeed, renderStage, renderTimer, renderBanner, fitBoard } from './tv-view.js';

const TICK_MS = 250;
const RESUME_WAIT_MS = 800; // a resumed session's room message, before joining again
const JOIN_ERRORS = new Set(['room_not_found', 'room_full', 'banned', 'bad_message', 'server_busy', 'rate_limited', 'storage_unavailable']);

const conn = new Connection({ name: TV_NAME, tokenKey: TV_TOKEN_KEY, joinFields: { watch: true } });
const sounds = new Sounds();
let resumeTimer = null;
let lastTick = null;

function navigate(code) {
  const path = tvPath(code);
  if (location.pathname !== path) history.replaceState(null, '', path);
}

function feed(item) {
  tv.feed = addFeed(tv.feed, item);
  renderFeed();
}

/** Join the room this screen is for (leaving another one first). */
function joinTarget() {
  clearTimeout(resumeTimer);
  resumeTimer = null;
  if (!tv.target || !conn.isOpen) return;
  if (state.room?.code === tv.target) return;
  if (state.room) {
    conn.send({ t: 'leave' });
    store.leaveRoom();
  }
  conn.send({ t: 'join', code: tv.target, watch: true });
}

/** Back to the code form, with a message under the field (`key`, or none). */
function toEntry(error = null, code = '') {
  tv.target = '';
  tv.entryBusy = false;
  tv.entryError = error;
  tv.countdown.stop();
  store.leaveRoom();
  setWatch(initialWatch());
  tv.board.reset();
  navigate('');
  showView('entry');
  renderEntry();
  const input = $('#entry-code');
  if (code) input.value = code;
  input.focus();
  input.select();
}

function onWelcome(msg) {
  store.setWelcome(msg);
  tv.board.reset(); // the server resends the canvas of a resumed turn
  clearTimeout(resumeTimer);
  // resumed: the room (if the screen still is in one) follows at once; else join again
  if (msg.resumed) {
    resumeTimer = setTimeout(() => {
      store.leaveRoom(); // no room came: the seat was not kept
      joinTarget();
    }, RESUME_WAIT_MS);
  } else {
    store.leaveRoom();
    joinTarget();
  }
}

function onRoom(msg) {
  clearTimeout(resumeTimer);
  resumeTimer = null;
  if (!tv.target) tv.target = msg.code; // put back in a room this tab was showing
  if (msg.code !== tv.target) {
    // resumed into another room than the one asked for (the address changed)
    joinTarget();
    return;
  }
  const { firstEntry, prevPhase } = store.applyRoom(msg);
  if (typeof msg.remainingMs === 'number') tv.countdown.set(msg.remainingMs);
  phoneRoom(msg, firstEntry, prevPhase);
  if (state.nextGameMs !== null) tv.nextGame.set(state.nextGameMs);
  else tv.nextGame.stop();
  if (msg.canvas) tv.board.ensureSize(msg.canvas.w, msg.canvas.h);
  if (firstEntry) {
    tv.feed = [];
    tv.entryBusy = false;
    tv.entryError = null;
    if (state.phase === 'lobby' || state.phase === 'choosing') tv.board.reset();
  }
  // the address names the room, so a reload shows it again; not a streamer's room, whose
  // code stays off the screen (the token's resume still brings the screen back to it)
  navigate(streamerMode() ? '' : msg.code);
  showView('room');
  fitBoard();
  renderRoom();
}

// ---------------------------------------------------------------- telephone (PROTOCOL 12.5)

function saveMemo() {
  try {
    const memo = state.phase === 'telephone' && state.room ? phoneMemo(tv.phone, state.room.code, Date.now()) : null;
    if (memo) sessionStorage.setItem(PHONE_MEMO_KEY, JSON.stringify(memo));
    else sessionStorage.removeItem(PHONE_MEMO_KEY);
  } catch {
    // no storage: after a reload the seated players stand for the game's
  }
}

function loadMemo() {
  try {
    return JSON.parse(sessionStorage.getItem(PHONE_MEMO_KEY) || 'null');
  } catch {
    return null;
  }
}

function setWatch(watch) {
  tv.phone = watch;
  saveMemo();
}

/**
 * A room message: the game's start (its seated players are the game's), a later one
 * during the steps, or the first after a reload or a join (the seats from the memo).
 * Outside the steps the watch is dropped. The step and its progress follow in the
 * server's `phoneProgress`.
 */
function phoneRoom(msg, firstEntry, prevPhase) {
  if (state.phase !== 'telephone') {
    if (tv.phone.seats.length) setWatch(initialWatch());
    else saveMemo();
    return;
  }
  const players = state.room.players;
  if (firstEntry) setWatch(restoreWatch(loadMemo(), { code: msg.code, players, now: Date.now() }));
  else if (prevPhase !== 'telephone') setWatch(watchStart(players));
  else setWatch(watchRoom(tv.phone, players));
}

/** A step starts (nobody done), someone hands in, or the screen came in mid-step: with the step's clock. */
function onPhoneProgress(msg) {
  if (!state.room || state.phase !== 'telephone') return;
  const before = state.phone.progressStep === msg.step ? state.phone.done.length : 0;
  store.setPhoneProgress(msg);
  if (typeof msg.remainingMs === 'number') tv.countdown.set(msg.remainingMs);
  saveMemo(); // a fresh `at`: the memo outlives a long game
  if (state.phone.done.length > before) sounds.play('correctOther');
  renderRoom();
}

function onAlbum(msg) {
  if (!state.room) return;
  tv.countdown.stop();
  store.setAlbum(msg);
  setWatch(initialWatch());
  sounds.play('gameEnd');
  renderRoom();
}

function onAlbumReveal(msg) {
  if (!state.room || state.phase !== 'album') return;
  store.setAlbumReveal(msg);
  sounds.play('wordChosen');
  renderRoom();
}

// ---------------------------------------------------------------- classic turns

function onTurn(msg) {
  if (!state.room) return;
  const { fresh, newTurn } = store.startTurn(msg);
  tv.countdown.set(msg.remainingMs);
  if (newTurn) tv.board.reset();
  feed({ kind: 'turn', name: playerName(state.drawer), key: `turn:${turnKey(state.round, state.drawer)}` });
  if (fresh) sounds.play('wordChosen');
  renderRoom();
}

function onChoosing(msg) {
  if (!state.room) return;
  store.startChoosing(msg.drawer ?? state.drawer, null);
  tv.countdown.set(msg.remainingMs);
  tv.board.reset();
  renderRoom();
}

function onGuessed(msg) {
  const points = store.markGuessed(msg);
  feed({ kind: 'guessed', name: playerName(msg.playerId), points });
  sounds.play('correctOther');
  renderScores();
}

function onTurnEnd(msg) {
  if (!state.room) return;
  tv.countdown.stop();
  store.endTurn(msg, () => false);
  feed({ kind: 'reveal', word: String(msg.word ?? '') });
  sounds.play('turnEnd');
  renderRoom();
}

function onGameEnd(msg) {
  if (!state.room) return;
  tv.countdown.stop();
  store.endGame(msg);
  sounds.play('gameEnd');
  renderRoom();
}

function onLeft(msg) {
  if (!state.room) return;
  if (msg.playerId === state.meId) {
    toEntry(['notice.removed']);
    return;
  }
  store.removePlayer(msg.playerId);
  renderRoom();
}

function onError(msg) {
  if (msg.code === 'already_in_room') return; // a resume raced the join: its room comes
  if (!JOIN_ERRORS.has(msg.code) || (msg.ref && msg.ref !== 'join')) return;
  if (state.room && state.room.code === tv.target) return;
  const code = tv.target;
  const known = ['room_not_found', 'room_full', 'banned', 'rate_limited'].includes(msg.code);
  toEntry(known ? [`error.${msg.code}`] : ['tv.serverSays', { message: String(msg.message || msg.code) }], code);
}

const TV_HANDLERS = Object.freeze({
  welcome: onWelcome,
  room: onRoom,
  joined: (msg) => { if (state.room && msg.player) { store.addPlayer(msg.player); renderRoom(); } },
  left: onLeft,
  ready: (msg) => { if (store.setReady(msg.playerId, msg.ready)) renderStage(); },
  chatHistory: (msg) => { tv.feed = feedFromHistory(msg.lines); renderFeed(); },
  choosing: onChoosing,
  turn: onTurn,
  hint: (msg) => { store.setMask(msg.mask); renderRoom(); },
  guessed: onGuessed,
  turnEnd: onTurnEnd,
  gameEnd: onGameEnd,
  notice: (msg) => { if (msg.code === 'bot_passed') feed({ kind: 'passed', name: String(msg.name ?? '') }); },
  canvas: (msg) => tv.board.reset(msg.w, msg.h),
  phoneProgress: onPhoneProgress,
  album: onAlbum,
  albumReveal: onAlbumReveal,
  kicked: () => toEntry(['notice.removed']),
  closed: () => toEntry(['notice.closed']),
  error: onError,
});

function onMessage(msg) {
  const handler = Object.hasOwn(TV_HANDLERS, msg?.t) ? TV_HANDLERS[msg.t] : null;
  if (handler) handler(msg);
}

function submitCode(ev) {
  ev.preventDefault();
  sounds.unlock(); // a key press: the TV may play its sounds from now on
  const { code, error } = checkTvCode($('#entry-code').value);
  if (error) {
    tv.entryError = [error];
    renderEntry();
    return;
  }
  $('#entry-code').value = code;
  tv.target = code;
  tv.entryBusy = true;
  tv.entryError = ['tv.joining', { code }];
  renderEntry();
  joinTarget();
}

function initEntry() {
  $('#entry-form').addEventListener('submit', submitCode);
  const select = $('#entry-locale');
  select.replaceChildren(...LOCALES.map((l) => el('option', { value: l.code, text: l.name, attrs: { lang: l.code } })));
  select.value = locale();
  select.addEventListener('change', () => setLocale(select.value));
  onLocaleChange(() => {
    select.value = locale();
    renderEntry();
    renderBanner();
    if (state.room) renderRoom();
  });
}

/** Escape (a remote's Back) leaves the room for the code form. */
function initKeys() {
  document.addEventListener('keydown', (ev) => {
    sounds.unlock();
    if (ev.key !== 'Escape' || document.body.dataset.view !== 'room') return;
    conn.send({ t: 'leave' });
    toEntry();
  });
}

/** Keep the TV awake where the Wake Lock API exists (it is released when the tab is hidden). */
function keepAwake() {
  if (!navigator.wakeLock?.request) return;
  const request = () => {
    if (document.visibilityState === 'visible') navigator.wakeLock.request('screen').catch(() => {});
  };
  document.addEventListener('visibilitychange', request);
  request();
}

/** The pointer hides itself on a TV after a few still seconds. */
function hideIdlePointer() {
  let timer = null;
  const wake = () => {
    document.body.classList.remove('idle');
    clearTimeout(timer);
    timer = setTimeout(() => document.body.classList.add('idle'), 3000);
  };
  document.addEventListener('pointermove', wake, { passive: true });
  wake();
}

function tick() {
  // a telephone step's clock ran out: no timer until the next step's progress brings its clock
  if (state.phase === 'telephone' && tv.countdown.running && tv.countdown.remainingMs() <= 0) {
    tv.countdown.stop();
    renderRoom();
  }
  const s = renderTimer();
  // a tick for each of the last ten seconds of a drawing turn or a telephone step
  if (s !== null && (state.phase === 'drawing' || state.phase === 'telephone') && s >= 1 && s <= 10 && lastTick !== s) sounds.play('tick');
  lastTick = s;
}

function boot() {
  setLocale(initialLocale(), { remember: false });
  tv.board = new Board($('#board'), () => false); // never drawn on: a screen only watches
  window.tvClient = { state, tv, conn }; // for debugging and the e2e test
  conn.addEventListener('message', (ev) => onMessage(ev.detail));
  conn.addEventListener('binary', (ev) => { if (state.room) tv.board.applyFrame(ev.detail); });
  conn.addEventListener('status', (ev) => {
    tv.status = ev.detail;
    renderBanner();
  });
  $('#tv-banner').addEventListener('click', () => conn.reconnectNow());
  initEntry();
  initKeys();
  keepAwake();
  hideIdlePointer();
  setInterval(tick, TICK_MS);
  const code = tvPathCode(location.pathname);
  const checked = code ? checkTvCode(code) : {};
  if (checked.code) {
    tv.target = checked.code;
    showView('room');
    fitBoard();
  } else {
    showView('entry');
    if (code) tv.entryError = [checked.error];
    renderEntry();
    navigate('');
    $('#entry-code').focus();
  }
  conn.start(TV_NAME);
}

boot();
