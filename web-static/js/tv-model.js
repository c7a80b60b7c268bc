// The big-screen page's pure logic (/tv, docs/CLIENT.md "The big screen"): the room code in
// the path, the scoreboard (players only: no screen, no spectator), the feed of the
// game's key events, the masked room code of a streamer's room. No DOM.

import { normalizeCode, isValidCode, withPlaces } from './util.js';
import { normalizeHistory } from './chat-history.js';

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
