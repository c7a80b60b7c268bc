// Software rasteriser on an RGBA pixel buffer. Pure module (no DOM): pixels are
// exact (no anti-aliasing), so exact-colour flood fill behaves predictably and
// every client renders the same operation log to the same pixels.
//
// Coordinates name pixels: point (x, y) is the centre of pixel (x, y). A stroke
// segment of width W covers every pixel whose centre lies within W/2 of the
// segment, so a polyline of such capsules is round-capped and round-joined.
// A pen-pressure segment has a radius at each end: it covers the convex hull of
// its two end discs (the discs plus the quadrilateral of their outer tangents), so
// a polyline of them tapers smoothly and its joints stay round.

export class Rect {
  constructor() { this.reset(); }
  reset() { this.x0 = Infinity; this.y0 = Infinity; this.x1 = -Infinity; this.y1 = -Infinity; }
  get empty() { return this.x1 < this.x0 || this.y1 < this.y0; }
  add(x0, y0, x1, y1) {
    if (x0 < this.x0) this.x0 = x0;
    if (y0 < this.y0) this.y0 = y0;
    if (x1 > this.x1) this.x1 = x1;
    if (y1 > this.y1) this.y1 = y1;
  }
}

export class Raster {
  constructor(w, h) {
    this.w = w;
    this.h = h;
    this.data = new Uint8ClampedArray(w * h * 4);
    this.dirty = new Rect();
    this.clear();
  }

  /** Paint everything white. */
  clear() {
    this.data.fill(255);
    this.dirty.add(0, 0, this.w - 1, this.h - 1);
  }

  getPixel(x, y) {
    const i = (y * this.w + x) * 4;
    return [this.data[i], this.data[i + 1], this.data[i + 2]];
  }

  /** Capsule from (ax, ay) to (bx, by), diameter `width`, solid colour. */
  segment(ax, ay, bx, by, width, r, g, b) {
    const rad = Math.max(width / 2, 0.5);
    const rad2 = rad * rad + 1e-9;
    const minX = Math.max(0, Math.floor(Math.min(ax, bx) - rad));
    const maxX = Math.min(this.w - 1, Math.ceil(Math.max(ax, bx) + rad));
    const minY = Math.max(0, Math.floor(Math.min(ay, by) - rad));
    const maxY = Math.min(this.h - 1, Math.ceil(Math.max(ay, by) + rad));
    if (minX > maxX || minY > maxY) return;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const data = this.data;
    const w = this.w;
    for (let y = minY; y <= maxY; y++) {
      let row = (y * w + minX) * 4;
      for (let x = minX; x <= maxX; x++, row += 4) {
        let px = x - ax;
        let py = y - ay;
        if (len2 > 0) {
          let t = (px * dx + py * dy) / len2;
          if (t < 0) t = 0; else if (t > 1) t = 1;
          px -= t * dx;
          py -= t * dy;
        }
        if (px * px + py * py <= rad2) {
          data[row] = r; data[row + 1] = g; data[row + 2] = b; data[row + 3] = 255;
        }
      }
    }
    this.dirty.add(minX, minY, maxX, maxY);
  }

  /**
   * Tapered segment from (ax, ay) with radius ra to (bx, by) with radius rb (radii of
   * at least 0.5): every pixel whose centre lies in the convex hull of the two discs.
   * With ra === rb this is exactly segment() of width 2 * ra.
   */
  taperedSegment(ax, ay, ra, bx, by, rb, r, g, b) {
    ra = Math.max(ra, 0.5);
    rb = Math.max(rb, 0.5);
    if (ra === rb) {
      this.segment(ax, ay, bx, by, 2 * ra, r, g, b);
      return;
    }
    const minX = Math.max(0, Math.floor(Math.min(ax - ra, bx - rb)));
    const maxX = Math.min(this.w - 1, Math.ceil(Math.max(ax + ra, bx + rb)));
    const minY = Math.max(0, Math.floor(Math.min(ay - ra, by - rb)));
    const maxY = Math.min(this.h - 1, Math.ceil(Math.max(ay + ra, by + rb)));
    if (minX > maxX || minY > maxY) return;
    const dx = bx - ax;
    const dy = by - ay;
    const len = Math.hypot(dx, dy);
    const ra2 = ra * ra + 1e-9;
    const rb2 = rb * rb + 1e-9;
    // one disc inside the other (or a zero-length segment): the hull is the larger disc
    const nested = len <= Math.abs(ra - rb);
    const ux = nested ? 0 : dx / len;
    const uy = nested ? 0 : dy / len;
    // the outer tangents' normal in (across, along) axis coordinates is (ca, sb)
    const sb = nested ? 0 : (ra - rb) / len;
    const ca = Math.sqrt(1 - sb * sb);
    const data = this.data;
    const w = this.w;
    for (let y = minY; y <= maxY; y++) {
      let row = (y * w + minX) * 4;
      for (let x = minX; x <= maxX; x++, row += 4) {
        const px = x - ax;
        const py = y - ay;
        let inside;
        if (nested) {
          const qx = x - bx, qy = y - by;
          inside = px * px + py * py <= ra2 || qx * qx + qy * qy <= rb2;
        } else {
          const along = px * ux + py * uy;
          const across = Math.abs(px * uy - py * ux);
          const k = ca * along - sb * across;
          if (k <= 0) inside = px * px + py * py <= ra2;
          else if (k >= ca * len) {
            const qx = x - bx, qy = y - by;
            inside = qx * qx + qy * qy <= rb2;
          } else inside = ca * across + sb * along <= ra + 1e-9;
        }
        if (inside) {
          data[row] = r; data[row + 1] = g; data[row + 2] = b; data[row + 3] = 255;
        }
      }
    }
    this.dirty.add(minX, minY, maxX, maxY);
  }

  /** 4-connected exact-colour scanline flood fill from (x, y); no recursion. */
  floodFill(x, y, r, g, b) {
    const { w, h, data } = this;
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    const start = (y * w + x) * 4;
    const tr = data[start], tg = data[start + 1], tb = data[start + 2], ta = data[start + 3];
    if (tr === r && tg === g && tb === b && ta === 255) return;
    const match = (i) => data[i] === tr && data[i + 1] === tg && data[i + 2] === tb && data[i + 3] === ta;
    const stack = [x, y];
    let minX = x, maxX = x, minY = y, maxY = y;
    while (stack.length) {
      const sy = stack.pop();
      const sx = stack.pop();
      let i = (sy * w + sx) * 4;
      if (!match(i)) continue;
      // walk left to the start of the span
      let lx = sx;
      while (lx > 0 && match(i - 4)) { lx--; i -= 4; }
      let rx = lx;
      let upOpen = false;
      let downOpen = false;
      for (; rx < w; rx++, i += 4) {
        if (!match(i)) break;
        data[i] = r; data[i + 1] = g; data[i + 2] = b; data[i + 3] = 255;
        if (sy > 0) {
          const up = i - w * 4;
          if (match(up)) {
            if (!upOpen) { stack.push(rx, sy - 1); upOpen = true; }
          } else upOpen = false;
        }
        if (sy < h - 1) {
          const down = i + w * 4;
          if (match(down)) {
            if (!downOpen) { stack.push(rx, sy + 1); downOpen = true; }
          } else downOpen = false;
        }
      }
      if (lx < minX) minX = lx;
      if (rx - 1 > maxX) maxX = rx - 1;
      if (sy < minY) minY = sy;
      if (sy > maxY) maxY = sy;
    }
    this.dirty.add(minX, minY, maxX, maxY);
  }
}
