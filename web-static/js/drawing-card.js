// Drawing cards (the end-of-game gallery and /gallery) and the report menu. A card shows
// the finished PNG; its play button swaps in the APNG time-lapse (the browser animates
// it), and its links download both. Text goes in with textContent only.

import { el } from './dom.js';
import { icon } from './icons.js';
import { t } from './i18n.js';

/** The reasons the server accepts for `report` (docs/PROTOCOL.md section 10). */
export const REPORT_REASONS = Object.freeze(['offensive', 'sexual', 'hateful', 'spam', 'reveals_word', 'other']);

export const GALLERY_LISTED_KEY = 'drawserver.galleryListed';

export const MY_DRAWINGS_KEY = 'drawserver.myDrawings';
const MY_DRAWINGS_MAX = 500;

/** The ids of the drawings this browser drew (newest last), so none offers "Report". */
export function myDrawings() {
  try {
    const list = JSON.parse(localStorage.getItem(MY_DRAWINGS_KEY) || '[]');
    return Array.isArray(list) ? list.filter(isDrawingId) : [];
  } catch {
    return [];
  }
}

export function rememberMyDrawing(id) {
  if (!isDrawingId(id)) return;
  const list = myDrawings().filter((x) => x !== id);
  list.push(id);
  try {
    localStorage.setItem(MY_DRAWINGS_KEY, JSON.stringify(list.slice(-MY_DRAWINGS_MAX)));
  } catch {
    /* storage full or off: the server still refuses the report */
  }
}

export function isMyDrawing(id) {
  return myDrawings().includes(id);
}

/** Whether this player's drawings from public rooms may be listed (remembered; default yes). */
export function galleryListed() {
  try {
    return localStorage.getItem(GALLERY_LISTED_KEY) !== 'false';
  } catch {
    return true;
  }
}

export function rememberGalleryListed(listed) {
  try {
    localStorage.setItem(GALLERY_LISTED_KEY, String(Boolean(listed)));
  } catch {
    /* private mode: the choice lasts this page only */
  }
}

/** A drawing id as the server hands them out (22 URL-safe base64 characters). */
export function isDrawingId(id) {
  return typeof id === 'string' && /^[A-Za-z0-9_-]{22}$/.test(id);
}

/**
 * A <details> menu of report reasons; `onPick(reason)` is called with the one chosen, then
 * the menu closes. `label` names what is reported, for screen readers.
 */
export function reportMenu(label, onPick) {
  const menu = el('details', { className: 'report-menu' },
    el('summary', { className: 'btn btn-ghost btn-sm', attrs: { 'aria-label': label, title: label } }, icon('flag'), el('span', { className: 'report-label', text: t('report.action') })),
  );
  // The reasons are built when the menu opens (in the language of that moment), so a
  // chat of 300 lines does not carry 1,800 buttons.
  menu.addEventListener('toggle', () => {
    menu.querySelector('.report-reasons')?.remove();
    if (!menu.open) return;
    const list = el('div', { className: 'report-reasons', attrs: { role: 'group', 'aria-label': t('report.why') } });
    for (const reason of REPORT_REASONS) {
      list.append(el('button', {
        type: 'button',
        className: 'btn btn-sm',
        dataset: { reason },
        text: t(`report.reason.${reason}`),
        on: { click: () => { menu.open = false; onPick(reason); } },
      }));
    }
    menu.append(list);
  });
  return menu;
}

/**
 * One drawing: `d` = {id, word, drawer, likes, dislikes}. `onReport(reason)` adds a report
 * menu (left out when absent, e.g. for the player's own drawing).
 */
export function drawingCard(d, { onReport, size = 240 } = {}) {
  const png = `/d/${d.id}.png`;
  const apng = `/d/${d.id}.apng`;
  const still = `${png}?max=${size}`;
  const img = el('img', {
    className: 'drawing-img',
    attrs: { src: still, alt: t('gallery.drawingOf', { word: d.word, name: d.drawer }), loading: 'lazy', width: String(size), height: String(Math.round(size * 0.75)) },
  });
  const play = el('button', {
    type: 'button',
    className: 'btn btn-ghost btn-sm drawing-play',
    attrs: { 'aria-pressed': 'false' },
    on: { click: () => {
      const playing = play.getAttribute('aria-pressed') === 'true';
      // A new URL each time restarts the animation from its first frame.
      img.src = playing ? still : `${apng}?max=${size}`;
      play.setAttribute('aria-pressed', String(!playing));
      // the icon says what a click does now: ▷ starts the time-lapse, ■ stops it
      play.firstChild.replaceWith(icon(playing ? 'play' : 'stop'));
      play.lastChild.textContent = playing ? t('gallery.play') : t('gallery.stop');
    } },
  }, icon('play'), el('span', { text: t('gallery.play') }));
  const card = el('li', { className: 'drawing-card', dataset: { id: d.id } },
    el('div', { className: 'drawing-frame' }, img),
    el('div', { className: 'drawing-meta' },
      el('strong', { className: 'drawing-word', attrs: { dir: 'auto' }, text: String(d.word ?? '') }),
      el('span', { className: 'drawing-by', attrs: { dir: 'auto' }, text: t('gallery.by', { name: String(d.drawer ?? '?') }) }),
      el('span', { className: 'drawing-ratings', attrs: { dir: 'ltr' } }, icon('like'), ` ${Number(d.likes) || 0}  `, icon('dislike'), ` ${Number(d.dislikes) || 0}`),
    ),
    el('div', { className: 'drawing-actions' },
      play,
      el('a', { className: 'btn btn-ghost btn-sm drawing-png', attrs: { href: png, download: `${d.word || 'drawing'}.png` } }, icon('download'), ' PNG'),
      el('a', { className: 'btn btn-ghost btn-sm drawing-apng', attrs: { href: apng, download: `${d.word || 'drawing'}.apng` } }, icon('download'), ' APNG'),
    ),
  );
  if (onReport) card.querySelector('.drawing-actions').append(reportMenu(t('report.drawing'), onReport));
  return card;
}
