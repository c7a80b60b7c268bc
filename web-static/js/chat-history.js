// Pure helpers for chat continuity: merging the server's `chatHistory` into what the
// page still shows, and announcing each turn once (see docs/CLIENT.md, "Continuity").

const lineKey = (l) => `${l.from ?? ''}\u0000${l.text ?? ''}`;

/**
 * What to do with a `chatHistory` (oldest first) given the chat lines the page still
 * shows (`existing`, oldest first, each {from, text}).
 *
 * The page's last lines are normally a run inside the history (the history is the last
 * lines this player may see; it also has those sent while the page was away). The longest
 * such run (the latest on a tie) is kept and only the history lines after it are added.
 * With no overlap the page's chat lines are replaced by the history.
 *
 * Returns {replace: boolean, add: history lines to add at the end}.
 */
export function mergeHistory(existing, history) {
  const lines = Array.isArray(history) ? history.filter((l) => l && typeof l === 'object') : [];
  const have = (Array.isArray(existing) ? existing : []).map(lineKey);
  if (have.length === 0) return { replace: false, add: lines };
  const want = lines.map(lineKey);
  for (let k = Math.min(have.length, want.length); k >= 1; k--) {
    const tail = have.slice(have.length - k);
    for (let j = want.length - k; j >= 0; j--) {
      let same = true;
      for (let i = 0; i < k && same; i++) same = tail[i] === want[j + i];
      if (same) return { replace: false, add: lines.slice(j + k) };
    }
  }
  return { replace: true, add: lines };
}

/**
 * The identity of a turn for its "X is drawing now." line: the server resends `turn`
 * on every resume (protocol 4), and after a restart the page still shows the line.
 */
export function turnKey(round, drawer) {
  return `${round ?? ''}:${drawer ?? ''}`;
}
