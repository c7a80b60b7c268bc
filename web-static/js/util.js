// Small pure helpers: room codes, masks, countdowns, settings, rankings, backoff.

export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 6;
export const NAME_MAX = 24;
export const CHAT_MAX = 200;

/** Normalise user input for a room code: trim, upper-case, drop spaces and dashes. */
export function normalizeCode(input) {
  return String(input ?? '').trim().toUpperCase().replace(/[\s-]+/g, '');
}

export function isValidCode(code) {
  if (typeof code !== 'string' || code.length !== CODE_LENGTH) return false;
  for (const ch of code) if (!CODE_ALPHABET.includes(ch)) return false;
  return true;
}

/** Validate a nickname (1..24 characters after trimming); returns the trimmed name or null. */
export function cleanName(input) {
  const name = String(input ?? '').trim();
  const len = [...name].length;
  return len >= 1 && len <= NAME_MAX ? name : null;
}

/** Split a mask like "c _ _   _ _" into words of letters: [["c","_","_"],["_","_"]]. */
export function maskWords(mask) {
  if (typeof mask !== 'string' || mask.trim() === '') return [];
  return mask.split('   ').map((w) => w.split(' ').filter((c) => c !== ''));
}

/** Letter counts per word of a mask ("_ _ _   _ _" -> [3, 2]); hyphens etc. are not counted. */
export function maskLengths(mask) {
  return maskWords(mask).map((w) => w.filter((c) => c === '_' || /[\p{L}\p{N}]/u.test(c)).length);
}

/** Build the mask the server would send for a word with nothing revealed. */
export function maskForWord(word) {
  return String(word)
    .trim()
    .split(/\s+/)
    .map((w) => [...w].map((c) => (/[\p{L}\p{N}]/u.test(c) ? '_' : c)).join(' '))
    .join('   ');
}

/** Number of revealed letters in a mask. */
export function revealedCount(mask) {
  return maskWords(mask).flat().filter((c) => c !== '_' && /[\p{L}\p{N}]/u.test(c)).length;
}

/**
 * A countdown driven by server `remainingMs` values (durations, never wall clock).
 * `now` is injectable (performance.now() in the browser).
 */
export class Countdown {
  constructor(now = () => performance.now()) {
    this.now = now;
    this.deadline = null;
  }
  set(remainingMs) {
    if (typeof remainingMs !== 'number' || !Number.isFinite(remainingMs) || remainingMs < 0) {
      this.deadline = null;
      return;
    }
    this.deadline = this.now() + remainingMs;
  }
  stop() {
    this.deadline = null;
  }
  get running() {
    return this.deadline !== null;
  }
  remainingMs() {
    if (this.deadline === null) return 0;
    return Math.max(0, this.deadline - this.now());
  }
  /** Whole seconds left, rounded up (so "1" shows until the very end). */
  seconds() {
    return Math.ceil(this.remainingMs() / 1000);
  }
}

export function formatSeconds(totalSeconds) {
  const s = Math.max(0, Math.floor(totalSeconds));
  const m = Math.floor(s / 60);
  const r = s % 60;
  return m > 0 ? `${m}:${String(r).padStart(2, '0')}` : `${r}`;
}

/** Parse custom words from a textarea: one per line or comma-separated; trimmed, de-duplicated, at most 500. */
export function parseCustomWords(text) {
  const seen = new Set();
  const out = [];
  for (const raw of String(text ?? '').split(/[\n,]+/)) {
    const w = raw.trim().replace(/\s+/g, ' ');
    if (!w) continue;
    const key = w.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(w);
    if (out.length >= 500) break;
  }
  return out;
}

export const SETTING_LIMITS = Object.freeze({
  rounds: [1, 10, 3],
  drawTimeSec: [30, 240, 80],
  maxPlayers: [2, 50, 8],
  wordChoices: [1, 5, 3],
  hints: [0, 5, 2],
  writeTimeSec: [10, 120, 40], // telephone mode's write and describe steps (PROTOCOL 12.5)
});

/** Game modes (PROTOCOL 12.5); anything else is sent as the default, classic. */
export const MODES = Object.freeze(['classic', 'telephone']);

export function clampInt(value, min, max, fallback) {
  const n = Math.round(Number(value));
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, n));
}

/**
 * The numeric settings that `buildSettings` moved into range: {field: value used} for
 * each raw value that was a number but not the one sent (an empty field is no change).
 */
export function adjustedSettings(raw, built) {
  const out = {};
  for (const key of Object.keys(SETTING_LIMITS)) {
    const v = raw?.[key];
    if (v === undefined || v === null || String(v).trim() === '' || !Number.isFinite(Number(v))) continue;
    if (Number(v) !== built[key]) out[key] = built[key];
  }
  return out;
}

/** Build a settings object for `create`/`settings` from raw form values. */
export function buildSettings(raw) {
  const s = {};
  for (const [key, [min, max, def]] of Object.entries(SETTING_LIMITS)) {
    s[key] = clampInt(raw[key], min, max, def);
  }
  const words = parseCustomWords(raw.customWords);
  s.customWords = words;
  s.customOnly = Boolean(raw.customOnly) && words.length > 0;
  s.language = raw.language || 'en';
  s.streamer = raw.streamer === true;
  s.mode = MODES.includes(raw.mode) ? raw.mode : 'classic';
  return s;
}

/** Streamer mode (docs/PROTOCOL.md 12.2): only a `true` turns it on (an older server sends none). */
export function isStreamer(settings) {
  return settings?.streamer === true;
}

/** What a masked room code or player id shows: the same six dots whatever it hides. */
export const MASK = '\u2022'.repeat(CODE_LENGTH);

/** `value` as the screen may show it: MASK when `hidden`, else the value itself. */
export function maskedText(value, hidden) {
  if (hidden) return MASK;
  return value === undefined || value === null ? '' : String(value);
}

/**
 * Places for a ranking (equal scores share a place: 1, 1, 3). Uses the server's
 * `place` when present, computes it otherwise. Returns a new array sorted by place.
 */
export function withPlaces(ranking) {
  const list = (Array.isArray(ranking) ? ranking : []).map((r) => ({ ...r, score: Number(r.score) || 0 }));
  if (list.every((r) => Number.isInteger(r.place))) return list.sort((a, b) => a.place - b.place);
  list.sort((a, b) => b.score - a.score);
  let place = 0;
  let prev = null;
  list.forEach((r, i) => {
    if (prev === null || r.score !== prev) place = i + 1;
    prev = r.score;
    r.place = place;
  });
  return list;
}

/**
 * Reconnect delay for attempt n (0-based): exponential from baseMs, capped at
 * maxMs, with jitter in [50%, 100%] of the value.
 */
export function backoffDelay(attempt, { baseMs = 500, maxMs = 15000, random = Math.random } = {}) {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(exp * (0.5 + random() * 0.5));
}

/**
 * What to do when the socket closes with a code (client policy, see docs/CLIENT.md).
 * `key` names the interface string (js/i18n.js); `message` is its English text.
 */
export function closePolicy(code) {
  switch (code) {
    case 4001:
      return { reconnect: false, key: 'close.moved', message: 'This session moved to another tab.' };
    case 1012:
      return { reconnect: true, fast: true, key: 'close.restarting', message: 'The server is restarting; reconnecting…' };
    case 4008:
      return { reconnect: true, key: 'close.slow', message: 'The connection was too slow; reconnecting…' };
    case 4003:
      return { reconnect: true, key: 'close.noHello', message: 'The server did not receive our hello in time; reconnecting…' };
    case 1008:
      return { reconnect: true, slow: true, key: 'close.tooMany', message: 'Disconnected by the server (too many messages); reconnecting…' };
    case 1009:
      return { reconnect: true, slow: true, key: 'close.tooBig', message: 'Disconnected by the server (message too big); reconnecting…' };
    default:
      return { reconnect: true, key: 'close.lost', message: 'Connection lost; reconnecting…' };
  }
}

/**
 * The policy for a close while reconnecting: a failed attempt (1006, no close frame:
 * the server is still down) keeps the reason that started the streak, so "the server
 * is restarting" (1012) stays on screen, with its pace, until the session is back.
 */
export function streakPolicy(code, streak) {
  if (code === 1006 && streak && streak.reconnect) return streak;
  return closePolicy(code);
}

export const TURN_END_REASONS = Object.freeze({
  time: 'Time is up',
  allGuessed: 'Everyone guessed the word',
  skipped: 'The drawer skipped',
  drawerLeft: 'The drawer left',
});

/** Map a client pointer position to logical canvas coordinates. */
export function toLogical(clientX, clientY, rect, w, h) {
  const sx = rect.width > 0 ? w / rect.width : 1;
  const sy = rect.height > 0 ? h / rect.height : 1;
  let x = Math.floor((clientX - rect.left) * sx);
  let y = Math.floor((clientY - rect.top) * sy);
  // the protocol accepts points in [-w, 2w) x [-h, 2h)
  x = Math.min(2 * w - 1, Math.max(-w, x));
  y = Math.min(2 * h - 1, Math.max(-h, y));
  return [x, y];
}
