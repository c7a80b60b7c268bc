// The overlays of a game: word choice, turn-end reveal, the game-over podium with this
// game's drawings, and the invite prompt.

import { $, el, show } from './dom.js';
import { t, tParts } from './i18n.js';
import { icon } from './icons.js';
import { avatarNode } from './avatar.js';
import { withPlaces, TURN_END_REASONS } from './util.js';
import { drawingCard, reportMenu, galleryListed, isDrawingId, isMyDrawing } from './drawing-card.js';
import { state, player, playerName, clearChoices, setInvite } from './store.js';
import { send } from './context.js';
import { renderStage } from './room-view.js';
import { botBadge } from './players-view.js';
import { codeRef } from './streamer.js';

export function renderChoices() {
  const box = $('#choose-words');
  box.replaceChildren(...(state.chooseWords || []).map((w, i) => el('button', {
    type: 'button',
    className: 'btn btn-choice word-choice',
    text: w,
    dataset: { index: String(i) },
    on: { click: () => {
      if (send({ t: 'choose', index: i })) {
        clearChoices();
        renderStage();
      }
    } },
  })));
}

function scoreRow(id, delta) {
  const d = Number(delta) || 0;
  return el('li', { className: d > 0 ? 'up' : '' },
    el('span', { className: 'who' }, avatarNode(player(id)?.avatar, playerName(id), { size: 22 }), el('span', { text: playerName(id) })),
    el('span', { className: 'delta', attrs: { dir: 'ltr' }, text: d > 0 ? `+${d}` : String(d) }),
  );
}

export function renderTurnEnd() {
  const msg = state.turnEndMsg;
  if (!msg) return;
  $('#turnend-word').textContent = String(msg.word ?? '');
  $('#turnend-word').dir = 'auto';
  $('#turnend-reason').textContent = TURN_END_REASONS[msg.reason] ? t(`reason.${msg.reason}`) : String(msg.reason ?? '');
  const ratings = $('#turnend-ratings');
  show(ratings, Boolean(msg.ratings));
  if (msg.ratings) ratings.replaceChildren(icon('like'), ` ${state.ratings.likes}   `, icon('dislike'), ` ${state.ratings.dislikes}`);
  const entries = Object.entries(msg.scores || {}).sort((a, b) => Number(b[1]) - Number(a[1]));
  const list = $('#turnend-scores');
  list.replaceChildren(...entries.map(([id, delta]) => scoreRow(id, delta)));
  if (entries.length === 0) list.append(el('li', { className: 'muted', text: t('room.nobodyScored') }));
  const report = $('#turnend-report');
  report.replaceChildren();
  const drawing = msg.drawing?.id;
  const drawer = state.turnEndDrawer ?? state.drawer;
  if (isDrawingId(drawing) && drawer !== state.meId && !isMyDrawing(drawing)) {
    report.append(reportMenu(t('report.drawing'), (reason) => send({ t: 'report', kind: 'drawing', drawing, reason })));
  }
}

function placeItem(r) {
  const name = r.name || playerName(r.id);
  return el('li', { className: `place place-${Math.min(r.place, 4)}`, dataset: { place: String(r.place), id: String(r.id ?? '') } },
    avatarNode(r.avatar ?? player(r.id)?.avatar, name, { size: r.place <= 3 ? 48 : 22 }),
    el('span', { className: 'place-no', text: `${r.place}.` }),
    el('span', { className: 'place-name', attrs: { dir: 'auto' }, text: name }),
    r.bot ? botBadge() : null,
    el('span', { className: 'place-score', text: t('player.points', { n: r.score }) }),
  );
}

export function renderGameEnd() {
  const msg = state.gameEndMsg;
  if (!msg) return;
  const ranking = withPlaces(msg.ranking);
  $('#podium').replaceChildren(...ranking.filter((r) => r.place <= 3).map(placeItem));
  $('#ranking').replaceChildren(...ranking.filter((r) => r.place > 3).map(placeItem));
  renderGameGallery();
}

/** Every turn's drawing of the game that just ended, under the podium. */
export function renderGameGallery() {
  const list = $('#game-gallery-list');
  list.replaceChildren(...state.gameEndDrawings.map((d) => {
    const mine = d.drawerId === state.meId || isMyDrawing(d.id);
    const onReport = mine ? undefined : (reason) => send({ t: 'report', kind: 'drawing', drawing: d.id, reason });
    return drawingCard(d, { onReport, size: 200 });
  }));
  const any = state.gameEndDrawings.length > 0;
  const open = any && state.gameGalleryOpen;
  show($('#game-gallery'), open);
  show($('#podium-view'), !open);
  const toggle = $('#gameend-drawings');
  show(toggle, any);
  toggle.setAttribute('aria-expanded', String(open));
  toggle.textContent = open ? t('gallery.showPodium') : t('gallery.showDrawings', { n: state.gameEndDrawings.length });
  $('#gallery-listed').checked = galleryListed();
}

export function showInvite(msg) {
  setInvite(msg);
  renderInvite();
  show($('#invite-prompt'), true);
  $('#invite-accept').focus();
}

export function renderInvite() {
  if (!state.invite) return;
  const name = typeof state.invite.from.name === 'string' && state.invite.from.name ? state.invite.from.name : t('invite.someone');
  $('#invite-avatar').replaceChildren(avatarNode(state.invite.from.avatar, name, { size: 40 }));
  // the code as the room's other codes show (dots in streamer mode)
  $('#invite-text').replaceChildren(...tParts('invite.text', { name, code: state.invite.code })
    .map((p) => (p.param === 'code' ? codeRef(p.text) : p.param ? el('bdi', { text: p.text }) : p.text)));
}

export function hideInvite() {
  setInvite(null);
  show($('#invite-prompt'), false);
}
