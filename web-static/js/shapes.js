// Shape tools (issue 36): the straight line, the rectangle and the ellipse become an
// ordinary pen stroke (BEGIN + POINTS + END), so every client, the server's canvas core,
// the PNG renderer and the time-lapse draw them with no change. Pure module: the
// geometry (a drag's two corners -> integer points), the Shift constraint and the ops.

import { OP, TOOL, MAX_POINTS_PER_OP } from './ops.js';

export const SHAPE_TOOLS = Object.freeze(['line', 'rect', 'ellipse']);

/** True for the tools whose drag is previewed and sent as a whole on release. */
export function isShapeTool(tool) {
  return SHAPE_TOOLS.includes(tool);
}

/** Largest distance, in canvas pixels, between the true ellipse and its polyline. */
export const ELLIPSE_TOLERANCE = 0.25;
export const ELLIPSE_MIN_POINTS = 8;
export const ELLIPSE_MAX_POINTS = 720;

const sign = (n) => (n < 0 ? -1 : 1);

/**
 * The drag's end point with Shift held: a line turns to the nearest multiple of 45°
 * (horizontal, vertical or an exact diagonal), a rectangle to a square and an ellipse
 * to a circle, both as large as the longer side of the drag, from the start corner.
 * Integer in, integer out.
 */
export function constrain(tool, x0, y0, x1, y1) {
  const dx = x1 - x0;
  const dy = y1 - y0;
  if (dx === 0 && dy === 0) return [x1, y1];
  if (tool === 'line') {
    const octant = Math.round(Math.atan2(dy, dx) / (Math.PI / 4));
    if (octant % 4 === 0) return [x1, y0]; // 0° or 180°
    if (Math.abs(octant) === 2) return [x0, y1]; // 90° or 270°
    const d = Math.round((Math.abs(dx) + Math.abs(dy)) / 2);
    return [x0 + sign(dx) * d, y0 + sign(dy) * d];
  }
  const side = Math.max(Math.abs(dx), Math.abs(dy));
  return [x0 + sign(dx) * side, y0 + sign(dy) * side];
}

/**
 * How many points sample an ellipse of half-axes a and b so that no chord strays more
 * than ELLIPSE_TOLERANCE from the curve. With evenly spaced parameter angles the error
 * of a chord is about max(a, b) * step² / 8 (the samples bunch up where the curve bends
 * most), so step = sqrt(8 * tolerance / max(a, b)). A multiple of 4, so the four ends
 * of the axes are points (the shape stays symmetric).
 */
export function ellipsePointCount(a, b) {
  const r = Math.max(Math.abs(a), Math.abs(b));
  if (r <= 0) return ELLIPSE_MIN_POINTS;
  const n = Math.ceil((2 * Math.PI) / Math.sqrt((8 * ELLIPSE_TOLERANCE) / r));
  const clamped = Math.min(ELLIPSE_MAX_POINTS, Math.max(ELLIPSE_MIN_POINTS, n));
  return Math.ceil(clamped / 4) * 4;
}

/** Drop a point equal to the one before it (the protocol would draw nothing there). */
function dedupe(points) {
  const out = [];
  for (const p of points) {
    const q = out[out.length - 1];
    if (!q || q[0] !== p[0] || q[1] !== p[1]) out.push(p);
  }
  return out;
}

function ellipsePoints(x0, y0, x1, y1) {
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const a = Math.abs(x1 - x0) / 2;
  const b = Math.abs(y1 - y0) / 2;
  const n = ellipsePointCount(a, b);
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const t = (2 * Math.PI * i) / n;
    pts.push([Math.round(cx + a * Math.cos(t)), Math.round(cy + b * Math.sin(t))]);
  }
  pts[n] = pts[0]; // closed exactly, whatever the rounding
  return pts;
}

/**
 * The integer points of a shape dragged from (x0, y0) to (x1, y1): a line's two ends; a
 * rectangle's four corners, closed; an ellipse inscribed in the drag's box, closed.
 * A drag of zero size gives [] (nothing is drawn: a click with a shape tool is most
 * likely a slip, and the pen already draws dots).
 */
export function shapePoints(tool, x0, y0, x1, y1) {
  if (x0 === x1 && y0 === y1) return [];
  switch (tool) {
    case 'line':
      return [[x0, y0], [x1, y1]];
    case 'rect':
      return dedupe([[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]);
    case 'ellipse':
      return dedupe(ellipsePoints(x0, y0, x1, y1));
    default:
      return [];
  }
}

/**
 * The protocol ops of a polyline: BEGIN at the first point (pen, colour, width), POINTS
 * with the relative moves (split at the protocol's 1,024 points per op) and END. The
 * OpBatcher puts them in one frame (split only beyond its frame size).
 */
export function strokeOps(points, { color = [0, 0, 0], width = 8 } = {}) {
  if (points.length === 0) return [];
  const [r, g, b] = color;
  const [x, y] = points[0];
  const ops = [{ type: OP.BEGIN, tool: TOOL.PEN, r, g, b, width, x, y }];
  for (let i = 1; i < points.length; i += MAX_POINTS_PER_OP) {
    const deltas = [];
    for (let j = i; j < Math.min(points.length, i + MAX_POINTS_PER_OP); j++) {
      deltas.push(points[j][0] - points[j - 1][0], points[j][1] - points[j - 1][1]);
    }
    ops.push({ type: OP.POINTS, deltas });
  }
  ops.push({ type: OP.END });
  return ops;
}

/** The points of a shape drag from `from` to `to`, with Shift's constraint when `shift`. */
export function shapePath(tool, from, to, shift = false) {
  const [x1, y1] = shift ? constrain(tool, from[0], from[1], to[0], to[1]) : to;
  return shapePoints(tool, from[0], from[1], x1, y1);
}

/** The ops of a whole shape drag; [] for a zero-size drag. */
export function shapeOps(tool, from, to, { shift = false, color, width } = {}) {
  return strokeOps(shapePath(tool, from, to, shift), { color, width });
}
