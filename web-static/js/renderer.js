// Operation-log renderer (protocol section 5.2 semantics). Pure module: it paints
// into a Raster (RGBA buffer); the DOM layer copies dirty rectangles to a <canvas>.
//
// Semantics implemented:
// - BEGIN opens a stroke (drawing its first dot at once), POINTS extend it with
//   relative deltas, END closes it. BEGIN, FILL, UNDO and CLEAR while a stroke is
//   open end it first. POINTS/END without an open stroke are ignored.
// - PRESSURE_BEGIN and PRESSURE_POINTS (section 12.4) are BEGIN and POINTS with a
//   width factor p (1..255) per point: the stroke is width * p / 255 px wide there
//   (at least 1 px), tapering along each segment. A stroke may mix POINTS (p = 255)
//   and PRESSURE_POINTS; a stroke with no pressure is drawn exactly as before.
// - An eraser paints white.
// - FILL floods the 4-connected region of the pixel's exact colour.
// - UNDO removes the most recent stroke or fill still on the canvas (items wiped
//   by CLEAR are no longer on the canvas, so UNDO right after CLEAR does nothing).
// - CLEAR wipes to white.

import { OP, TOOL, MAX_PRESSURE } from './ops.js';
import { Raster } from './raster.js';

export const DEFAULT_W = 800;
export const DEFAULT_H = 600;

/** The radius of a stroke of `width` at a point of width factor p: width * p / 255, at least 1 px wide. */
export function pressureRadius(width, p) {
  return Math.max(1, (width * p) / MAX_PRESSURE) / 2;
}

export class CanvasModel {
  constructor(w = DEFAULT_W, h = DEFAULT_H) {
    this.reset(w, h);
  }

  /** White canvas, empty log; optionally a new size. */
  reset(w = this.w, h = this.h) {
    if (!this.raster || w !== this.w || h !== this.h) {
      this.w = w;
      this.h = h;
      this.raster = new Raster(w, h);
    } else {
      this.raster.clear();
    }
    /** Items currently on the canvas, oldest first: strokes and fills since the last CLEAR. */
    this.items = [];
    /** The open stroke (also the last entry of items) or null. */
    this.open = null;
  }

  get strokeOpen() {
    return this.open !== null;
  }

  /** Last absolute point of the open stroke, or null. */
  get lastPoint() {
    if (!this.open) return null;
    const p = this.open.points;
    return [p[p.length - 2], p[p.length - 1]];
  }

  applyAll(ops) {
    for (const op of ops) this.apply(op);
  }

  apply(op) {
    switch (op.type) {
      case OP.BEGIN:
      case OP.PRESSURE_BEGIN: {
        this.open = null;
        const eraser = op.tool === TOOL.ERASER;
        const stroke = {
          kind: 'stroke',
          r: eraser ? 255 : op.r,
          g: eraser ? 255 : op.g,
          b: eraser ? 255 : op.b,
          width: op.width,
          points: [op.x, op.y],
          /** Width factor per point (1..255), or null for a stroke without pressure. */
          pressures: op.type === OP.PRESSURE_BEGIN ? [op.p] : null,
        };
        this.items.push(stroke);
        this.open = stroke;
        this.paintSegment(stroke, 0);
        break;
      }
      case OP.POINTS:
      case OP.PRESSURE_POINTS: {
        const s = this.open;
        if (!s) return;
        const pressured = op.type === OP.PRESSURE_POINTS;
        if (pressured && !s.pressures) s.pressures = new Array(s.points.length / 2).fill(MAX_PRESSURE);
        let x = s.points[s.points.length - 2];
        let y = s.points[s.points.length - 1];
        for (let i = 0; i + 1 < op.deltas.length; i += 2) {
          x += op.deltas[i];
          y += op.deltas[i + 1];
          s.points.push(x, y);
          if (s.pressures) s.pressures.push(pressured ? op.pressures[i / 2] : MAX_PRESSURE);
          this.paintSegment(s, s.points.length / 2 - 1);
        }
        break;
      }
      case OP.END:
        this.open = null;
        break;
      case OP.FILL: {
        this.open = null;
        if (op.x < 0 || op.y < 0 || op.x >= this.w || op.y >= this.h) return;
        const fill = { kind: 'fill', r: op.r, g: op.g, b: op.b, x: op.x, y: op.y };
        this.items.push(fill);
        this.raster.floodFill(fill.x, fill.y, fill.r, fill.g, fill.b);
        break;
      }
      case OP.UNDO:
        this.open = null;
        if (this.items.length > 0) {
          this.items.pop();
          this.redraw();
        }
        break;
      case OP.CLEAR:
        this.open = null;
        this.items = [];
        this.raster.clear();
        break;
      default:
        break;
    }
  }

  /** Re-render every item still on the canvas onto white. */
  redraw() {
    this.raster.clear();
    for (const it of this.items) this.paintItem(it);
  }

  paintItem(it) {
    if (it.kind === 'fill') {
      this.raster.floodFill(it.x, it.y, it.r, it.g, it.b);
      return;
    }
    const n = it.points.length / 2;
    for (let i = 0; i < n; i++) this.paintSegment(it, i);
  }

  /** Paint point i of a stroke: the dot at its first point (i = 0), else the segment from point i - 1. */
  paintSegment(s, i) {
    const p = s.points;
    const j = i === 0 ? 0 : i - 1;
    if (!s.pressures) {
      this.raster.segment(p[2 * j], p[2 * j + 1], p[2 * i], p[2 * i + 1], s.width, s.r, s.g, s.b);
      return;
    }
    const ra = pressureRadius(s.width, s.pressures[j]);
    const rb = pressureRadius(s.width, s.pressures[i]);
    this.raster.taperedSegment(p[2 * j], p[2 * j + 1], ra, p[2 * i], p[2 * i + 1], rb, s.r, s.g, s.b);
  }
}
