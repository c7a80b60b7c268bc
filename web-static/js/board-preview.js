// The drawer's local preview: a transparent <canvas> over the board that shows what is
// not sent yet (a shape while it is dragged, the first moments of a touch stroke). It
// paints with the same rasteriser as the board, so the preview is pixel for pixel the
// ink that the release commits: nothing jumps when it is sent.

import { Raster } from './raster.js';
import { pressureRadius } from './renderer.js';
import { MAX_PRESSURE } from './ops.js';

export class PreviewLayer {
  /** @param {HTMLCanvasElement | null} canvas (none: previews are simply not shown) */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas ? canvas.getContext('2d') : null;
    this.raster = null;
    this.image = null;
    /** The painted area [x0, y0, x1, y1] (inclusive) or null when empty. */
    this.box = null;
  }

  /** Match the board's logical size (and forget any preview). */
  resize(w, h) {
    if (!this.canvas) return;
    if (this.raster && this.raster.w === w && this.raster.h === h) {
      this.clear();
      return;
    }
    this.canvas.width = w;
    this.canvas.height = h;
    this.raster = new Raster(w, h);
    this.raster.data.fill(0);
    this.image = new ImageData(this.raster.data, w, h);
    this.box = null;
  }

  /**
   * Replace the preview with a polyline (one point: a dot). Points are [x, y] or
   * [x, y, p] with a pen-pressure width factor p (null: none).
   */
  show(points, width, [r, g, b]) {
    if (!this.raster) return;
    const old = this.box;
    this.wipe(old);
    this.box = null;
    if (points.length > 0) this.paint(points, width, r, g, b);
    this.put(union(old, this.box));
  }

  /** Add one segment from point a to point b to the preview (a touch stroke that is not sent yet). */
  extend(a, b, width, [red, green, blue]) {
    if (!this.raster) return;
    this.paint([a, b], width, red, green, blue);
    this.put(this.box);
  }

  clear() {
    if (!this.raster || !this.box) return;
    const old = this.box;
    this.wipe(old);
    this.box = null;
    this.put(old);
  }

  paint(points, width, r, g, b) {
    const d = this.raster.dirty;
    d.reset();
    // the same pixels as the board's CanvasModel: without pressure a capsule of the
    // width; with it (at either end) tapered, a point without p counting as 255
    for (let i = 0; i < points.length; i++) {
      const [ax, ay, pa] = points[Math.max(0, i - 1)];
      const [bx, by, pb] = points[i];
      if (pa == null && pb == null) this.raster.segment(ax, ay, bx, by, width, r, g, b);
      else {
        const ra = pressureRadius(width, pa ?? MAX_PRESSURE);
        this.raster.taperedSegment(ax, ay, ra, bx, by, pressureRadius(width, pb ?? MAX_PRESSURE), r, g, b);
      }
    }
    if (!d.empty) this.box = union(this.box, [d.x0, d.y0, d.x1, d.y1]);
  }

  /** Make a box of the preview transparent again. */
  wipe(box) {
    if (!box) return;
    const [x0, y0, x1, y1] = box;
    const { w, data } = this.raster;
    for (let y = y0; y <= y1; y++) data.fill(0, (y * w + x0) * 4, (y * w + x1 + 1) * 4);
  }

  put(box) {
    if (!box) return;
    const [x0, y0, x1, y1] = box;
    this.ctx.putImageData(this.image, 0, 0, x0, y0, x1 - x0 + 1, y1 - y0 + 1);
  }
}

function union(a, b) {
  if (!a) return b;
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}
