// The player client's state and its named updates. Pure (no DOM): every change of the
// state goes through one of the functions below, so a handler reads as "what changed"
// and a unit test can drive the store with server messages alone. Views read `state`.

import { t } from './i18n.js';
import { isStreamer } from './util.js';
import * as phone from './telephone-model.js';

export const RATINGS = new Set(['like', 'dislike', 'none']);

export function initialState() {
  return {
    name: '',
    meId: null,
    welcomed: false,
    room: null, // latest room message (players updated by incremental events)
    phase: null,
    word: null, // the drawer's word
    solvedWord: null, // the word of this turn once I guessed it
    mask: '',
    drawer: null,
    round: 0,
    rounds: 0,
    guessedPoints: {}, // playerId -> points this turn
    votekicks: {}, // playerId -> {votes, needed}
    chooseWords: null,
    pendingJoin: null, // room code from the invite link
    invite: null,
    gameEndOpen: false,
    turnEndOpen: false,
    settingsDirty: false,
    lastRoomCode: null,
    turnEndMsg: null, // the last turnEnd / gameEnd, re-rendered on a language switch
    gameEndMsg: null,
    gameDrawings: [], // this game's drawings so far: {id, word, drawer, drawerId, likes, dislikes}
    gameEndDrawings: [], // the finished game's, for the podium's gallery
    gameGalleryOpen: false, // the game-over dialog shows the drawings instead of the podium
    avatar: null, // my avatar (the builder's choice, then the server's copy from welcome)
    ratings: { likes: 0, dislikes: 0 },
    myRating: 'none',
    announcedTurn: null, // turnKey of the last "X is drawing now." line (resumes resend `turn`)
    lastTick: null, // last countdown second a tick sounded for
    lastStatus: null, // the last connection status, re-rendered on a language switch
    rooms: [], // the last public room list
    roomQuery: '', // the lobby's room search
    nextGameMs: null, // the countdown to the next game of the room (room.nextGameMs), when one runs
    turnEndDrawer: null, // who drew the turn that just ended (no "Report" on one's own drawing)
    codeRevealed: false, // streamer mode: the host clicked to show the room code (this page only)
    phone: phone.initialPhone(), // the telephone game: step, progress, album (telephone-model.js)
  };
}

export const state = initialState();

/** Back to a fresh state (unit tests). */
export function resetStore() {
  Object.assign(state, initialState());
}

// ---------------------------------------------------------------- selectors

export function me() {
  return state.room?.players?.find((p) => p.id === state.meId) || null;
}
export function player(id) {
  return state.room?.players?.find((q) => q.id === id) || null;
}
export function playerName(id) {
  return player(id)?.name || t('player.someone');
}
export function isHost() {
  return Boolean(state.room) && state.room.host === state.meId;
}
export function isDrawer() {
  return state.drawer !== null && state.drawer === state.meId;
}
/** The room plays telephone (docs/PROTOCOL.md 12.5); an older server sends no mode. */
export function isTelephone() {
  return state.room?.settings?.mode === 'telephone';
}
/** I am drawing in a telephone draw step (the board is mine until the step ends). */
export function isPhoneDrawing() {
  return state.phase === 'telephone' && state.phone.kind === 'draw' && state.phone.step !== null;
}
export function inGame() {
  return Boolean(state.phase) && state.phase !== 'lobby';
}
/** The room is in streamer mode: codes, the invite link and player ids stay off the screen. */
export function streamerMode() {
  return isStreamer(state.room?.settings);
}
/** Whether the room code is masked on this screen: streamer mode, unless the host revealed it. */
export function codeHidden() {
  return streamerMode() && !(isHost() && state.codeRevealed);
}

// ---------------------------------------------------------------- session

export function setName(name) {
  state.name = name;
}

export function setWelcome(msg) {
  state.meId = String(msg.playerId ?? '');
  if (typeof msg.name === 'string' && msg.name) state.name = msg.name;
  state.welcomed = true;
  if (msg.avatar && typeof msg.avatar === 'object') state.avatar = msg.avatar;
}

export function setDisconnected() {
  state.welcomed = false;
}

export function setAvatar(a) {
  state.avatar = a;
}

export function setStatus(status) {
  state.lastStatus = status;
}

export function setPendingJoin(code) {
  state.pendingJoin = code;
}

/** The invite-link code to join once welcomed, taken out of the state. */
export function takePendingJoin() {
  const code = state.room ? null : state.pendingJoin;
  if (code) state.pendingJoin = null;
  return code;
}

export function setRooms(rooms) {
  state.rooms = Array.isArray(rooms) ? rooms : [];
}

export function setRoomQuery(q) {
  state.roomQuery = String(q ?? '');
}

export function setInvite(msg) {
  state.invite = msg ? { code: String(msg.code || ''), from: msg.from && typeof msg.from === 'object' ? msg.from : {} } : null;
}

// ---------------------------------------------------------------- room

/** Out of the room (the lobby screen). */
export function leaveRoom() {
  Object.assign(state, {
    room: null, phase: null, drawer: null, word: null, solvedWord: null, mask: '', votekicks: {},
    guessedPoints: {}, gameEndOpen: false, turnEndOpen: false, announcedTurn: null, codeRevealed: false,
    phone: phone.initialPhone(),
  });
  resetRatings();
}

/**
 * A full `room` message. Returns {firstEntry, prevPhase} for the side effects (a new
 * room clears the chat; a turn's first room resets the board).
 */
export function applyRoom(msg) {
  const firstEntry = !state.room || state.room.code !== msg.code;
  const prevPhase = state.phase;
  state.room = msg;
  if (!Array.isArray(state.room.players)) state.room.players = [];
  state.phase = msg.phase || 'lobby';
  state.drawer = msg.drawer ?? null;
  if (typeof msg.mask === 'string') state.mask = msg.mask;
  if (Number.isInteger(msg.round)) state.round = msg.round;
  state.rounds = msg.rounds || msg.settings?.rounds || state.rounds;
  if (typeof msg.word === 'string' && msg.word) state.word = msg.word;
  else if (state.phase !== 'turnEnd') state.word = null;
  if (typeof msg.solvedWord === 'string' && msg.solvedWord) state.solvedWord = msg.solvedWord;
  else if (state.phase !== 'drawing' && state.phase !== 'turnEnd') state.solvedWord = null;
  state.nextGameMs = typeof msg.nextGameMs === 'number' && msg.nextGameMs >= 0 ? msg.nextGameMs : null;
  if (state.phase === 'lobby') {
    state.turnEndOpen = false;
    state.guessedPoints = {};
    if (prevPhase !== 'lobby') state.settingsDirty = false;
  }
  if (state.phase !== 'choosing') state.chooseWords = null;
  // a telephone game's steps and album live only in their phases (a reload's room
  // message comes before the phoneStep or album that restores them)
  if (state.phase !== 'telephone' && state.phase !== 'album') state.phone = phone.initialPhone();
  if (state.phase !== 'turnEnd') state.turnEndOpen = false;
  if (state.phase === 'drawing' || state.phase === 'turnEnd') {
    setRatings(msg.ratings);
    if (RATINGS.has(msg.myRating)) state.myRating = msg.myRating;
  } else {
    resetRatings();
  }
  // a reveal lasts while this page's host keeps streamer mode on in this room: a new room,
  // streamer mode turned off (then on again) or the host's seat passed on hides the code
  if (firstEntry || !isStreamer(msg.settings) || msg.host !== state.meId) state.codeRevealed = false;
  if (firstEntry) {
    state.votekicks = {};
    state.announcedTurn = null;
    state.lastRoomCode = msg.code;
    if (state.pendingJoin && state.pendingJoin === msg.code) state.pendingJoin = null;
  }
  return { firstEntry, prevPhase };
}

/** `joined`: returns whether the player was seated already (a resume). */
export function addPlayer(p) {
  const list = state.room.players;
  const i = list.findIndex((q) => q.id === p.id);
  if (i >= 0) list[i] = { ...list[i], ...p };
  else list.push({ score: 0, ready: false, connected: true, guessed: false, spectator: false, ...p });
  return i >= 0;
}

export function removePlayer(id) {
  state.room.players = state.room.players.filter((p) => p.id !== id);
  delete state.votekicks[id];
}

export function setReady(id, ready) {
  const p = player(id);
  if (p) p.ready = Boolean(ready);
  return Boolean(p);
}

export function setVotekick(target, votes, needed) {
  state.votekicks[target] = { votes: Number(votes) || 0, needed: Number(needed) || 0 };
}

/** The host's click on the masked room code: shown until the next click (never for others). */
export function setCodeRevealed(revealed) {
  state.codeRevealed = Boolean(revealed) && isHost() && streamerMode();
}

export function markSettingsDirty(dirty) {
  state.settingsDirty = dirty;
}

// ---------------------------------------------------------------- turns

function resetTurnState() {
  state.guessedPoints = {};
  state.solvedWord = null;
  for (const p of state.room?.players || []) p.guessed = false;
}

/** `choosing` (someone else picks) or `choose` (I pick from `words`). */
export function startChoosing(drawer, words = null) {
  Object.assign(state, {
    phase: 'choosing', drawer, word: null, mask: '', turnEndOpen: false, gameEndOpen: false,
    announcedTurn: null, chooseWords: words,
  });
  resetTurnState();
}

export function clearChoices() {
  state.chooseWords = null;
}

/**
 * `turn`: returns {fresh: the drawing starts now, newTurn: another turn than the shown
 * one}. A new turn's `turn` comes before its `room`; on a resume `room` comes first.
 */
export function startTurn(msg) {
  const fresh = state.phase !== 'drawing';
  const newTurn = fresh || state.drawer !== msg.drawer;
  state.phase = 'drawing';
  state.drawer = msg.drawer ?? state.drawer;
  if (Number.isInteger(msg.round)) state.round = msg.round;
  state.mask = typeof msg.mask === 'string' ? msg.mask : '';
  state.word = typeof msg.word === 'string' ? msg.word : null;
  state.chooseWords = null;
  state.turnEndOpen = false;
  state.gameEndOpen = false;
  if (newTurn) {
    resetTurnState();
    resetRatings();
  }
  if (state.room) state.room.phase = 'drawing';
  return { fresh, newTurn };
}

export function setMask(mask) {
  if (typeof mask === 'string') state.mask = mask;
}

/** `guessed`: the guesser's own copy carries the word. */
export function markGuessed(msg) {
  const p = player(msg.playerId);
  if (p) p.guessed = true;
  const points = Number(msg.points) || 0;
  state.guessedPoints[msg.playerId] = points;
  if (msg.playerId === state.meId && typeof msg.word === 'string' && msg.word) state.solvedWord = msg.word;
  return points;
}

/** The turn's drawing joins this game's drawings (once). */
function addGameDrawing(msg, isDrawingId) {
  const id = msg.drawing?.id;
  if (!isDrawingId(id) || state.gameDrawings.some((d) => d.id === id)) return;
  state.gameDrawings.push({ id, word: String(msg.word ?? ''), drawer: playerName(state.drawer), drawerId: state.drawer, ...state.ratings });
}

export function endTurn(msg, isDrawingId) {
  state.turnEndDrawer = state.drawer;
  state.phase = 'turnEnd';
  state.turnEndOpen = true;
  state.turnEndMsg = msg;
  setRatings(msg.ratings);
  addGameDrawing(msg, isDrawingId);
}

export function endGame(msg) {
  Object.assign(state, {
    phase: 'gameEnd', turnEndOpen: false, gameEndOpen: true, gameEndMsg: msg, announcedTurn: null,
    gameEndDrawings: state.gameDrawings, gameDrawings: [], gameGalleryOpen: false,
  });
}

/**
 * `gameDrawings` after a resume: the game's finished turns with drawings (oldest first),
 * for the podium's gallery; they replace what the page had (a reload had none).
 */
export function setGameDrawings(drawings, isDrawingId) {
  const list = (Array.isArray(drawings) ? drawings : [])
    .filter((d) => d && typeof d === 'object' && isDrawingId(d.id))
    .map((d) => ({
      id: d.id,
      word: String(d.word ?? ''),
      drawer: typeof d.name === 'string' && d.name ? d.name : playerName(d.drawer),
      drawerId: d.drawer === undefined ? null : String(d.drawer),
      likes: Number(d.likes) || 0,
      dislikes: Number(d.dislikes) || 0,
    }));
  if (state.phase === 'gameEnd') state.gameEndDrawings = list;
  else state.gameDrawings = list;
}

export function closeGameEnd() {
  state.gameEndOpen = false;
}

export function toggleGameGallery() {
  state.gameGalleryOpen = !state.gameGalleryOpen;
}

/** Whether this turn's "X is drawing now." line is still to be written (and mark it). */
export function announceOnce(key) {
  if (state.announcedTurn === key) return false;
  state.announcedTurn = key;
  return true;
}

export function setLastTick(s) {
  state.lastTick = s;
}

// ---------------------------------------------------------------- ratings

export function resetRatings() {
  state.ratings = { likes: 0, dislikes: 0 };
  state.myRating = 'none';
}

export function setRatings(r) {
  if (r && typeof r === 'object') {
    state.ratings = { likes: Math.max(0, Number(r.likes) || 0), dislikes: Math.max(0, Number(r.dislikes) || 0) };
  }
}

/** A `ratings` update during turnEnd also updates that turn's gallery card. */
export function updateRatings(r) {
  setRatings(r);
  if (state.phase === 'turnEnd' && state.turnEndMsg?.drawing) {
    const last = state.gameDrawings[state.gameDrawings.length - 1];
    if (last && last.id === state.turnEndMsg.drawing.id) Object.assign(last, state.ratings);
  }
}

export function setMyRating(v) {
  if (RATINGS.has(v)) state.myRating = v;
}

// ---------------------------------------------------------------- telephone

/** `phoneStep`: returns whether it is a new step (a draw step then starts a blank board). */
export function setPhoneStep(msg) {
  const fresh = phone.isNewStep(state.phone, msg);
  state.phone = phone.applyStep(state.phone, msg);
  state.phase = 'telephone';
  if (state.room) state.room.phase = 'telephone';
  return fresh;
}

export function setPhoneProgress(msg) {
  state.phone = phone.applyProgress(state.phone, msg);
}

export function markPhoneSubmitted(text) {
  state.phone = phone.markSubmitted(state.phone, text);
}

export function reopenPhoneAnswer() {
  state.phone = phone.reopen(state.phone);
}

export function setAlbum(msg) {
  state.phone = phone.applyAlbum(state.phone, msg);
  state.phase = 'album';
  if (state.room) state.room.phase = 'album';
}

export function setAlbumReveal(msg) {
  state.phone = phone.applyReveal(state.phone, msg);
}
