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
