// The big-screen page's rendering (/tv, docs/CLIENT.md "The big screen"): the code form, and
// the room for a sofa's distance (header with round, drawer, mask and timer; the canvas;
// scoreboard and feed; the reveal and the podium over the canvas; a telephone game's steps
// and album in the stage, js/tv-telephone-view.js). It reads the player client's store
// (js/store.js) and the page's own `tv` object; text goes in with textContent only.

import { $, el, show } from './dom.js';
import { t, tParts } from './i18n.js';
import { icon } from './icons.js';
import { avatarNode } from './avatar.js';
import { maskWords, maskLengths, formatSeconds, Countdown, TURN_END_REASONS } from './util.js';
import { state, player, playerName, inGame, streamerMode, isTelephone } from './store.js';
import { scoreboard, spectatorCount, shownCode, turnEndRows, podiumOrder, timeFraction, initialWatch } from './tv-model.js';
import { phoneHead, currentStatus, renderPhoneSteps, renderAlbum, clearAlbum } from './tv-telephone-view.js';

export const SCORE_ROWS_MAX = 12; // a TV does not scroll: the rest is counted
const COMPACT_FROM = 9; // smaller rows from this many players on
const ROOMY_UNTIL = 5; // larger rows up to this many
const URGENT_S = 10;

/** The page's own state and services (the store holds the room). */
export const tv = {
  board: null,
  countdown: new Countdown(),
  nextGame: new Countdown(),
  target: '', // the code this screen shows (or is joining)
  feed: [], // recent key events: {kind, name?, word?, points?, key?}
  entryError: null, // [key, params] under the code field
  entryBusy: false, // a join is on its way
  status: null, // the connection's last status
  phone: initialWatch(), // what the screen knows of a telephone game's steps (tv-model.js)
};

const PHONE_PHASES = new Set(['telephone', 'album']);

/** `key` with each parameter (a name) in its own <bdi>. */
function isolated(key, params = {}) {
  return tParts(key, params).map((p) => (p.param ? el('bdi', { text: p.text }) : p.text));
}

export function showView(which) {
  document.body.dataset.view = which;
  show($('#tv-entry'), which === 'entry');
  show($('#tv-room'), which === 'room');
}

// ---------------------------------------------------------------- the code form

export function renderEntry() {
  const err = $('#entry-error');
  err.textContent = tv.entryError ? t(...tv.entryError) : '';
  err.classList.toggle('is-busy', tv.entryBusy);
  $('#entry-submit').disabled = tv.entryBusy;
}

// ---------------------------------------------------------------- the room

export function renderRoom() {
  if (!state.room) return;
  document.body.dataset.phase = state.phase || 'lobby';
  // a telephone room has no scores (its scoreboard lists the players); its game takes the whole width
  document.body.dataset.mode = isTelephone() ? 'telephone' : 'classic';
  $('#tv-scores-title').textContent = isTelephone() ? t('room.players') : t('tv.scores');
  show($('#tv-side'), !PHONE_PHASES.has(state.phase));
  renderHead();
  renderWord();
  renderScores();
  renderFeed();
  renderStage();
  renderCorner();
  renderTimer();
}

function renderHead() {
  const rounds = state.rounds || state.room.settings?.rounds || '?';
  const seated = (state.room.players || []).filter((p) => !p.spectator && !p.watching).length;
  if (PHONE_PHASES.has(state.phase)) {
    const { round, line } = phoneHead(tv.phone);
    $('#tv-round').textContent = round;
    $('#tv-drawer').replaceChildren(...line);
    return;
  }
  let head;
  if (state.phase === 'gameEnd') head = t('room.gameOver');
  else if (inGame() && state.round) head = t('room.roundOf', { round: state.round, rounds });
  else head = seated < 2 ? t('room.waiting') : t('lobby.title');
  $('#tv-round').textContent = head;
  const drawerLine = $('#tv-drawer');
  if (state.phase === 'drawing' && state.drawer) {
    drawerLine.replaceChildren(icon('pencil'), el('span', {}, ...isolated('tv.drawing', { name: playerName(state.drawer) })));
  } else if (state.phase === 'choosing' && state.drawer) {
    drawerLine.replaceChildren(el('span', {}, ...isolated('room.isChoosing', { name: playerName(state.drawer) })));
  } else {
    drawerLine.replaceChildren();
  }
}

/** One cell per letter: a blank slot, a revealed letter, or a hyphen/apostrophe. */
function maskNode(mask) {
  const words = maskWords(mask);
  const cells = words.reduce((n, w) => n + w.length, 0) + Math.max(0, words.length - 1);
  const box = el('div', { className: 'mask' }, ...words.map((w) => el('span', { className: 'mask-word' },
    ...w.map((c) => el('span', { className: c === '_' ? 'cell blank' : /[\p{L}\p{N}]/u.test(c) ? 'cell letter' : 'cell punct', text: c === '_' ? '' : c })))));
  // long words get smaller cells, so the whole mask stays on one line
  box.style.fontSize = `min(3.4rem, ${(46 / Math.max(1, cells * 1.2)).toFixed(2)}rem)`;
  return box;
}

/** The header's word: the mask while drawing (a screen never gets the word; the reveal is over the canvas). */
function renderWord() {
  const label = $('#tv-word-label');
  const box = $('#tv-mask');
  box.dir = state.room?.settings?.language === 'ar' ? 'rtl' : 'ltr';
  if (state.phase === 'drawing' && state.mask) {
    const ls = maskLengths(state.mask);
    label.textContent = `${t('room.guessWord')}${ls.length ? ` (${ls.join(', ')})` : ''}`;
    box.replaceChildren(maskNode(state.mask));
  } else {
    label.textContent = '';
    box.replaceChildren();
  }
  show($('#tv-word'), Boolean(label.textContent));
}

function scoreRow(p) {
  const drawing = p.id === state.drawer && (state.phase === 'drawing' || state.phase === 'choosing');
  const guessed = p.guessed && (state.phase === 'drawing' || state.phase === 'turnEnd');
  const li = el('li', {
    className: ['score-row', drawing && 'drawing', guessed && 'guessed', p.connected === false && 'offline'].filter(Boolean).join(' '),
    dataset: { id: String(p.id) },
  });
  const marks = el('span', { className: 'row-marks' });
  if (drawing) marks.append(el('span', { className: 'mark mark-drawing', title: t('player.drawing') }, icon('pencil', t('player.drawing'))));
  if (guessed) marks.append(el('span', { className: 'mark mark-guessed', title: t('player.guessed') }, icon('check', t('player.guessed'))));
  if (p.gain && state.phase === 'drawing') marks.append(el('span', { className: 'gain', attrs: { dir: 'ltr' }, text: `+${p.gain}` }));
  if (p.bot) marks.append(el('span', { className: 'mark mark-bot', text: t('player.bot') }));
  if (p.connected === false) marks.append(el('span', { className: 'mark mark-offline', text: t('player.offline') }));
  li.append(
    el('span', { className: 'row-place', text: String(p.place) }),
    avatarNode(p.avatar, p.name, { size: 48 }),
    el('span', { className: 'row-name' }, el('bdi', { text: p.name || '?' })),
    marks,
    el('span', { className: 'row-score', attrs: { dir: 'ltr' }, text: String(p.score) }),
  );
  return li;
}

export function renderScores() {
  const players = state.room?.players || [];
  const rows = scoreboard(players, state.guessedPoints);
  const list = $('#tv-scores');
  list.classList.toggle('compact', rows.length >= COMPACT_FROM);
  list.classList.toggle('roomy', rows.length <= ROOMY_UNTIL);
  list.replaceChildren(...rows.slice(0, SCORE_ROWS_MAX).map(scoreRow));
  if (rows.length === 0) list.append(el('li', { className: 'score-empty', text: t('tv.noPlayers') }));
  if (rows.length > SCORE_ROWS_MAX) list.append(el('li', { className: 'score-more', text: t('tv.morePlayers', { n: rows.length - SCORE_ROWS_MAX }) }));
  const n = spectatorCount(players);
  $('#tv-spectators').textContent = n ? t('tv.spectators', { n }) : '';
}

function feedLine(f) {
  switch (f.kind) {
    case 'turn': return [icon('pencil'), el('span', {}, ...isolated('tv.drawing', { name: f.name }))];
    case 'guessed': return [icon('check'), el('span', {}, ...isolated('tv.guessed', { name: f.name })), f.points ? el('span', { className: 'gain', attrs: { dir: 'ltr' }, text: ` +${f.points}` }) : null];
    case 'reveal': return [el('span', {}, ...isolated('chat.wordWas', { word: f.word }))];
    case 'passed': return [el('span', {}, ...isolated('notice.bot_passed', { name: f.name }))];
    default: return [];
  }
}

export function renderFeed() {
  const items = [...tv.feed].reverse(); // newest on top
  $('#tv-feed').replaceChildren(...items.map((f) => el('li', { className: `feed-item feed-${f.kind}` }, ...feedLine(f))));
}

function renderLobbyOverlay() {
  const room = state.room;
  $('#ov-lobby-title').replaceChildren(el('bdi', { text: room.name || room.code || t('room.room') }));
  const seated = (room.players || []).filter((p) => !p.spectator && !p.watching);
  const ready = seated.filter((p) => p.ready).length;
  const phone = isTelephone();
  const mode = $('#ov-lobby-mode');
  const settings = room.settings || {};
  mode.replaceChildren(...(phone ? [el('b', { text: t('settings.mode.telephone') }), el('span', { text: t('tv.phone.times', { write: settings.writeTimeSec ?? '?', draw: settings.drawTimeSec ?? '?' }) })] : []));
  show(mode, phone);
  let text;
  if (state.nextGameMs !== null && tv.nextGame.running) text = t('room.nextGameIn', { s: tv.nextGame.seconds() });
  else if (phone && seated.length < 3) text = t('phone.needThree');
  else if (seated.length < 2) text = t('room.waiting');
  else text = t('tv.readyCount', { ready, total: seated.length });
  $('#ov-lobby-text').textContent = text;
  // how to join: the code, large, and the invite link (neither in a streamer's room)
  const streamer = streamerMode();
  const join = $('#ov-lobby-join');
  join.replaceChildren(...(streamer ? [] : isolated('tv.joinAt', { url: `${location.host}/?room=${room.code}` })));
  show(join, !streamer);
  $('#ov-lobby-code').textContent = streamer ? '' : room.code;
  show($('#ov-lobby-codebox'), !streamer);
}

function renderTurnEndOverlay() {
  const msg = state.turnEndMsg;
  if (!msg) return;
  $('#ov-turnend-word').textContent = String(msg.word ?? '');
  $('#ov-turnend-reason').textContent = TURN_END_REASONS[msg.reason] ? t(`reason.${msg.reason}`) : '';
  const rows = turnEndRows(msg.scores).filter((r) => r.delta > 0).slice(0, 6);
  $('#ov-turnend-scores').replaceChildren(...rows.map((r) => el('li', {},
    avatarNode(player(r.id)?.avatar, playerName(r.id), { size: 36 }),
    el('span', { className: 'who' }, el('bdi', { text: playerName(r.id) })),
    el('span', { className: 'delta', attrs: { dir: 'ltr' }, text: `+${r.delta}` }),
  )));
  if (rows.length === 0) $('#ov-turnend-scores').append(el('li', { className: 'muted', text: t('room.nobodyScored') }));
}

function placeItem(r, big) {
  const name = r.name || playerName(r.id);
  return el('li', { className: `place place-${Math.min(r.place, 4)}`, dataset: { place: String(r.place) } },
    avatarNode(r.avatar ?? player(r.id)?.avatar, name, { size: big ? 96 : 36 }),
    el('span', { className: 'place-name' }, el('bdi', { text: name })),
    el('span', { className: 'place-score', text: t('player.points', { n: r.score }) }),
    big ? el('span', { className: 'place-block', text: String(r.place) }) : el('span', { className: 'place-no', text: `${r.place}.` }),
  );
}

function renderGameEndOverlay() {
  const msg = state.gameEndMsg;
  if (!msg) return;
  const { stage, rest } = podiumOrder(msg.ranking);
  $('#ov-podium').replaceChildren(...stage.map((r) => placeItem(r, true)));
  $('#ov-rest').replaceChildren(...rest.slice(0, 6).map((r) => placeItem(r, false)));
}

export function renderStage() {
  const phase = state.phase;
  show($('#ov-lobby'), phase === 'lobby');
  show($('#ov-choosing'), phase === 'choosing');
  show($('#ov-turnend'), phase === 'turnEnd' && Boolean(state.turnEndMsg));
  show($('#ov-gameend'), phase === 'gameEnd' && Boolean(state.gameEndMsg));
  // a telephone game has no shared canvas: its steps and its album take the stage
  show($('#stage-fit'), !PHONE_PHASES.has(phase));
  show($('#tv-phone'), phase === 'telephone');
  show($('#tv-album'), phase === 'album');
  if (phase === 'telephone') renderPhoneSteps(tv.phone);
  if (phase === 'album') renderAlbum();
  else clearAlbum();
  if (phase === 'lobby') renderLobbyOverlay();
  if (phase === 'choosing') {
    $('#ov-choosing-text').replaceChildren(...(state.drawer ? isolated('room.choosingWord', { name: playerName(state.drawer) }) : [t('room.nextChoosing')]));
  }
  if (phase === 'turnEnd') renderTurnEndOverlay();
  if (phase === 'gameEnd') renderGameEndOverlay();
}

function renderCorner() {
  const room = state.room;
  $('#tv-room-name').textContent = room.name || '';
  const code = $('#tv-code');
  code.textContent = shownCode(room.code, streamerMode());
  code.classList.toggle('masked', streamerMode());
}

/** The timer (every 250 ms): seconds left and a ring of the turn's time. Returns the seconds shown, or null. */
export function renderTimer() {
  if (state.room && state.phase === 'lobby' && state.nextGameMs !== null) renderLobbyOverlay();
  // a telephone step's clock: from the step's `phoneProgress` (tv.js stops it at zero)
  const running = tv.countdown.running && (state.phase === 'drawing' || state.phase === 'choosing' || state.phase === 'telephone');
  show($('#tv-timer'), running);
  if (!running) return null;
  const s = tv.countdown.seconds();
  $('#tv-timer-value').textContent = formatSeconds(s);
  const total = timerTotalMs();
  const ring = $('#tv-timer-ring');
  ring.style.setProperty('--p', String(total ? timeFraction(tv.countdown.remainingMs(), total) : 1));
  ring.classList.toggle('urgent', (state.phase === 'drawing' || state.phase === 'telephone') && s <= URGENT_S);
  return s;
}

/** The whole of what the ring counts: a turn's draw time, a telephone step's write or draw time. */
function timerTotalMs() {
  const settings = state.room?.settings || {};
  if (state.phase === 'drawing') return (Number(settings.drawTimeSec) || 0) * 1000;
  if (state.phase !== 'telephone') return 0;
  const kind = currentStatus(tv.phone).kind;
  if (kind === 'draw') return (Number(settings.drawTimeSec) || 0) * 1000;
  return kind ? (Number(settings.writeTimeSec) || 0) * 1000 : 0;
}

/** The board's aspect, for the CSS that fits it to the stage. */
export function fitBoard() {
  const { w, h } = tv.board.model;
  $('#board-box').style.setProperty('--ar', `${w} / ${h}`);
}

/** Connection trouble, over everything (the page reconnects by itself). */
export function renderBanner() {
  const s = tv.status;
  const banner = $('#tv-banner');
  if (!s || s.state === 'open' || s.state === 'connecting') {
    show(banner, false);
    return;
  }
  const message = s.key ? t(s.key) : t('conn.reconnecting');
  banner.textContent = s.state === 'reconnecting' && s.retryInMs
    ? t('banner.nextTry', { message, s: Math.ceil(s.retryInMs / 1000) })
    : message;
  show(banner, true);
}
