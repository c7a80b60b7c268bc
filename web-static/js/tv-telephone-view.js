// The big screen's telephone views (/tv, docs/CLIENT.md "The big screen"; PROTOCOL 12.5):
// during the steps, who has handed in (never what: a screen is handed nothing, and shows
// nothing any player wrote or drew before the album); during the album, what the host has
// revealed, large: the chain's title card, then the newest entry with the one it answers
// and a strip of the chain so far. Reads the store's `state.phone` (telephone-model.js)
// and the page's `tv.phone` (the watch, tv-model.js); text goes in with textContent only.

import { $, el, show } from './dom.js';
import { t, tParts, locale } from './i18n.js';
import { icon } from './icons.js';
import { avatarNode } from './avatar.js';
import { state, player, playerName } from './store.js';
import { phoneStatus, albumScreen, textSize } from './tv-model.js';

// the step's kind at a glance, as on the players' pages (telephone-view.js)
const KIND_ICONS = Object.freeze({ write: 'pen', draw: 'fill', describe: 'eye' });
const PLAYERS_MAX = 27; // a TV does not scroll: the rest is counted
const ROOMY_UNTIL = 5; // larger cards up to this many players
const COMPACT_FROM = 7; // smaller cards from this many players on (two rows)
const TINY_FROM = 15; // and smaller still (three rows)
const STEPPER_NAMES_UNTIL = 8; // more steps: numbers and icons only
const STRIP_MAX = 10;

function isolated(key, params = {}) {
  return tParts(key, params).map((p) => (p.param ? el('bdi', { text: p.text }) : p.text));
}

/** The watch's view now (tv.js keeps `watch` up to date). */
export function currentStatus(watch) {
  return phoneStatus(watch, state.phone, state.room?.players || []);
}

/** The header in a telephone game: {round, line} (the line is a node list). */
export function phoneHead(watch) {
  if (state.phase === 'album') {
    const a = albumScreen(state.phone);
    if (!a) return { round: t('album.pill'), line: [] };
    // the title card says whose album it is, large: the header only counts the albums
    if (a.title) return { round: t('album.chainOf', { n: a.chain + 1, count: a.count }), line: [] };
    return {
      round: t('album.chainOf', { n: a.chain + 1, count: a.count }),
      line: [avatarNode(player(a.owner)?.avatar, playerName(a.owner), { size: 40 }), el('span', {}, ...isolated('album.title', { name: playerName(a.owner) }))],
    };
  }
  // "Telephone" over "Step 2 of 4" (the stage says what everyone is doing)
  const s = currentStatus(watch);
  if (s.step === null || s.over) return { round: t('phone.title'), line: [] };
  return { round: t('phone.title'), line: [icon(KIND_ICONS[s.kind]), el('span', { text: t('phone.stepOf', { step: s.step + 1, steps: s.steps || '?' }) })] };
}

function stepTitle(s) {
  if (s.over) return t('tv.phone.albumSoon');
  if (!s.kind) return t('tv.phone.underWay');
  return t(`tv.phone.${s.kind}.title`);
}

// ---------------------------------------------------------------- the steps

export function renderPhoneSteps(watch) {
  const s = currentStatus(watch);
  const panel = $('#tv-phone');
  panel.dataset.kind = s.kind || (s.over ? 'over' : 'unknown');
  $('#tv-phone-steps').classList.toggle('many', s.kinds.length > STEPPER_NAMES_UNTIL);
  $('#tv-phone-steps').replaceChildren(...s.kinds.map((kind, i) => {
    const stateClass = s.step === null ? '' : i < s.step ? 'is-past' : i === s.step ? 'is-now' : '';
    return el('li', { className: ['phone-stepper-item', stateClass].filter(Boolean).join(' '), dataset: { step: String(i) } },
      el('span', { className: 'stepper-no', text: String(i + 1) }),
      icon(KIND_ICONS[kind]),
      el('span', { className: 'stepper-name', text: t(`tv.phone.kind.${kind}`) }));
  }));
  $('#tv-phone-kind').replaceChildren(icon(s.kind ? KIND_ICONS[s.kind] : s.over ? 'check' : 'eye'));
  $('#tv-phone-title').textContent = stepTitle(s);
  $('#tv-phone-sub').textContent = s.over ? '' : s.kind ? t(`tv.phone.${s.kind}.sub`) : t('tv.phone.underWaySub');
  const counted = s.step !== null && !s.over;
  show($('#tv-phone-count'), counted);
  $('#tv-phone-count').replaceChildren(el('b', { text: String(s.done) }), el('span', { text: `/${s.total}` }));
  $('#tv-phone-count').setAttribute('aria-label', t('phone.progress', { done: s.done, total: s.total }));
  $('#tv-phone-bar').style.setProperty('--done', String(counted && s.total ? s.done / s.total : s.over ? 1 : 0));
  renderPlayers(s);
}

function renderPlayers(s) {
  const list = $('#tv-phone-players');
  list.classList.toggle('roomy', s.rows.length <= ROOMY_UNTIL);
  list.classList.toggle('compact', s.rows.length >= COMPACT_FROM);
  list.classList.toggle('tiny', s.rows.length >= TINY_FROM);
  const busy = s.kind ? t(`tv.phone.${s.kind}.busy`) : '';
  list.replaceChildren(...s.rows.slice(0, PLAYERS_MAX).map((r) => {
    const name = playerName(r.id);
    const note = r.done ? t('phone.doneMark') : r.offline ? t('player.offline') : busy;
    return el('li', { className: ['phone-player', r.done && 'is-done', r.offline && 'offline'].filter(Boolean).join(' '), dataset: { id: r.id } },
      el('span', { className: 'phone-face' }, avatarNode(player(r.id)?.avatar, name, { size: 96 }),
        r.done ? el('span', { className: 'phone-check' }, icon('check', t('phone.doneMark'))) : null),
      el('span', { className: 'phone-name' }, el('bdi', { text: name })),
      el('span', { className: 'phone-note', text: note }));
  }));
  if (s.rows.length > PLAYERS_MAX) list.append(el('li', { className: 'phone-more', text: t('tv.morePlayers', { n: s.rows.length - PLAYERS_MAX }) }));
}

// ---------------------------------------------------------------- the album

/** Out of the album: the next album's first entry is drawn afresh (its key may be the same). */
export function clearAlbum() {
  const stage = $('#tv-album-show');
  if (!stage.dataset.key) return;
  stage.dataset.key = '';
  $('#tv-album').classList.remove('has-before');
  $('#tv-album-before').replaceChildren();
  $('#tv-album-main').replaceChildren();
  $('#tv-album-strip').replaceChildren();
}

export function renderAlbum() {
  const a = albumScreen(state.phone);
  const box = $('#tv-album');
  // the album not here (yet): the server sends it to a screen that arrives during it
  box.dataset.state = !a ? 'missing' : a.title ? 'title' : 'entry';
  show($('#tv-album-missing'), !a);
  show($('#tv-album-title'), Boolean(a?.title));
  show($('#tv-album-show'), Boolean(a && !a.title));
  show($('#tv-album-strip'), Boolean(a && !a.title));
  $('#tv-album-missing').textContent = a ? '' : t('album.hostShows');
  if (!a) return;
  if (a.title) {
    clearAlbum(); // the last chain's entries are not kept behind the title card
    renderTitleCard(a);
  } else {
    renderEntry(a);
  }
}

function renderTitleCard(a) {
  const name = playerName(a.owner);
  $('#tv-album-owner').replaceChildren(avatarNode(player(a.owner)?.avatar, name, { size: 192 }));
  $('#tv-album-name').replaceChildren(...isolated('album.title', { name }));
}

/** The newest entry large, the one it answers beside it (smaller), the chain so far under that. */
function renderEntry(a) {
  const key = `${a.chain}:${a.newest}:${locale()}`;
  const stage = $('#tv-album-show');
  if (stage.dataset.key === key) return; // drawn already: the pictures are not loaded again
  stage.dataset.key = key;
  stage.dataset.kind = a.main.kind;
  $('#tv-album').classList.toggle('has-before', Boolean(a.before));
  $('#tv-album-before').replaceChildren(...(a.before ? [entryNode(a.before, false)] : []));
  show($('#tv-album-before'), Boolean(a.before));
  $('#tv-album-main').replaceChildren(entryNode(a.main, true));
  renderStrip(a);
}

function byLine(e, big) {
  const name = playerName(e.by);
  return el('div', { className: 'entry-by' },
    avatarNode(player(e.by)?.avatar, name, { size: big ? 64 : 40 }),
    el('bdi', { className: 'entry-name', text: name }),
    el('span', { className: 'entry-verb', text: e.kind === 'drawing' ? t('album.drew') : t('album.wrote') }));
}

function entryNode(e, big) {
  const body = e.kind === 'drawing' ? drawingNode(e) : textNode(e);
  return el('div', { className: `tv-entry-card card-${e.kind}${big ? ' is-main' : ' is-before'}`, dataset: { by: e.by } }, byLine(e, big), body);
}

function textNode(e) {
  if (!e.text) return el('p', { className: 'entry-text entry-empty', text: t('album.emptyText') });
  return el('p', { className: `entry-text size-${textSize(e.text)}`, attrs: { dir: 'auto' }, text: e.text });
}

function drawingNode(e) {
  if (!e.drawing) return el('p', { className: 'entry-text entry-empty', text: t('album.emptyDrawing') });
  return el('figure', { className: 'entry-figure' },
    el('img', { className: 'entry-img', src: e.drawing.png, alt: t('album.drawingBy', { name: playerName(e.by) }), attrs: { width: 800, height: 600, decoding: 'async' } }));
}

/** The chain so far, small, then a numbered place for each entry still to come (nothing of it). */
function renderStrip(a) {
  const cards = a.entries.map((e, i) => {
    const name = playerName(e.by);
    let body;
    if (e.kind === 'drawing') {
      body = e.drawing
        ? el('img', { className: 'strip-img', src: e.drawing.png, alt: t('album.drawingBy', { name }), attrs: { width: 160, height: 120, decoding: 'async' } })
        : el('span', { className: 'strip-text entry-empty', text: t('album.emptyDrawing') });
    } else {
      body = el('span', { className: `strip-text${e.text ? '' : ' entry-empty'}`, attrs: { dir: 'auto' }, text: e.text || t('album.emptyText') });
    }
    return el('li', { className: `strip-item strip-${e.kind}${i === a.newest ? ' is-newest' : ''}`, dataset: { entry: String(i) } },
      el('span', { className: 'strip-by' }, avatarNode(player(e.by)?.avatar, name, { size: 28 }), el('bdi', { text: name })), body);
  });
  const pending = Array.from({ length: Math.max(0, a.total - a.entries.length) }, (_, j) => el('li', { className: 'strip-item strip-pending', attrs: { 'aria-hidden': 'true' } },
    el('span', { className: 'strip-no', text: String(a.entries.length + j + 1) })));
  const all = [...cards, ...pending];
  // the newest in view: the last STRIP_MAX places up to it
  const end = Math.max(STRIP_MAX, a.entries.length);
  $('#tv-album-strip').replaceChildren(...all.slice(Math.max(0, end - STRIP_MAX), end));
}
