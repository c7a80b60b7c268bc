// Avatars: four enumerated parts (colour 0..11, eyes 0..5, mouth 0..5, accessory 0..6,
// 0 = none), drawn as SVG from the indices alone. Nothing a player sends is ever used
// as markup: an avatar is four small integers, checked here as the server checks them.

const SVG_NS = 'http://www.w3.org/2000/svg';
export const AVATAR_KEY = 'drawserver.avatar';

export const AVATAR_PARTS = Object.freeze({ color: 12, eyes: 6, mouth: 6, accessory: 7 });

export const AVATAR_COLORS = Object.freeze([
  '#f87171', '#fb923c', '#facc15', '#a3e635', '#34d399', '#22d3ee',
  '#60a5fa', '#818cf8', '#c084fc', '#f472b6', '#d6a77a', '#94a3b8',
]);

/** A valid avatar object, or null (missing, wrong type, out of range). */
export function validAvatar(a) {
  if (!a || typeof a !== 'object') return null;
  const out = {};
  for (const [part, count] of Object.entries(AVATAR_PARTS)) {
    const v = a[part];
    if (!Number.isInteger(v) || v < 0 || v >= count) return null;
    out[part] = v;
  }
  return out;
}

export function randomAvatar(random = Math.random) {
  const out = {};
  for (const [part, count] of Object.entries(AVATAR_PARTS)) out[part] = Math.floor(random() * count) % count;
  return out;
}

/** Step one part forwards (+1) or backwards (-1), wrapping around. */
export function stepAvatar(a, part, delta) {
  const count = AVATAR_PARTS[part];
  return { ...a, [part]: (((a[part] + delta) % count) + count) % count };
}

export function loadAvatar() {
  try {
    return validAvatar(JSON.parse(localStorage.getItem(AVATAR_KEY) || 'null'));
  } catch {
    return null;
  }
}

export function saveAvatar(a) {
  try {
    localStorage.setItem(AVATAR_KEY, JSON.stringify(a));
  } catch {
    /* private mode: the avatar lasts for this page only */
  }
}

function node(tag, attrs) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

const INK = '#1f1b2e';

// Eyes at (12, 15) and (20, 15) in a 32 x 32 box.
const EYES = [
  () => [node('circle', { cx: 12, cy: 15, r: 1.8, fill: INK }), node('circle', { cx: 20, cy: 15, r: 1.8, fill: INK })],
  () => [12, 20].flatMap((x) => [node('circle', { cx: x, cy: 15, r: 3.2, fill: '#fff' }), node('circle', { cx: x + 0.6, cy: 15.4, r: 1.6, fill: INK })]),
  () => [node('path', { d: 'M9.5 16q2.5-3 5 0M17.5 16q2.5-3 5 0', stroke: INK, 'stroke-width': 1.6, fill: 'none', 'stroke-linecap': 'round' })],
  () => [node('path', { d: 'M9.5 15h5M17.5 15h5', stroke: INK, 'stroke-width': 1.6, 'stroke-linecap': 'round' })],
  () => [node('circle', { cx: 12, cy: 15, r: 1.8, fill: INK }), node('path', { d: 'M17.5 15.5q2.5-2 5 0', stroke: INK, 'stroke-width': 1.6, fill: 'none', 'stroke-linecap': 'round' })],
  () => [node('path', { d: 'M8.5 12.5l6 2M23.5 12.5l-6 2', stroke: INK, 'stroke-width': 1.4, 'stroke-linecap': 'round' }),
    node('circle', { cx: 12, cy: 16.3, r: 1.6, fill: INK }), node('circle', { cx: 20, cy: 16.3, r: 1.6, fill: INK })],
];

const MOUTHS = [
  () => [node('path', { d: 'M11 20.5q5 4.5 10 0', stroke: INK, 'stroke-width': 1.7, fill: 'none', 'stroke-linecap': 'round' })],
  () => [node('path', { d: 'M10.5 20h11q-.5 5.5-5.5 5.5T10.5 20z', fill: INK }), node('path', { d: 'M13 23.6q3 1.8 6 0', stroke: '#f87171', 'stroke-width': 1.6, fill: 'none' })],
  () => [node('path', { d: 'M12 22h8', stroke: INK, 'stroke-width': 1.7, 'stroke-linecap': 'round' })],
  () => [node('ellipse', { cx: 16, cy: 22.5, rx: 2.3, ry: 2.8, fill: INK })],
  () => [node('path', { d: 'M11 20.5q5 4 10 0', stroke: INK, 'stroke-width': 1.7, fill: 'none', 'stroke-linecap': 'round' }), node('path', { d: 'M15 22.3h3.4v2a1.7 1.7 0 0 1-3.4 0z', fill: '#f472b6' })],
  () => [node('path', { d: 'M12 22.5q4 1 8-2', stroke: INK, 'stroke-width': 1.7, fill: 'none', 'stroke-linecap': 'round' })],
];

const ACCESSORIES = [
  () => [],
  () => [node('path', { d: 'M10 6.5L16 -1l6 7.5z', fill: '#6d5dfc', stroke: '#fff', 'stroke-width': 0.8 }), node('circle', { cx: 16, cy: -1, r: 1.6, fill: '#facc15' })],
  () => [node('path', { d: 'M9 7.5l1-6 3.5 3L16 0l2.5 4.5L22 1.5l1 6z', fill: '#facc15', stroke: '#b45309', 'stroke-width': 0.8, 'stroke-linejoin': 'round' })],
  () => [node('path', { d: 'M16 4.5l-5-3v6zM16 4.5l5-3v6z', fill: '#ec4899' }), node('circle', { cx: 16, cy: 4.5, r: 1.4, fill: '#be185d' })],
  () => [node('path', { d: 'M5.5 17a10.5 11 0 0 1 21 0', stroke: '#334155', 'stroke-width': 2, fill: 'none' }),
    node('rect', { x: 3, y: 14, width: 4, height: 7, rx: 1.8, fill: '#334155' }), node('rect', { x: 25, y: 14, width: 4, height: 7, rx: 1.8, fill: '#334155' })],
  () => [node('path', { d: 'M6.5 10a9.5 8 0 0 1 19 0z', fill: '#2563eb' }), node('path', { d: 'M16 10h12a1.5 1.5 0 0 1 0 3H16z', fill: '#1d4ed8' })],
  () => [node('circle', { cx: 12, cy: 15, r: 3.8, fill: 'none', stroke: INK, 'stroke-width': 1.3 }), node('circle', { cx: 20, cy: 15, r: 3.8, fill: 'none', stroke: INK, 'stroke-width': 1.3 }),
    node('path', { d: 'M15.8 15h.4M5 14l3.2.5M27 14l-3.2.5', stroke: INK, 'stroke-width': 1.3, 'stroke-linecap': 'round' })],
];

/**
 * An <svg> face for a valid avatar, or an initial on a coloured disc when there is
 * none (an older server, or a bad value). `label` makes it an image with a name.
 */
export function avatarNode(avatar, name = '', { size = 32, label } = {}) {
  const a = validAvatar(avatar);
  const svg = node('svg', { viewBox: '0 -3 32 35', width: size, height: size, class: a ? 'avatar avatar-svg' : 'avatar avatar-initials' });
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  if (!a) {
    svg.append(node('circle', { cx: 16, cy: 16, r: 15, fill: '#6d5dfc' }));
    const text = node('text', { x: 16, y: 21.5, 'text-anchor': 'middle', 'font-size': 15, 'font-weight': 700, fill: '#fff' });
    text.textContent = ([...String(name).trim()][0] || '?').toUpperCase();
    svg.append(text);
    svg.dataset.avatar = 'initials';
    return svg;
  }
  svg.dataset.avatar = `${a.color}-${a.eyes}-${a.mouth}-${a.accessory}`;
  svg.append(node('circle', { cx: 16, cy: 17, r: 14, fill: AVATAR_COLORS[a.color], stroke: 'rgb(0 0 0 / 15%)', 'stroke-width': 1 }));
  for (const part of [...EYES[a.eyes](), ...MOUTHS[a.mouth](), ...ACCESSORIES[a.accessory]()]) svg.append(part);
  return svg;
}
