// Pure helpers for the lobby's room list (RoomSummary: docs/PROTOCOL.md, issue 39
// additions language/round/rounds/bots).

/** "3 + 1 bot" (people and bots) when bots are seated, else ''. `t` is i18n's. */
export function peopleAndBots(r, t) {
  const bots = Number(r?.bots) || 0;
  if (bots <= 0) return '';
  const people = Math.max(0, (Number(r.players) || 0) - bots);
  return bots === 1 ? t('lobby.withBot', { people }) : t('lobby.withBots', { people, bots });
}

/** Whether room `r` matches the search `q` (name, code, language code or name; any case). */
export function roomMatches(r, q, languageName = (c) => c) {
  const needle = String(q ?? '').trim().toLocaleLowerCase();
  if (!needle) return true;
  return [r?.name, r?.code, r?.language, r?.language ? languageName(r.language) : '']
    .some((x) => String(x ?? '').toLocaleLowerCase().includes(needle));
}

/** Whether the room is in a game (its round is worth showing). */
export function isPlaying(phase) {
  return phase === 'choosing' || phase === 'drawing' || phase === 'turnEnd';
}
