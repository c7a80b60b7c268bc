// Pure helpers for chat continuity: merging the server's `chatHistory` into what the
// page still shows, and announcing each turn once (see docs/CLIENT.md, "Continuity").

const lineKey = (l) => `${l.from ?? ''}\u0000${l.text ?? ''}`;

/**
 * The lines of a `chatHistory` (oldest first) that the page does not show yet, given
 * the chat lines it still shows (`existing`, oldest first, each {from, text}).
 *
 * The history is the last lines this player may see, so it also has those sent while
 * the page was away, at its end. The page's latest line that the history also has marks
 * where the page stopped: the history lines after it are new. When a text repeats, the
 * occurrence with the longest run of matching lines before it wins (the latest on a
 * tie). The page's own lines are never removed: a line the server lost in a crash stays
 * on the page; with nothing in common the whole history is new.
 *
 * Returns {add: history lines to add, atTop: true when the page had no chat lines (a
 * reload: the history goes before the page's own lines)}.
 */
export function mergeHistory(existing, history) {
  const lines = Array.isArray(history) ? history.filter((l) => l && typeof l === 'object') : [];
  const have = (Array.isArray(existing) ? existing : []).map(lineKey);
  if (have.length === 0) return { add: lines, atTop: true };
  const want = lines.map(lineKey);
  for (let i = have.length - 1; i >= 0; i--) {
    let best = -1;
    let bestRun = -1;
    for (let j = want.length - 1; j >= 0; j--) {
      if (want[j] !== have[i]) continue;
      let run = 0;
      while (run < j && run < i && want[j - 1 - run] === have[i - 1 - run]) run++;
      if (run > bestRun) {
        best = j;
        bestRun = run;
      }
    }
    if (best >= 0) return { add: lines.slice(best + 1), atTop: false };
  }
  return { add: lines, atTop: false };
}

/**
 * The identity of a turn for its "X is drawing now." line: the server resends `turn`
 * on every resume (protocol 4), and after a restart the page still shows the line.
 */
export function turnKey(round, drawer) {
  return `${round ?? ''}:${drawer ?? ''}`;
}

export const HISTORY_KINDS = Object.freeze(['chat', 'guessed', 'close', 'reveal', 'passed']);

/**
 * The identity of a chat log line for the merge: a player's line is {from, text}; a line
 * of the game's context (`kind`) is {from: '#kind', text: what tells it apart}, the same
 * for the line the page wrote live and the one a `chatHistory` brings back.
 */
export function contextKey(kind, line) {
  switch (kind) {
    case 'guessed':
    case 'passed':
      return { from: `#${kind}`, text: String(line.playerId ?? '') };
    case 'close':
      return { from: '#close', text: String(line.text ?? '') };
    case 'reveal':
      return { from: '#reveal', text: String(line.word ?? '') };
    default:
      return { from: String(line.from ?? ''), text: String(line.text ?? '') };
  }
}

/**
 * A `chatHistory`'s lines, checked: players' lines ({from, name, text}, no `kind`) and
 * the game's context lines (`kind` guessed/close/reveal/passed); anything else is
 * dropped. Each line gets `kind` and its merge identity `key` ({from, text}).
 */
export function normalizeHistory(lines) {
  const out = [];
  for (const l of Array.isArray(lines) ? lines : []) {
    if (!l || typeof l !== 'object') continue;
    const kind = l.kind === undefined ? 'chat' : l.kind;
    if (!HISTORY_KINDS.includes(kind)) continue;
    if (kind === 'chat' && typeof l.text !== 'string') continue;
    if ((kind === 'guessed' || kind === 'passed') && l.playerId === undefined) continue;
    if (kind === 'close' && typeof l.text !== 'string') continue;
    if (kind === 'reveal' && typeof l.word !== 'string') continue;
    const line = {
      kind,
      from: String(l.from ?? ''),
      name: typeof l.name === 'string' ? l.name : '',
      text: typeof l.text === 'string' ? l.text : '',
      playerId: l.playerId === undefined ? undefined : String(l.playerId),
      word: typeof l.word === 'string' ? l.word : undefined,
      reason: typeof l.reason === 'string' ? l.reason : undefined,
    };
    out.push({ ...line, key: contextKey(kind, line) });
  }
  return out;
}
