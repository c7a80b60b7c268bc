// The room's chat log: players' lines (with their avatars), the page's own system lines
// (kept as key and parameters, so a language switch re-renders them) and the merge of a
// resumed session's `chatHistory`. Text goes in with textContent only.

import { $$, el } from './dom.js';
import { t } from './i18n.js';
import { avatarNode } from './avatar.js';
import { mergeHistory } from './chat-history.js';
import { reportMenu } from './drawing-card.js';

export const CHAT_LOG_MAX = 300;

export class ChatLog {
  /**
   * `lookup(id)` returns the room's player entry ({name, avatar}) or null; `onReport(line,
   * reason)`, when given, adds a report menu to other players' lines.
   */
  constructor(root, lookup, onReport = null) {
    this.root = root;
    this.lookup = lookup;
    this.onReport = onReport;
  }

  clear() {
    this.root.replaceChildren();
  }

  /** Append a line (or insert it before `before`), keeping the log at CHAT_LOG_MAX lines. */
  add(parts, kind = 'msg', dataset = undefined, before = null) {
    const log = this.root;
    const li = el('li', { className: `chat-line chat-${kind}`, dataset }, ...parts);
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    if (before) log.insertBefore(li, before);
    else log.append(li);
    while (log.children.length > CHAT_LOG_MAX) log.firstElementChild.remove();
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  /** A line of the page's own: interface string `key` with `params`. */
  system(key, params = {}, kind = 'system') {
    this.add([el('span', { className: 'chat-text', text: t(key, params) })], kind, { key, params: JSON.stringify(params) });
  }

  /** A player's line ({from, name, text}); data-from/data-text let chatHistory match it. */
  player(line, kind, before = null) {
    const sender = this.lookup(line.from);
    const name = String(line.name || sender?.name || '?');
    this.add([
      avatarNode(sender?.avatar, name, { size: 20 }),
      el('span', { className: 'chat-name', attrs: { dir: 'auto' }, text: name }),
      ': ',
      el('span', { className: 'chat-text', attrs: { dir: 'auto' }, text: String(line.text ?? '') }),
      kind === 'msg' && this.onReport ? reportMenu(t('report.chat'), (reason) => this.onReport(line, reason)) : null,
    ], kind, { from: String(line.from ?? ''), text: String(line.text ?? '') }, before);
  }

  /**
   * `chatHistory` after a resume: on a reload the page has no chat lines and gets them
   * all (before its own "You are in …" line); on a reconnect only the lines it missed
   * are added at the end (chat-history.js), so nothing shows twice and nothing goes.
   */
  history(lines, meId) {
    const clean = (Array.isArray(lines) ? lines : [])
      .filter((l) => l && typeof l === 'object' && typeof l.text === 'string')
      .map((l) => ({ from: String(l.from ?? ''), name: typeof l.name === 'string' ? l.name : '', text: l.text }));
    const existing = $$('.chat-line[data-from]', this.root).map((n) => ({ from: n.dataset.from, text: n.dataset.text }));
    const { add, atTop } = mergeHistory(existing, clean);
    const before = atTop ? this.root.firstElementChild : null;
    for (const l of add) this.player(l, l.from === meId ? 'mine' : 'msg', before);
    this.root.scrollTop = this.root.scrollHeight;
  }

  /** After a language switch: the system lines in the new language. */
  retranslate() {
    for (const li of $$('.chat-line[data-key]', this.root)) {
      let params = {};
      try {
        params = JSON.parse(li.dataset.params || '{}');
      } catch {
        /* keep the defaults */
      }
      const text = li.querySelector('.chat-text');
      if (text) text.textContent = t(li.dataset.key, params);
    }
  }
}
