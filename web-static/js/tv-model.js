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
// A screen is a watcher: the server sends it no `phoneStep` (neither the step's number nor
// its kind nor its clock), only `phoneProgress` (who has handed in step K), the `room`
// messages (whose `remainingMs` is the current step's) and, at the end, the album. The
// screen's "watch" is what it can tell from those, and nothing it cannot:
//   seats  the game's players in seat order (seen in the room message that started the
//          game; after a reload, from the memo, else the seated players, a guess: `sure`)
//   step   the step under way (null: not known yet); a step ends when every connected
//          seat has handed in, or when its clock runs out
//   clock  the step whose time the countdown counts (CLOCK_UNKNOWN_STEP: the step under
//          way, whose number is not known), null when the screen has no clock for it

export const PHONE_MEMO_KEY = 'drawserver.tvPhone';
export const CLOCK_UNKNOWN_STEP = -1;
export const MEMO_MAX_AGE_MS = 15 * 60 * 1000;
export const DEADLINE_SLACK_MS = 2500;

export function initialWatch() {
  return { seats: [], sure: false, step: null, clock: null };
}

/** The players of a telephone game as a room lists them: seated, no screen, no bot (bots do not play it). */
export function phoneSeats(players) {
  return (Array.isArray(players) ? players : [])
    .filter((p) => p && !p.spectator && !isScreen(p) && !p.bot)
    .map((p) => String(p.id));
}

/** The room message that starts the game, seen by this screen: step 0, whose clock it carries. */
export function watchStart(players) {
  return { seats: phoneSeats(players), sure: true, step: 0, clock: 0 };
}

/** A later `room` message during the steps: its `remainingMs` is the step under way's. */
export function watchRoom(watch, players) {
  const seats = watch.seats.length ? watch.seats : phoneSeats(players);
  return { ...watch, seats, clock: watch.step ?? CLOCK_UNKNOWN_STEP };
}

/** Every seat still here and connected has handed in the step `done` is of. */
export function stepComplete(seats, done, players) {
  const doneSet = new Set(done);
  const byId = new Map((Array.isArray(players) ? players : []).filter(Boolean).map((p) => [String(p.id), p]));
  const waitingFor = seats.filter((id) => !doneSet.has(id) && byId.get(id) && byId.get(id).connected !== false);
  return seats.length > 0 && waitingFor.length === 0;
}

/**
 * After `phoneProgress` (the store has applied it to `phone`), a `room`, `left` or
 * `joined`: a progress of a later step moves the screen on (the clock it had counted
 * another step, unless it counted the unknown step under way), and a step every
 * connected seat has handed in is over: the next one starts at once, with no clock the
 * screen is told. (Seats that are a guess may hold a later joiner, who never hands in:
 * the screen then waits for the next step's first `phoneProgress`, never moves on early.)
 */
export function watchSettle(watch, phone, players) {
  const k = phone.progressStep;
  let w = watch;
  if (Number.isInteger(k) && (w.step === null || k > w.step)) {
    const clock = w.clock === k || (w.step === null && w.clock === CLOCK_UNKNOWN_STEP) ? k : null;
    w = { ...w, step: k, clock };
  }
  if (w.step !== null && k === w.step && stepComplete(w.seats, phone.done, players)) {
    w = { ...w, step: w.step + 1, clock: null };
  }
  return w;
}

/** The countdown ran out: the step it counted is over (the next one's clock is not told). */
export function watchTimeUp(watch) {
  if (watch.clock === null) return watch;
  if (watch.clock === CLOCK_UNKNOWN_STEP || watch.step === null) return { ...watch, clock: null };
  return watch.clock === watch.step ? { ...watch, step: watch.step + 1, clock: null } : { ...watch, clock: null };
}

/**
 * What a reload keeps (sessionStorage): the seats, the step, who had handed it in and,
 * when the screen had its clock, the step's end (ms since the epoch). Ids and numbers
 * only: nothing any player wrote or drew.
 */
export function phoneMemo(watch, phone, code, now, clockLeftMs = null) {
  const timed = watch.clock !== null && watch.clock === watch.step && typeof clockLeftMs === 'number';
  return {
    code: String(code ?? ''),
    seats: watch.seats,
    sure: watch.sure,
    step: watch.step,
    done: watch.step !== null && phone.progressStep === watch.step ? [...phone.done] : [],
    deadline: timed ? now + clockLeftMs : null,
    at: now,
  };
}

/**
 * A reload (or a reconnect) during the steps: the room message's `remainingMs` is the
 * step under way's. With the memo of this room, the screen is back on its step when
 * that step's end is the memo's (or the memo knew no end), on the next one when the memo's
 * end has passed; otherwise the step is unknown until the next `phoneProgress`. Returns
 * {watch, done}: `done` (or null) is the memo's progress of `watch.step`, to apply again.
 */
export function restoreWatch(memo, { code, players, remainingMs, now }) {
  const fresh = { seats: phoneSeats(players), sure: false, step: null, clock: CLOCK_UNKNOWN_STEP };
  const valid = memo && typeof memo === 'object' && memo.code === code && Array.isArray(memo.seats) && memo.seats.length > 0
    && Number.isFinite(memo.at) && now - memo.at >= 0 && now - memo.at <= MEMO_MAX_AGE_MS;
  if (!valid) return { watch: fresh, done: null };
  const base = { seats: memo.seats.map(String), sure: Boolean(memo.sure), step: null, clock: CLOCK_UNKNOWN_STEP };
  const step = Number.isInteger(memo.step) && memo.step >= 0 ? memo.step : null;
  if (step === null) return { watch: base, done: null };
  const done = Array.isArray(memo.done) ? memo.done.map(String) : [];
  if (!Number.isFinite(memo.deadline)) return { watch: { ...base, step, clock: step }, done };
  const deadline = now + (Number(remainingMs) || 0);
  if (Math.abs(deadline - memo.deadline) <= DEADLINE_SLACK_MS) return { watch: { ...base, step, clock: step }, done };
  if (memo.deadline < now) return { watch: { ...base, step: step + 1, clock: step + 1 }, done: [] };
  return { watch: base, done: null };
}

/**
 * The steps view: {step (null: not known), steps, kind, kinds (every step's, for the
 * stepper), rows [{id, done, offline}] of the seats still in the room, done, total, over
 * (every step handed in: the album comes)}. `done` counts only the step shown.
 */
export function phoneStatus(watch, phone, players) {
  const list = Array.isArray(players) ? players.filter(Boolean) : [];
  const seats = watch.seats.length ? watch.seats : phoneSeats(list);
  const steps = seats.length;
  const byId = new Map(list.map((p) => [String(p.id), p]));
  const shown = watch.step !== null && phone.progressStep === watch.step ? new Set(phone.done) : new Set();
  const rows = seats.filter((id) => byId.has(id)).map((id) => ({ id, done: shown.has(id), offline: byId.get(id).connected === false }));
  const count = progressCount({ ...phone, done: rows.filter((r) => r.done).map((r) => r.id), steps: rows.length }, rows.length);
  const over = watch.step !== null && steps > 0 && watch.step >= steps;
  return {
    step: watch.step,
    steps,
    kind: over ? null : kindOfStep(watch.step),
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
