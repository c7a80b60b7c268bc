// The drawing board: a <canvas> showing a CanvasModel, plus the drawer's pointer
// input (Pointer Events with coalesced events), which is applied locally at once
// and queued in an OpBatcher that sends one binary frame per 16..33 ms batch.

import { OP, TOOL, OpBatcher, decodeOps, OpsError } from './ops.js';
import { CanvasModel, DEFAULT_W, DEFAULT_H } from './renderer.js';
import { toLogical } from './util.js';

export class Board {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(bytes: Uint8Array) => boolean} sendBinary
   */
  constructor(canvas, sendBinary) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.model = new CanvasModel(DEFAULT_W, DEFAULT_H);
    this.batcher = new OpBatcher((bytes) => sendBinary(bytes), { intervalMs: 20 });
    this.enabled = false;
    this.tool = 'pen';
    this.color = [0, 0, 0];
    this.width = 8;
    this.activePointer = null;
    this.last = null;
    this.flushScheduled = false;
    this.imageData = null;
    this.onLocalOp = null;
    this.syncSize();
    this.bindPointer();
  }

  syncSize() {
    const { w, h } = this.model;
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
    this.canvas.style.aspectRatio = `${w} / ${h}`;
    this.imageData = new ImageData(this.model.raster.data, w, h);
    this.model.raster.dirty.add(0, 0, w - 1, h - 1);
    this.scheduleFlush();
  }

  /** White canvas, empty log (start of a turn); optionally a new logical size. */
  reset(w, h) {
    const nw = Number.isInteger(w) && w > 0 ? w : this.model.w;
    const nh = Number.isInteger(h) && h > 0 ? h : this.model.h;
    this.endLocalStroke(false);
    this.batcher.reset();
    const resized = nw !== this.model.w || nh !== this.model.h;
    this.model.reset(nw, nh);
    if (resized) this.syncSize();
    this.scheduleFlush();
  }

  /** Adopt a logical size from a room message without wiping unless it changed. */
  ensureSize(w, h) {
    if (Number.isInteger(w) && Number.isInteger(h) && w > 0 && h > 0 && (w !== this.model.w || h !== this.model.h)) {
      this.reset(w, h);
    }
  }

  /** Apply a binary frame received from the server (relay or compacted log). */
  applyFrame(bytes) {
    let ops;
    try {
      ops = decodeOps(bytes);
    } catch (e) {
      if (e instanceof OpsError) {
        console.warn('ignoring invalid drawing frame:', e.message);
        return;
      }
      throw e;
    }
    this.model.applyAll(ops);
    this.scheduleFlush();
  }

  scheduleFlush() {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      this.flushScheduled = false;
      this.flush();
    };
    requestAnimationFrame(run);
    setTimeout(run, 50); // background tabs do not run animation frames
  }

  /** Copy the dirty rectangle of the model to the visible canvas. */
  flush() {
    const d = this.model.raster.dirty;
    if (d.empty) return;
    if (this.imageData.data !== this.model.raster.data) {
      this.imageData = new ImageData(this.model.raster.data, this.model.w, this.model.h);
    }
    this.ctx.putImageData(this.imageData, 0, 0, d.x0, d.y0, d.x1 - d.x0 + 1, d.y1 - d.y0 + 1);
    d.reset();
  }

  setEnabled(on) {
    on = Boolean(on);
    if (this.enabled === on) return;
    this.enabled = on;
    if (!on) {
      this.endLocalStroke(true);
      this.batcher.flush();
    }
    this.canvas.classList.toggle('can-draw', on);
  }

  /** Run a local operation: draw at once, queue it for the server. */
  local(op) {
    this.model.apply(op);
    this.batcher.push(op);
    this.scheduleFlush();
    if (this.onLocalOp) this.onLocalOp(op);
  }

  undo() {
    if (!this.enabled) return;
    this.endLocalStroke(false);
    this.local({ type: OP.UNDO });
  }

  clear() {
    if (!this.enabled) return;
    this.endLocalStroke(false);
    this.local({ type: OP.CLEAR });
  }

  endLocalStroke(send) {
    if (this.activePointer === null) return;
    const id = this.activePointer;
    this.activePointer = null;
    this.last = null;
    try {
      if (this.canvas.hasPointerCapture?.(id)) this.canvas.releasePointerCapture(id);
    } catch {
      /* synthetic pointers have no capture */
    }
    if (send && this.model.strokeOpen) this.local({ type: OP.END });
  }

  point(ev) {
    return toLogical(ev.clientX, ev.clientY, this.canvas.getBoundingClientRect(), this.model.w, this.model.h);
  }

  bindPointer() {
    const c = this.canvas;
    c.addEventListener('pointerdown', (ev) => {
      if (!this.enabled || this.activePointer !== null) return;
      if (ev.pointerType === 'mouse' && ev.button !== 0) return;
      ev.preventDefault();
      const [x, y] = this.point(ev);
      if (this.tool === 'fill') {
        if (x >= 0 && y >= 0 && x < this.model.w && y < this.model.h) {
          const [r, g, b] = this.color;
          this.local({ type: OP.FILL, r, g, b, x, y });
        }
        return;
      }
      try {
        c.setPointerCapture(ev.pointerId);
      } catch {
        /* synthetic events cannot be captured */
      }
      this.activePointer = ev.pointerId;
      this.last = [x, y];
      const eraser = this.tool === 'eraser';
      const [r, g, b] = eraser ? [255, 255, 255] : this.color;
      this.local({ type: OP.BEGIN, tool: eraser ? TOOL.ERASER : TOOL.PEN, r, g, b, width: this.width, x, y });
    });
    c.addEventListener('pointermove', (ev) => {
      if (ev.pointerId !== this.activePointer || !this.last) return;
      ev.preventDefault();
      let events = typeof ev.getCoalescedEvents === 'function' ? ev.getCoalescedEvents() : [];
      if (!events || events.length === 0) events = [ev];
      const deltas = [];
      let [lx, ly] = this.last;
      for (const e of events) {
        const [x, y] = this.point(e);
        if (x === lx && y === ly) continue;
        deltas.push(x - lx, y - ly);
        lx = x;
        ly = y;
      }
      if (deltas.length === 0) return;
      this.last = [lx, ly];
      this.local({ type: OP.POINTS, deltas });
    });
    const finish = (ev) => {
      if (ev.pointerId !== this.activePointer) return;
      this.endLocalStroke(true);
    };
    c.addEventListener('pointerup', finish);
    c.addEventListener('pointercancel', finish);
    c.addEventListener('lostpointercapture', finish);
    c.addEventListener('contextmenu', (ev) => {
      if (this.enabled) ev.preventDefault();
    });
  }

  /** Logical-coordinate pixel read (used by tests and tooling). */
  pixel(x, y) {
    return this.model.raster.getPixel(x, y);
  }
}
