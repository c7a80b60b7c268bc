// The public gallery (/gallery): recent or best-rated drawings from public rooms, or with
// this browser's player token every drawing of the games it played ("My games", private
// rooms' too), filtered by word language and word, a page at a time (GET /api/gallery).
// With a player token each drawing can be reported (POST /api/drawings/ID/report): the
// report spends that player's budget like an in-game one, so visitors without a token
// are asked to play first.

import { $, el, show, toast } from './dom.js';
import { t, LOCALES, locale, initialLocale, setLocale, onLocaleChange } from './i18n.js';
import { loadToken } from './connection.js';
import { drawingCard, isMyDrawing } from './drawing-card.js';

const PER_PAGE = 24;
const state = { view: 'recent', lang: '', word: '', page: 1, hasMore: false, drawings: [] };

/** The query string of the current view, filters and page. */
export function galleryPath({ view, lang, word, page }) {
  // encodeURIComponent, not URLSearchParams: the server reads "+" as a plus, not a space.
  const params = [];
  if (view === 'best') params.push('sort=best');
  if (lang) params.push(`lang=${encodeURIComponent(lang)}`);
  if (word) params.push(`word=${encodeURIComponent(word)}`);
  params.push(`page=${page}`, `per=${PER_PAGE}`);
  return `${view === 'mine' ? '/api/gallery/mine' : '/api/gallery'}?${params.join('&')}`;
}

async function load() {
  const status = $('#gallery-status');
  const headers = {};
  const token = loadToken();
  if (state.view === 'mine' && token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(galleryPath(state), { headers, cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = await res.json();
    state.drawings = Array.isArray(body.drawings) ? body.drawings : [];
    state.hasMore = Boolean(body.hasMore);
    status.textContent = state.drawings.length ? '' : t('gallery.empty');
  } catch (err) {
    state.drawings = [];
    state.hasMore = false;
    status.textContent = t('gallery.failed');
    console.warn(err);
  }
  render();
}

/** What a report's HTTP status means to the reporter. */
export function reportOutcome(status) {
  if (status === 201) return ['report.thanks', 'success'];
  if (status === 429) return ['error.report_limited', 'error'];
  if (status === 403) return ['report.own', 'error'];
  if (status === 404) return ['error.unknown_target', 'error'];
  if (status === 401) return ['gallery.reportHint', 'error'];
  return ['report.failed', 'error'];
}

async function report(id, reason) {
  const token = loadToken();
  if (!token) return;
  let status = 0;
  try {
    const res = await fetch(`/api/drawings/${encodeURIComponent(id)}/report`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason }),
    });
    status = res.status;
  } catch (err) {
    console.warn(err);
  }
  const [key, kind] = reportOutcome(status);
  toast(t(key), kind);
}

function render() {
  const grid = $('#gallery-grid');
  const canReport = Boolean(loadToken());
  grid.replaceChildren(...state.drawings.map((d) => drawingCard(d, {
    size: 240,
    onReport: canReport && !isMyDrawing(d.id) ? (reason) => report(d.id, reason) : undefined,
  })));
  show($('#gallery-report-hint'), !canReport && state.drawings.length > 0);
  $('#gallery-page').textContent = t('gallery.page', { n: state.page });
  $('#gallery-prev').disabled = state.page <= 1;
  $('#gallery-next').disabled = !state.hasMore;
  show($('.gallery-pages'), state.page > 1 || state.hasMore);
}

async function fillLanguages() {
  try {
    const res = await fetch('/api/languages');
    const languages = await res.json();
    const select = $('#gallery-lang');
    for (const l of Array.isArray(languages) ? languages : []) {
      select.append(el('option', { value: String(l.code), text: String(l.name), attrs: { lang: String(l.code) } }));
    }
  } catch (err) {
    console.warn(err);
  }
}

function boot() {
  const select = $('#locale-select');
  select.replaceChildren(...LOCALES.map((l) => el('option', { value: l.code, text: l.name, attrs: { lang: l.code } })));
  setLocale(initialLocale(), { remember: false });
  select.value = locale();
  select.addEventListener('change', () => setLocale(select.value));
  onLocaleChange(render);
  show($('#view-mine-label'), Boolean(loadToken()));
  const params = new URLSearchParams(location.search);
  state.word = params.get('word') || '';
  state.lang = params.get('lang') || '';
  $('#gallery-word').value = state.word;
  $('#gallery-filters').addEventListener('change', (e) => {
    if (e.target.name === 'view') {
      state.view = e.target.value;
      state.page = 1;
      load();
    }
  });
  $('#gallery-filters').addEventListener('submit', (e) => {
    e.preventDefault();
    state.lang = $('#gallery-lang').value;
    state.word = $('#gallery-word').value.trim();
    state.page = 1;
    load();
  });
  $('#gallery-prev').addEventListener('click', () => { state.page = Math.max(1, state.page - 1); load(); });
  $('#gallery-next').addEventListener('click', () => { state.page += 1; load(); });
  fillLanguages().then(() => { $('#gallery-lang').value = state.lang; });
  load();
}

if (typeof document !== 'undefined') boot();
