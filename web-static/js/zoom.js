// The board's zoom and pan on phones (issue 36). Pure module: a view is
// {s, x, y}: the board is scaled by s (1 = fit, up to MAX_ZOOM) and moved by (x, y),
// in fractions of the board's own box, so a content point (u, v) (fractions too) shows
// at (x + s * u, y + s * v). The board always covers its box (no white margin).

export const MAX_ZOOM = 4;
export const FIT = Object.freeze({ s: 1, x: 0, y: 0 });

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

/** The nearest legal view: 1 <= s <= max, and the board still covering its box. */
export function clampView(view, max = MAX_ZOOM) {
  const s = clamp(Number.isFinite(view.s) ? view.s : 1, 1, max);
  const x = clamp(Number.isFinite(view.x) ? view.x : 0, 1 - s, 0);
  const y = clamp(Number.isFinite(view.y) ? view.y : 0, 1 - s, 0);
  return { s, x, y };
}

/** True when the board is zoomed in (the "fit" button shows). */
export function isZoomed(view) {
  return view.s > 1.001;
}

/**
 * Two fingers: from the view `v0` when they landed with midpoint `m0` and distance
 * `d0`, to their midpoint `m1` and distance `d1` now. The scale follows the distance,
 * and the content point that was under the first midpoint stays under the fingers
 * (so moving both fingers pans). Midpoints are in fractions of the box, distances in
 * any one unit.
 */
export function pinchView(v0, m0, d0, m1, d1, max = MAX_ZOOM) {
  const ratio = d0 > 0 && d1 > 0 ? d1 / d0 : 1;
  const s = clamp(v0.s * ratio, 1, max);
  const u = (m0[0] - v0.x) / v0.s;
  const v = (m0[1] - v0.y) / v0.s;
  return clampView({ s, x: m1[0] - u * s, y: m1[1] - v * s }, max);
}

/** Move the zoomed board by (dx, dy) fractions of its box. */
export function panView(view, dx, dy, max = MAX_ZOOM) {
  return clampView({ s: view.s, x: view.x + dx, y: view.y + dy }, max);
}

/** The content point (fractions) shown at (px, py) (fractions of the box). */
export function contentAt(view, px, py) {
  return [(px - view.x) / view.s, (py - view.y) / view.s];
}

/** The CSS transform of a view (transform-origin at the top left corner). */
export function viewTransform(view) {
  if (!isZoomed(view)) return '';
  const pct = (n) => `${(n * 100).toFixed(4)}%`;
  return `translate(${pct(view.x)}, ${pct(view.y)}) scale(${view.s.toFixed(4)})`;
}
