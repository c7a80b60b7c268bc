// The room's chat log: players' lines (with their avatars), the page's own system lines
// (kept as key and parameters, so a language switch re-renders them; every parameter,
// a name above all, in its own <bdi>), the game's context lines (X guessed, close, the
// word was) and the merge of a resumed session's `chatHistory`. Text goes in with
// textContent only.

import { $$, el } from './dom.js';
import { t, tParts } from './i18n.js';
import { avatarNode } from './avatar.js';
import { mergeHistory, normalizeHistory, contextKey } from './chat-history.js';
import { reportMenu } from './drawing-card.js';

export const CHAT_LOG_MAX = 300;
const AT_BOTTOM_PX = 40; // closer than this to the end counts as reading the newest line

/**
 * The text of a system line: literal parts as text, each parameter isolated; a room code
 * (`{code}`) is `codeNode(code)`, which streamer mode masks.
 */
function systemText(key, params, codeNode) {
  return tParts(key, params).map((p) => {
    if (p.param === 'code') return codeNode(p.text);
    return p.param ? el('bdi', { text: p.text }) : p.text;
  });
}

/** The interface string of a history line of the game's context. */
function contextLine(l, meId) {
  switch (l.kind) {
    case 'guessed':
      return l.playerId === meId ? ['chat.youGuessedPlain', {}, 'correct'] : ['chat.guessedPlain', { name: l.name || t('player.someone') }, 'correct'];
    case 'close':
      return ['chat.close', { text: l.text }, 'close'];
    case 'reveal':
      return ['chat.wordWas', { word: l.word }, 'reveal'];
    default:
      return ['notice.bot_passed', { name: l.name || t('player.someone') }, 'system'];
  }
}

export class ChatLog {
  /**
   * `lookup(id)` returns the room's player entry ({name, avatar}) or null; `onReport(line,
   * reason)`, when given, adds a report menu to other players' lines; `codeNode(code)` is
   * how a room code in a system line is shown (streamer.js's codeRef: dots when hidden).
   */
  constructor(root, lookup, onReport = null, codeNode = (code) => el('bdi', { text: code })) {
    this.root = root;
    this.lookup = lookup;
    this.onReport = onReport;
    this.codeNode = codeNode;
  }

  clear() {
    this.root.replaceChildren();
  }

  atBottom() {
    const log = this.root;
    return log.scrollHeight - log.scrollTop - log.clientHeight < AT_BOTTOM_PX;
  }

  scrollToEnd() {
    this.root.scrollTop = this.root.scrollHeight;
  }

  /** Append a line (or insert it before `before`), keeping the log at CHAT_LOG_MAX lines. */
  add(parts, kind = 'msg', dataset = undefined, before = null) {
    const log = this.root;
    const li = el('li', { className: `chat-line chat-${kind}`, dataset }, ...parts);
    const atBottom = this.atBottom();
    if (before) log.insertBefore(li, before);
    else log.append(li);
    while (log.children.length > CHAT_LOG_MAX) log.firstElementChild.remove();
    if (atBottom) this.scrollToEnd();
  }

  /**
   * A line of the page's own: interface string `key` with `params`. `context` (the
   * line's kind and fields, as in a chatHistory) lets a later chatHistory recognise it.
   */
  system(key, params = {}, kind = 'system', { context = null, before = null } = {}) {
    const dataset = { key, params: JSON.stringify(params) };
    if (context) dataset.hkey = hkey(contextKey(context.kind, context));
    this.add([el('span', { className: 'chat-text' }, ...systemText(key, params, this.codeNode))], kind, dataset, before);
  }

  /** A player's line ({from, name, text}); data-from/data-text let chatHistory match it. */
  player(line, kind, before = null) {
    const sender = this.lookup(line.from);
    const name = String(line.name || sender?.name || '?');
    const from = String(line.from ?? '');
    const text = String(line.text ?? '');
    this.add([
      avatarNode(sender?.avatar, name, { size: 20 }),
      el('span', { className: 'chat-name', attrs: { dir: 'auto' }, text: name }),
      ': ',
      el('span', { className: 'chat-text', attrs: { dir: 'auto' }, text }),
      kind === 'msg' && this.onReport ? reportMenu(t('report.chat'), (reason) => this.onReport(line, reason)) : null,
    ], kind, { from, text, hkey: hkey({ from, text }) }, before);
  }

  /**
   * `chatHistory` after a resume: on a reload the page has no such lines and gets them
   * all (before its own "You are in …" line); on a reconnect only the lines it missed
   * are added at the end (chat-history.js), so nothing shows twice and nothing goes.
   * Players' lines and the game's context (guessed, close, the word was, a bot passed).
   */
  history(lines, meId) {
    const clean = normalizeHistory(lines);
    const existing = $$('.chat-line[data-hkey]', this.root).map((n) => unkey(n.dataset.hkey));
    const { add, atTop } = mergeHistory(existing, clean.map((l) => ({ ...l.key, line: l })));
    const before = atTop ? this.root.firstElementChild : null;
    for (const { line: l } of add) {
      if (l.kind === 'chat') {
        this.player(l, l.from === meId ? 'mine' : 'msg', before);
      } else {
        const [key, params, kind] = contextLine(l, meId);
        this.system(key, params, kind, { context: l, before });
      }
    }
    this.scrollToEnd();
  }

  /** After a language switch: the system lines in the new language. */
  retranslate() {
    const stick = this.atBottom();
    for (const li of $$('.chat-line[data-key]', this.root)) {
      let params = {};
      try {
        params = JSON.parse(li.dataset.params || '{}');
      } catch {
        /* keep the defaults */
      }
      li.querySelector('.chat-text')?.replaceChildren(...systemText(li.dataset.key, params, this.codeNode));
    }
    if (stick) this.scrollToEnd();
  }
}

function hkey({ from, text }) {
  return `${from}\u001f${text}`;
}

function unkey(s) {
  const i = s.indexOf('\u001f');
  return i < 0 ? { from: s, text: '' } : { from: s.slice(0, i), text: s.slice(i + 1) };
}
