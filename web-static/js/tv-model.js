// The big-screen page's pure logic (/tv, docs/CLIENT.md "The big screen"): the room code in
// the path, the scoreboard (players only: no screen, no spectator), the feed of the
// game's key events, the masked room code of a streamer's room, and what the screen knows
// of a telephone game it watches (its steps, who has handed in, the album as revealed).
// No DOM.

import { normalizeCode, isValidCode, withPlaces } from './util.js';
import { normalizeHistory } from './chat-history.js';
import { kindOfStep, albumView, progressCount } from './telephone-model.js';

export const TV_TOKEN_KEY = 'drawserver.tvToken';
export const TV_NAME = 'TV';
export const FEED_MAX = 6;
export const HIDDEN_CODE = '••••••';

/** The code in /tv/CODE, normalised ("/tv/k7qx2m" -> "K7QX2M"); "" for /tv. */
export function tvPathCode(pathname) {
  const m = /^\/tv\/([^/]*)\/?$/.exec(String(pathname ?? ''));
  return m ? normalizeCode(decodeURIComponent(m[1])) : '';
}

export function tvPath(code) {
  return code ? `/tv/${encodeURIComponent(code)}` : '/tv';
}

/** What the code form does with its input: {code} to join, or {error: key}. */
export function checkTvCode(input) {
  const code = normalizeCode(input);
  if (!code) return { error: 'tv.codeMissing' };
  return isValidCode(code) ? { code } : { error: 'tv.badCode' };
}

/** A screen that watches (this page, or another TV) is listed but never plays. */
export function isScreen(p) {
  return Boolean(p && p.watching);
}

/**
 * The scoreboard: the seated players (no screen, no spectator), by score, highest first
 * (equal scores keep the room's order and share a place), each with `place`, `guessed`
 * this turn and `gain` (the points of this turn's guess, shown until the next `room`).
 */
export function scoreboard(players, guessedPoints = {}) {
  const seated = (Array.isArray(players) ? players : []).filter((p) => p && !isScreen(p) && !p.spectator);
  const ranked = withPlaces(seated.map((p, i) => ({ ...p, order: i, score: Number(p.score) || 0 })));
  ranked.sort((a, b) => a.place - b.place || a.order - b.order);
  return ranked.map(({ order, ...p }) => {
    const gain = Object.hasOwn(guessedPoints, p.id) ? Number(guessedPoints[p.id]) || 0 : null;
    return { ...p, guessed: Boolean(p.guessed) || gain !== null, gain };
  });
}

/** People watching without a seat (spectators), screens not counted. */
export function spectatorCount(players) {
  return (Array.isArray(players) ? players : []).filter((p) => p && p.spectator && !isScreen(p)).length;
}

/** The room code as the corner shows it: masked in a streamer's room. */
export function shownCode(code, streamer) {
  return streamer ? HIDDEN_CODE : String(code ?? '');
}

/**
 * The feed after a `chatHistory` (a reload or a resume): its game lines (guessed,
 * reveal, passed), the newest `max`. Players' chat is not the big screen's business.
 */
export function feedFromHistory(lines, max = FEED_MAX) {
  const feed = [];
  for (const l of normalizeHistory(lines)) {
    if (l.kind === 'guessed') feed.push({ kind: 'guessed', name: l.name, playerId: l.playerId });
    else if (l.kind === 'reveal') feed.push({ kind: 'reveal', word: l.word });
    else if (l.kind === 'passed') feed.push({ kind: 'passed', name: l.name });
  }
  return feed.slice(-max);
}

/** The feed with `item` added (newest last, at most `max`); an item whose `key` is there already is not added twice. */
export function addFeed(feed, item, max = FEED_MAX) {
  if (item.key && feed.some((f) => f.key === item.key)) return feed;
  return [...feed, item].slice(-max);
}

/** `turnEnd.scores` as rows, highest first: [{id, delta}]. */
export function turnEndRows(scores) {
  return Object.entries(scores && typeof scores === 'object' ? scores : {})
    .map(([id, d]) => ({ id, delta: Number(d) || 0 }))
    .sort((a, b) => b.delta - a.delta);
}

/** The podium's order on screen: second, first, third (the winner in the middle); then the rest. */
export function podiumOrder(ranking) {
  const list = withPlaces(Array.isArray(ranking) ? ranking.filter((r) => r && !isScreen(r)) : []);
  const top = list.slice(0, 3);
  const stage = top.length === 3 ? [top[1], top[0], top[2]] : top.length === 2 ? [top[1], top[0]] : top;
  return { stage, rest: list.slice(3) };
}

/** The fraction of the turn left, 0..1 (for the timer's ring). */
export function timeFraction(remainingMs, totalMs) {
  if (!(totalMs > 0)) return 0;
  return Math.min(1, Math.max(0, remainingMs / totalMs));
}

// ---------------------------------------------------------------- telephone (PROTOCOL 12.5)
//
// A screen is a watcher: the server sends it no `phoneStep`, but the room's `phoneProgress`
// at every step's start (nobody done yet), on every first hand-in, and once to a screen
// that joins or comes back mid-step, each with the step's `remainingMs`; and `album` then
// `albumReveal` to a screen that arrives during the album. So the step under way, who has
// handed it in and its clock are the server's (the store's `phone.progressStep` and
// `phone.done`, the page's countdown). What the screen keeps itself, the "watch", is only
// who plays, which no message says:
//   seats  the game's players in seat order, seen in the room message that started the
//          game; after a reload, from the memo (sessionStorage), else the seated players
//          (a guess: `sure` is false, and a player who joined during the game is counted)

export const PHONE_MEMO_KEY = 'drawserver.tvPhone';
export const MEMO_MAX_AGE_MS = 15 * 60 * 1000; // since the memo was last written (every progress)

export function initialWatch() {
  return { seats: [], sure: false };
}

/** The players of a telephone game as a room lists them: seated, no screen, no bot (bots do not play it). */
export function phoneSeats(players) {
  return (Array.isArray(players) ? players : [])
    .filter((p) => p && !p.spectator && !isScreen(p) && !p.bot)
    .map((p) => String(p.id));
}

/** The room message that starts the game, seen by this screen: its seated players are the game's. */
export function watchStart(players) {
  return { seats: phoneSeats(players), sure: true };
}

/** A later `room` message during the steps: the seats stay the game's (a guess only when none were known). */
export function watchRoom(watch, players) {
  return watch.seats.length ? watch : { seats: phoneSeats(players), sure: false };
}

/** Every seat still here and connected has handed in (the server then starts the next step, or the album). */
export function stepComplete(seats, done, players) {
  const doneSet = new Set(done);
  const byId = new Map((Array.isArray(players) ? players : []).filter(Boolean).map((p) => [String(p.id), p]));
  const waitingFor = seats.filter((id) => !doneSet.has(id) && byId.get(id) && byId.get(id).connected !== false);
  return seats.length > 0 && waitingFor.length === 0;
}

/**
 * What a reload keeps (sessionStorage): the game's seats, when the screen saw the game
 * start (a guess is made again after a reload, as well). Ids only: nothing any player
 * wrote or drew. null: nothing to keep.
 */
export function phoneMemo(watch, code, now) {
  if (!watch.sure || watch.seats.length === 0) return null;
  return { code: String(code ?? ''), seats: [...watch.seats], at: now };
}

/**
 * The first room message after a reload (or a join) during the steps: the memo's seats
 * when it is this room's and recent, else the seated players as a guess. (The step, its
 * progress and its clock come with the `phoneProgress` the server sends next.)
 */
export function restoreWatch(memo, { code, players, now }) {
  const valid = memo && typeof memo === 'object' && memo.code === code && Array.isArray(memo.seats) && memo.seats.length > 0
    && Number.isFinite(memo.at) && now - memo.at >= 0 && now - memo.at <= MEMO_MAX_AGE_MS;
  return valid ? { seats: memo.seats.map(String), sure: true } : { seats: phoneSeats(players), sure: false };
}

/**
 * The steps view: {step (null: not known yet), steps, kind, kinds (every step's, for the
 * stepper), rows [{id, done, offline}] of the seats still in the room, done, total, over
 * (the last step handed in: the album comes)}. The step is the last `phoneProgress`'s.
 */
export function phoneStatus(watch, phone, players) {
  const list = Array.isArray(players) ? players.filter(Boolean) : [];
  const seats = watch.seats.length ? watch.seats : phoneSeats(list);
  const steps = seats.length;
  const step = Number.isInteger(phone.progressStep) && phone.progressStep >= 0 ? phone.progressStep : null;
  const byId = new Map(list.map((p) => [String(p.id), p]));
  const shown = step !== null ? new Set(phone.done) : new Set();
  const rows = seats.filter((id) => byId.has(id)).map((id) => ({ id, done: shown.has(id), offline: byId.get(id).connected === false }));
  const count = progressCount({ ...phone, done: rows.filter((r) => r.done).map((r) => r.id), steps: rows.length }, rows.length);
  const over = step !== null && steps > 0 && step >= steps - 1 && stepComplete(seats, phone.done, list);
  return {
    step,
    steps,
    kind: over ? null : kindOfStep(step),
    kinds: Array.from({ length: steps }, (_, i) => kindOfStep(i)),
    rows,
    done: count.done,
    total: count.total,
    over,
  };
}

/**
 * The album as the room has been shown it (`albumView`): the title card, or the newest
 * entry (`main`) with the one it answers (`before`: the text drawn, the drawing
 * described), and the chain's length (`total`, for the strip's places still to come).
 * Nothing past the host's reveal; null before the album.
 */
export function albumScreen(phone) {
  const v = albumView(phone);
  if (!v) return null;
  const total = phone.album[v.chain]?.entries?.length ?? v.entries.length;
  return {
    ...v,
    total,
    title: v.newest < 0,
    main: v.newest >= 0 ? v.entries[v.newest] : null,
    before: v.newest > 0 ? v.entries[v.newest - 1] : null,
  };
}

/** A text's size class on the big screen: shorter texts larger. */
export function textSize(text) {
  const n = [...String(text ?? '')].length;
  return n <= 24 ? 'short' : n <= 60 ? 'medium' : 'long';
}
