// Operation-log renderer (protocol section 5.2 semantics). Pure module: it paints
// into a Raster (RGBA buffer); the DOM layer copies dirty rectangles to a <canvas>.
//
// Semantics implemented:
// - BEGIN opens a stroke (drawing its first dot at once), POINTS extend it with
//   relative deltas, END closes it. BEGIN, FILL, UNDO and CLEAR while a stroke is
//   open end it first. POINTS/END without an open stroke are ignored.
// - An eraser paints white.
// - FILL floods the 4-connected region of the pixel's exact colour.
// - UNDO removes the most recent stroke or fill still on the canvas (items wiped
//   by CLEAR are no longer on the canvas, so UNDO right after CLEAR does nothing).
// - CLEAR wipes to white.

import { OP, TOOL } from './ops.js';
import { Raster } from './raster.js';

export const DEFAULT_W = 800;
export const DEFAULT_H = 600;

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
      case OP.BEGIN: {
        this.open = null;
        const eraser = op.tool === TOOL.ERASER;
        const stroke = {
          kind: 'stroke',
          r: eraser ? 255 : op.r,
          g: eraser ? 255 : op.g,
          b: eraser ? 255 : op.b,
          width: op.width,
          points: [op.x, op.y],
        };
        this.items.push(stroke);
        this.open = stroke;
        this.raster.segment(op.x, op.y, op.x, op.y, stroke.width, stroke.r, stroke.g, stroke.b);
        break;
      }
      case OP.POINTS: {
        const s = this.open;
        if (!s) return;
        let x = s.points[s.points.length - 2];
        let y = s.points[s.points.length - 1];
        for (let i = 0; i + 1 < op.deltas.length; i += 2) {
          const nx = x + op.deltas[i];
          const ny = y + op.deltas[i + 1];
          this.raster.segment(x, y, nx, ny, s.width, s.r, s.g, s.b);
          s.points.push(nx, ny);
          x = nx;
          y = ny;
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
    const p = it.points;
    this.raster.segment(p[0], p[1], p[0], p[1], it.width, it.r, it.g, it.b);
    for (let i = 2; i + 1 < p.length; i += 2) {
      this.raster.segment(p[i - 2], p[i - 1], p[i], p[i + 1], it.width, it.r, it.g, it.b);
    }
  }
}
