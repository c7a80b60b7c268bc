// The big-screen page's pure decisions (docs/CLIENT.md, "The big screen"): which code a
// path names, who is on the scoreboard, how the clock reads. No DOM here.

export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 6;

/** A room code typed by a person (any case, spaces around), or null when it cannot be one. */
export function normalizeCode(text) {
  const code = String(text ?? '').trim().toUpperCase();
  if (code.length !== CODE_LENGTH) return null;
  for (const ch of code) if (!CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** The code of `/tv/CODE`, or null for `/tv` (and anything else). */
export function codeFromPath(pathname) {
  const match = /^\/tv\/([^/]+)\/?$/.exec(String(pathname ?? ''));
  return match ? normalizeCode(decodeURIComponent(match[1])) : null;
}

/**
 * The scoreboard: the room's players who play (not screens that watch, not spectators),
 * highest score first, then by name; each marked when it guessed this turn or draws it.
 */
export function scoreboard(players, { drawer = null, guessed = new Set() } = {}) {
  return (players || [])
    .filter((p) => p && !p.watching && !p.spectator)
    .map((p) => ({ ...p, guessedNow: Boolean(p.guessed) || guessed.has(p.id), drawing: p.id === drawer }))
    .sort((a, b) => (b.score - a.score) || String(a.name).localeCompare(String(b.name)));
}

/** m:ss for a countdown, never negative. */
export function clock(ms) {
  const seconds = Math.max(0, Math.ceil((Number(ms) || 0) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The code as the room corner shows it: masked in streamer mode. */
export function shownCode(room) {
  if (!room?.code) return '';
  return room.settings?.streamer ? '••••••' : room.code;
}
