// One handler per server message type (`msg.t`), looked up in HANDLERS: each applies a
// named store update, then the side effects (board, sounds, chat lines) and a render.

import { $, show, toast } from './dom.js';
import { t } from './i18n.js';
import { withPlaces } from './util.js';
import { turnKey } from './chat-history.js';
import { galleryListed, isDrawingId, rememberMyDrawing } from './drawing-card.js';
import { PHONE_MAX_WIDTH } from './layout.js';
import * as store from './store.js';
import { state, playerName, isDrawer } from './store.js';
import { conn, countdown, nextGame, sounds, ui, send } from './context.js';
import { showScreen, currentScreen, enterLobby } from './screens.js';
import { renderRoomList } from './lobby.js';
import { renderRoom, renderWord, renderRatings } from './room-view.js';
import { renderPlayers } from './players-view.js';
import { renderChoices, renderTurnEnd, renderGameEnd, renderGameGallery, showInvite } from './overlays.js';
import { onNotice } from './notices.js';
import { avatarNode } from './avatar.js';
import { shownId } from './streamer.js';

const RESUME_WAIT_MS = 2500; // a resumed session's room message, or the seat is gone
const RELOAD_WAIT_MS = 600; // a reload's room message, before an invite link is followed

// server error codes with an interface text (js/locales: error.<code>)
const KNOWN_ERRORS = new Set([
  'room_not_found', 'room_full', 'already_in_room', 'banned', 'not_host', 'not_drawer', 'not_guesser',
  'wrong_phase', 'not_enough_players', 'rate_limited', 'too_large', 'not_online', 'bad_name', 'not_in_room',
  'too_many_bots', 'not_a_bot',
  'report_limited', 'unknown_target',
]);
const JOIN_ERRORS = new Set(['room_not_found', 'room_full', 'banned']);
// how a `left` is told, by its reason (a missing or unknown reason is a plain leave)
const LEFT_KEYS = Object.freeze({ left: 'chat.left', kicked: 'chat.kicked', votekicked: 'chat.votekicked', banned: 'chat.banned' });

let resumeTimer = null;

function waitForRoom(ms, onMissing) {
  clearTimeout(resumeTimer);
  resumeTimer = setTimeout(() => {
    resumeTimer = null;
    onMissing();
  }, ms);
}

export function showMe() {
  $('#me-name').textContent = state.name;
  $('#me-id').textContent = shownId(state.meId);
  $('#me-avatar').replaceChildren(avatarNode(state.avatar, state.name, { size: 28 }));
}

export function joinPending() {
  const code = store.takePendingJoin();
  if (code) send({ t: 'join', code });
}

function errorText(msg) {
  // A refused drawing frame: the server's text says why (a full canvas, say), and the
  // `canvas` that follows sets the board back to what everyone else sees.
  if (msg.ref === 'binary' && msg.message) return msg.message;
  return KNOWN_ERRORS.has(msg.code) ? t(`error.${msg.code}`) : msg.message || msg.code || t('error.generic');
}

/** Called for every `turn`; a resume resends it (protocol 4), so announce each turn once. */
function announceTurn() {
  if (!store.announceOnce(turnKey(state.round, state.drawer))) return;
  if (isDrawer()) ui.chat.system('chat.yourTurn', { word: state.word || '' }, 'turn');
  else ui.chat.system('chat.isDrawing', { name: playerName(state.drawer) }, 'turn');
}

function onWelcome(msg) {
  store.setWelcome(msg);
  showMe();
  show($('#me-box'), true);
  // The server does not keep this setting: send it on every connection.
  if (!galleryListed()) send({ t: 'gallery', listed: false });
  ui.board.reset(); // the server resends the canvas of a resumed turn
  const wasInRoom = Boolean(state.room);
  if (msg.resumed && wasInRoom) {
    // wait for the room message; if none comes, the seat is gone
    waitForRoom(RESUME_WAIT_MS, () => {
      enterLobby(t('notice.seatLost'));
      joinPending();
    });
    renderRoom();
  } else if (msg.resumed) {
    // a reload: the room (if any) follows right away; show the lobby meanwhile
    if (currentScreen() !== 'room') enterLobby();
    waitForRoom(RELOAD_WAIT_MS, joinPending);
  } else {
    enterLobby(wasInRoom ? t('notice.expired') : undefined);
    joinPending();
  }
}

function onRoom(msg) {
  clearTimeout(resumeTimer);
  resumeTimer = null;
  const { firstEntry, prevPhase } = store.applyRoom(msg);
  if (typeof msg.remainingMs === 'number') countdown.set(msg.remainingMs);
  if (state.nextGameMs !== null) nextGame.set(state.nextGameMs);
  else nextGame.stop();
  // on a phone the podium covers the whole room: the lobby (its countdown and "Play
  // again") takes over when the room is back; a wide screen keeps it (it has both too)
  if (state.phase === 'lobby' && prevPhase && prevPhase !== 'lobby' && window.innerWidth <= PHONE_MAX_WIDTH) store.closeGameEnd();
  if (msg.canvas) ui.board.ensureSize(msg.canvas.w, msg.canvas.h);
  if (firstEntry) {
    ui.chat.clear();
    ui.chat.system('chat.youAreIn', { name: msg.name || t('chat.theRoom'), code: msg.code });
    if (state.phase === 'lobby' || state.phase === 'choosing') ui.board.reset();
  }
  renderRoom();
}

function onJoined(msg) {
  if (!state.room || !msg.player) return;
  const p = msg.player;
  const wasThere = store.addPlayer(p);
  if (!wasThere && p.id !== state.meId) ui.chat.system('chat.joined', { name: p.name || t('invite.someone') }, 'join');
  renderRoom();
}

function onLeft(msg) {
  if (msg.playerId === state.meId) {
    enterLobby();
    return;
  }
  if (!state.room) return;
  const name = playerName(msg.playerId);
  store.removePlayer(msg.playerId);
  ui.chat.system(LEFT_KEYS[msg.reason] || 'chat.left', { name }, 'leave');
  renderRoom();
}

function onChat(msg) {
  const sender = store.player(msg.from);
  const quiet = state.phase === 'drawing' && sender && (sender.guessed || sender.id === state.drawer);
  ui.chat.player(msg, quiet ? 'quiet' : msg.from === state.meId ? 'mine' : 'msg');
}

function newChoice(drawer, words, remainingMs) {
  store.startChoosing(drawer, words);
  countdown.set(remainingMs);
  ui.board.reset();
}

function onChoosing(msg) {
  if (!state.room) return;
  newChoice(msg.drawer ?? state.drawer, null, msg.remainingMs);
  renderRoom();
}

function onChoose(msg) {
  if (!state.room) return;
  // a resume during the choice resends `choose`: sound only for a new choice
  if (!(state.phase === 'choosing' && isDrawer() && state.chooseWords)) sounds.play('yourTurn');
  newChoice(state.meId, Array.isArray(msg.words) ? msg.words.map(String) : [], msg.remainingMs);
  renderChoices();
  renderRoom();
  $('#choose-words button')?.focus();
}

function onTurn(msg) {
  if (!state.room) return;
  const { fresh, newTurn } = store.startTurn(msg);
  countdown.set(msg.remainingMs);
  if (newTurn) ui.board.reset();
  renderRoom();
  announceTurn();
  if (fresh) sounds.play('wordChosen');
}

function onGuessed(msg) {
  const points = store.markGuessed(msg);
  if (msg.playerId === state.meId) {
    ui.chat.system('chat.youGuessed', { points }, 'correct', { context: { kind: 'guessed', playerId: msg.playerId } });
    toast(t('chat.correct'), 'success', 2500);
    sounds.play('correctMine');
  } else {
    ui.chat.system('chat.guessed', { name: playerName(msg.playerId), points }, 'correct', { context: { kind: 'guessed', playerId: msg.playerId } });
    sounds.play('correctOther');
  }
  renderRoom();
}

function onClose(msg) {
  const text = String(msg.text ?? '');
  ui.chat.system('chat.close', { text }, 'close', { context: { kind: 'close', text } });
  sounds.play('close');
}

/** The game's drawings after a resume (the podium's gallery has them all, not only the turns since). */
function onGameDrawings(msg) {
  store.setGameDrawings(msg.drawings, isDrawingId);
  for (const d of [...state.gameDrawings, ...state.gameEndDrawings]) {
    if (d.drawerId && d.drawerId === state.meId) rememberMyDrawing(d.id);
  }
  if (state.phase === 'gameEnd') renderGameGallery();
}

function onTurnEnd(msg) {
  if (!state.room) return;
  countdown.stop();
  ui.board.setEnabled(false);
  store.endTurn(msg, isDrawingId);
  if (state.turnEndDrawer === state.meId) rememberMyDrawing(msg.drawing?.id);
  renderTurnEnd();
  const word = String(msg.word ?? '');
  ui.chat.system('chat.wordWas', { word }, 'reveal', { context: { kind: 'reveal', word } });
  sounds.play('turnEnd');
  renderRoom();
}

function onGameEnd(msg) {
  if (!state.room) return;
  countdown.stop();
  ui.board.setEnabled(false);
  store.endGame(msg);
  renderGameEnd();
  const mine = withPlaces(msg.ranking).find((r) => r.id === state.meId);
  if (mine) ui.chat.system('chat.gameOver', { place: mine.place, score: mine.score }, 'reveal');
  sounds.play('gameEnd');
  renderRoom();
  $('#gameend-close').focus();
}

/** `phoneStep`: a telephone step starts, or comes back to a returning player (PROTOCOL 12.5). */
function onPhoneStep(msg) {
  if (!state.room) return;
  const fresh = store.setPhoneStep(msg);
  countdown.set(msg.remainingMs);
  // a new step's board is blank; a returning player's drawing so far follows (`canvas`
  // and its frames), drawn on the board that this reset cleared
  if (fresh) {
    ui.board.reset();
    sounds.play('yourTurn');
  }
  renderRoom();
  if (fresh && state.phone.kind !== 'draw' && !state.phone.submitted) $('#phone-input')?.focus({ preventScroll: true });
}

function onAlbum(msg) {
  if (!state.room) return;
  countdown.stop();
  ui.board.setEnabled(false);
  store.setAlbum(msg);
  sounds.play('gameEnd');
  renderRoom();
}

function onVotekick(msg) {
  const target = msg.target ?? msg.playerId;
  if (target) store.setVotekick(target, msg.votes, msg.needed);
  ui.chat.system('chat.votekick', { name: playerName(target), votes: msg.votes ?? '?', needed: msg.needed ?? '?' }, 'system');
  renderPlayers();
}

function onError(msg) {
  if (msg.code === 'bad_name' && !state.welcomed) {
    conn.stop();
    showScreen('name');
    $('#name-error').textContent = t('error.bad_name');
    return;
  }
  if (JOIN_ERRORS.has(msg.code) && currentScreen() !== 'room') {
    $('#join-error').textContent = errorText(msg);
    store.setPendingJoin(null);
  }
  toast(errorText(msg), msg.code === 'rate_limited' ? 'info' : 'error');
}

export const HANDLERS = Object.freeze({
  welcome: onWelcome,
  rooms: (msg) => renderRoomList(msg.rooms),
  room: onRoom,
  joined: onJoined,
  left: onLeft,
  ready: (msg) => { if (store.setReady(msg.playerId, msg.ready)) renderRoom(); },
  chat: onChat,
  chatHistory: (msg) => ui.chat.history(msg.lines, state.meId),
  ratings: (msg) => { store.updateRatings(msg); renderRatings(); },
  reported: () => toast(t('report.thanks'), 'success'),
  gallery: () => {},
  choosing: onChoosing,
  choose: onChoose,
  turn: onTurn,
  hint: (msg) => { store.setMask(msg.mask); renderWord(); },
  close: onClose,
  notice: onNotice,
  gameDrawings: onGameDrawings,
  guessed: onGuessed,
  turnEnd: onTurnEnd,
  gameEnd: onGameEnd,
  votekick: onVotekick,
  invited: showInvite,
  kicked: () => enterLobby(t('notice.removed')),
  closed: () => enterLobby(t('notice.closed')),
  canvas: (msg) => ui.board.reset(msg.w, msg.h),
  phoneStep: onPhoneStep,
  phoneProgress: (msg) => { store.setPhoneProgress(msg); renderRoom(); },
  album: onAlbum,
  albumReveal: (msg) => { store.setAlbumReveal(msg); sounds.play('wordChosen'); renderRoom(); },
  error: onError,
});

/** Dispatch one server message; unknown types are ignored (a newer server). */
export function onMessage(msg) {
  const handler = Object.hasOwn(HANDLERS, msg?.t) ? HANDLERS[msg.t] : null;
  if (handler) handler(msg);
}
