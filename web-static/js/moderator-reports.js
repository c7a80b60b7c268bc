// The moderator page's open reports: each with the evidence the server captured when it
// was made (the canvas snapshot, the turn's time-lapse, the chat lines around it) and the
// actions dismiss, remove the drawing, kick and ban. Evidence images need the moderator's
// token, so they are fetched as blobs; a report's node is built once and kept while open,
// and rebuilt when its turn ends (a canvas reported while drawn then names its drawing).

import { $, el, show, toast } from './dom.js';

const REASONS = {
  offensive: 'Offensive', sexual: 'Sexual', hateful: 'Hateful', spam: 'Spam', reveals_word: 'Gives the word away', other: 'Something else',
};

/** What a canvas reported while its turn was drawn has become (`turn` in the report). */
const TURN_NOTES = {
  pending: 'Reported while the turn was drawn: its drawing can be removed once the turn has ended.',
  empty: 'The turn ended with an empty canvas: there is no drawing to remove.',
};

/** report id -> {node, urls, turn} */
const shown = new Map();

/** Forgets every shown report (signing out). */
export function clearReports() {
  for (const entry of shown.values()) for (const url of entry.urls) URL.revokeObjectURL(url);
  shown.clear();
  $('#report-list').replaceChildren();
}

/** Loads the open reports and brings the list up to date; `api` adds the token. */
export async function refreshReports(api, onChange) {
  const res = await api('/api/reports');
  if (!res.ok) throw new Error(`GET /api/reports: HTTP ${res.status}`);
  const reports = await res.json();
  const list = $('#report-list');
  const open = new Set();
  for (const report of Array.isArray(reports) ? reports : []) {
    open.add(report.id);
    const old = shown.get(report.id);
    if (old && old.turn !== (report.turn ?? null)) {
      // Its turn ended: rebuilt in place, with "Remove drawing" when there is one.
      const entry = { node: reportNode(report, api, onChange), urls: [], turn: report.turn ?? null };
      for (const url of old.urls) URL.revokeObjectURL(url);
      old.node.replaceWith(entry.node);
      shown.set(report.id, entry);
      loadEvidence(report, entry, api);
    } else if (!old) {
      const entry = { node: reportNode(report, api, onChange), urls: [], turn: report.turn ?? null };
      shown.set(report.id, entry);
      list.append(entry.node);
      loadEvidence(report, entry, api);
    }
  }
  for (const [id, entry] of shown) {
    if (open.has(id)) continue;
    for (const url of entry.urls) URL.revokeObjectURL(url);
    entry.node.remove();
    shown.delete(id);
  }
  $('#report-count').textContent = String(open.size);
  show($('#reports-empty'), open.size === 0);
}

function reportNode(r, api, onChange) {
  const who = (p) => (p ? `${p.name} (${p.id})` : 'unknown');
  const chat = el('ol', { className: 'report-chat' });
  for (const line of Array.isArray(r.chat) ? r.chat : []) {
    const reported = r.kind === 'chat' && line.text === r.chatText && line.from === r.reported?.id;
    chat.append(el('li', { className: reported ? 'reported-line' : '' },
      el('b', { attrs: { dir: 'auto' }, text: String(line.name ?? '') }), ': ', el('span', { attrs: { dir: 'auto' }, text: String(line.text ?? '') })));
  }
  const act = (action, label, kind, question) => el('button', {
    type: 'button',
    className: `btn btn-sm ${kind}`,
    dataset: { action },
    text: label,
    on: { click: async () => {
      if (question && !confirm(question)) return;
      const res = await api(`/api/reports/${encodeURIComponent(r.id)}/${action}`, { method: 'POST' });
      if (res.ok) toast(`${label}: done.`, 'success');
      else toast(`${label} failed: HTTP ${res.status} ${await res.text()}`, 'error');
      onChange();
    } },
  });
  const actions = el('div', { className: 'card-actions' }, act('dismiss', 'Dismiss', 'btn-ghost'));
  if (r.drawing) actions.append(act('remove', 'Remove drawing', 'btn-danger', 'Remove this drawing everywhere? Its images and stored turn are deleted.'));
  if (r.reported) {
    actions.append(act('kick', 'Kick', 'btn-ghost'));
    actions.append(act('ban', 'Ban 24 h', 'btn-danger', `Ban ${who(r.reported)} for 24 hours? They leave their room and cannot join or create any.`));
  }
  return el('li', { className: 'report-item card', dataset: { id: r.id, kind: r.kind } },
    el('div', { className: 'report-head' },
      el('span', { className: 'pill', text: REASONS[r.reason] || r.reason }),
      el('strong', { text: r.kind === 'chat' ? ' Chat line' : ' Drawing' }),
      el('span', { className: 'muted small', text: ` · ${new Date(Number(r.filedAt)).toLocaleString()} · room ${r.room || '–'}` }),
    ),
    el('p', { className: 'small' }, 'Reported by ', el('b', { attrs: { dir: 'auto' }, text: who(r.reporter) }), ' about ', el('b', { attrs: { dir: 'auto' }, text: who(r.reported) })),
    r.chatText ? el('blockquote', { className: 'report-quote', attrs: { dir: 'auto' }, text: r.chatText }) : null,
    TURN_NOTES[r.turn] ? el('p', { className: 'muted small report-turn', text: TURN_NOTES[r.turn] }) : null,
    el('div', { className: 'report-evidence' },
      el('figure', { className: 'report-snapshot', hidden: true }, el('img', { attrs: { alt: 'Canvas when reported' } }), el('figcaption', { className: 'muted small', text: 'Canvas when reported' })),
      el('figure', { className: 'report-timelapse', hidden: true }, el('img', { attrs: { alt: 'Time-lapse of the turn' } }), el('figcaption', { className: 'muted small', text: 'Time-lapse' })),
    ),
    chat.children.length ? el('details', { className: 'report-context', open: true }, el('summary', { text: `Chat around it (${chat.children.length} ${chat.children.length === 1 ? 'line' : 'lines'})` }), chat) : null,
    actions,
  );
}

async function loadEvidence(r, entry, api) {
  for (const [path, selector] of [[r.snapshot, '.report-snapshot'], [r.timelapse, '.report-timelapse']]) {
    if (!path) continue;
    try {
      const res = await api(`${path}?max=320`, { accept: 'image/*' });
      if (!res.ok) continue;
      const url = URL.createObjectURL(await res.blob());
      entry.urls.push(url);
      const figure = entry.node.querySelector(selector);
      figure.querySelector('img').src = url;
      figure.hidden = false;
    } catch (err) {
      console.warn(err);
    }
  }
}
