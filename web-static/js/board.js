// The drawing board: a <canvas> showing a CanvasModel, plus the drawer's pointer
// input (Pointer Events with coalesced events), which is applied locally at once
// and queued in an OpBatcher that sends one binary frame per 16..33 ms batch.
// Shape tools (line, rectangle, ellipse) are previewed while dragged and sent as one
// ordinary stroke on release (shapes.js). A pen or finger that reports a varying
// pressure draws pressure strokes (PRESSURE_BEGIN/PRESSURE_POINTS, pressure.js); a
// mouse draws BEGIN/POINTS as before. On touch screens two fingers zoom and pan
// the board (board-zoom.js) and never draw: see touchDown().

import { OP, TOOL, OpBatcher, decodeOps, OpsError } from './ops.js';
import { CanvasModel, DEFAULT_W, DEFAULT_H } from './renderer.js';
import { toLogical } from './util.js';
import { isShapeTool, shapePath, strokeOps } from './shapes.js';
import { PreviewLayer } from './board-preview.js';
import { BoardZoom } from './board-zoom.js';
import { PressureSense } from './pressure.js';

/** How long a one-finger stroke is held back before it is sent (see touchDown). */
export const TOUCH_HOLD_MS = 150;
/** A touch that moved less than this (CSS px) is a tap. */
const TAP_SLOP = 12;
/** Two taps within this time (ms) are a double tap. */
const DOUBLE_TAP_MS = 350;

export class Board {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(bytes: Uint8Array) => boolean} sendBinary
   * @param {{preview?: HTMLCanvasElement|null, zoom?: object|null}} [parts] the preview
   *   canvas over the board and the zoom's elements ({frame, view, button, label})
   */
  constructor(canvas, sendBinary, { preview = null, zoom = null } = {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.model = new CanvasModel(DEFAULT_W, DEFAULT_H);
    this.batcher = new OpBatcher((bytes) => sendBinary(bytes), { intervalMs: 20 });
    this.enabled = false;
    this.tool = 'pen';
    this.color = [0, 0, 0];
    this.width = 8;
    /** Which pointers draw with pressure (`pressure.enabled`: the toolbar's switch). */
    this.pressure = new PressureSense(() => this.onPressureFound?.());
    /** Called when a pen or finger first shows pressure (the toolbar shows its switch). */
    this.onPressureFound = null;
    /** What the pointer that is down does: {id, mode: stroke|held|shape|fill|look, ...} or null. */
    this.drag = null;
    /** Fingers on the board: pointerId -> {x, y} (client px). */
    this.touches = new Map();
    this.pinching = false;
    /** After a pinch, until every finger is up: the last finger does nothing. */
    this.touchLocked = false;
    this.lastTap = null;
    this.shift = false;
    this.flushScheduled = false;
    this.imageData = null;
    this.onLocalOp = null;
    /** Called when the zoom changes (the toolbar resizes the brush cursor). */
    this.onViewChange = null;
    this.preview = new PreviewLayer(preview);
    this.zoom = zoom ? new BoardZoom(zoom, () => this.onViewChange?.()) : null;
    this.syncSize();
    this.bindPointer();
    this.bindKeys();
  }

  syncSize() {
    const { w, h } = this.model;
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
    this.canvas.style.aspectRatio = `${w} / ${h}`;
    this.imageData = new ImageData(this.model.raster.data, w, h);
    this.model.raster.dirty.add(0, 0, w - 1, h - 1);
    this.preview.resize(w, h);
    this.scheduleFlush();
  }

  /** White canvas, empty log (start of a turn); optionally a new logical size. */
  reset(w, h) {
    const nw = Number.isInteger(w) && w > 0 ? w : this.model.w;
    const nh = Number.isInteger(h) && h > 0 ? h : this.model.h;
    this.abortDrag({ send: false });
    this.touches.clear();
    this.pinching = false;
    this.touchLocked = false;
    this.zoom?.reset();
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
      this.abortDrag({ send: true });
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
    this.abortDrag({ send: false });
    this.local({ type: OP.UNDO });
  }

  clear() {
    if (!this.enabled) return;
    this.abortDrag({ send: false });
    this.local({ type: OP.CLEAR });
  }

  /** The pointer id of the current drag (drawing, a shape, a held touch), or null. */
  get activePointer() {
    return this.drag ? this.drag.id : null;
  }

  point(ev) {
    return toLogical(ev.clientX, ev.clientY, this.canvas.getBoundingClientRect(), this.model.w, this.model.h);
  }

  /** The colour a pen or eraser stroke paints with now. */
  inkColor() {
    return this.tool === 'eraser' ? [255, 255, 255] : this.color;
  }

  capture(id) {
    try {
      this.canvas.setPointerCapture(id);
    } catch {
      /* synthetic events cannot be captured */
    }
  }

  release(id) {
    try {
      if (this.canvas.hasPointerCapture?.(id)) this.canvas.releasePointerCapture(id);
    } catch {
      /* synthetic pointers have no capture */
    }
  }

  bindPointer() {
    const c = this.canvas;
    c.addEventListener('pointerdown', (ev) => this.onDown(ev));
    c.addEventListener('pointermove', (ev) => this.onMove(ev));
    c.addEventListener('pointerup', (ev) => this.onUp(ev, true));
    c.addEventListener('pointercancel', (ev) => this.onUp(ev, false));
    c.addEventListener('lostpointercapture', (ev) => {
      if (this.drag && this.drag.id === ev.pointerId && !this.touches.has(ev.pointerId)) this.finishDrag(ev);
    });
    c.addEventListener('contextmenu', (ev) => {
      if (this.enabled) ev.preventDefault();
    });
  }

  /** Shift turns a shape's preview live; Escape drops a shape or a held touch stroke. */
  bindKeys() {
    const onKey = (ev) => {
      const d = this.drag;
      if (!d) return;
      if (ev.key === 'Shift' && d.mode === 'shape') {
        this.shift = ev.type === 'keydown';
        this.showShape();
      } else if (ev.key === 'Escape' && ev.type === 'keydown' && (d.mode === 'shape' || d.mode === 'held')) {
        this.abortDrag({ send: false });
      }
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('keyup', onKey);
  }

  onDown(ev) {
    if (ev.pointerType === 'touch' && this.touchDown(ev)) return;
    if (!this.enabled || this.drag) return;
    if (ev.pointerType === 'mouse' && ev.button !== 0) return;
    ev.preventDefault();
    const at = this.point(ev);
    const id = ev.pointerId;
    const touch = ev.pointerType === 'touch';
    if (this.tool === 'fill') {
      // a finger fills on release, so a finger that turns into a pinch fills nothing
      if (touch) this.drag = { id, mode: 'fill', touch, at, start: [ev.clientX, ev.clientY] };
      else this.fill(at);
      return;
    }
    this.capture(id);
    if (isShapeTool(this.tool)) {
      this.drag = { id, mode: 'shape', touch, tool: this.tool, from: at, to: at };
      this.shift = ev.shiftKey;
    } else {
      const sense = this.pressure.start(ev);
      const point = [...at, this.pressure.first(sense)];
      if (touch) {
        // held back for TOUCH_HOLD_MS (see touchDown): drawn on the preview only
        this.drag = { id, mode: 'held', touch, sense, points: [point], timer: setTimeout(() => this.commitHeld(), TOUCH_HOLD_MS) };
        this.preview.show([point], this.width, this.inkColor());
      } else {
        this.beginStroke(id, point, false, sense);
      }
    }
  }

  /** Open a stroke at [x, y, p] (p: the width factor, or null without pressure). */
  beginStroke(id, [x, y, p], touch, sense) {
    const eraser = this.tool === 'eraser';
    const [r, g, b] = this.inkColor();
    this.drag = { id, mode: 'stroke', touch, sense, last: [x, y] };
    const op = { type: OP.BEGIN, tool: eraser ? TOOL.ERASER : TOOL.PEN, r, g, b, width: this.width, x, y };
    if (p != null) Object.assign(op, { type: OP.PRESSURE_BEGIN, p });
    this.local(op);
  }

  /**
   * Send points [x, y, p] of the live stroke, which ended at `last`: POINTS for the run
   * without pressure (p null), PRESSURE_POINTS for the run with it.
   */
  sendPoints(last, points) {
    let [lx, ly] = last;
    let run = null;
    const send = () => {
      if (run) this.local(run.pressures ? run : { type: OP.POINTS, deltas: run.deltas });
      run = null;
    };
    for (const [x, y, p] of points) {
      if (run && (p == null) !== (run.pressures === null)) send();
      if (!run) run = { type: OP.PRESSURE_POINTS, deltas: [], pressures: p == null ? null : [] };
      run.deltas.push(x - lx, y - ly);
      if (p != null) run.pressures.push(p);
      lx = x;
      ly = y;
    }
    send();
    return [lx, ly];
  }

  fill([x, y]) {
    if (x < 0 || y < 0 || x >= this.model.w || y >= this.model.h) return;
    const [r, g, b] = this.color;
    this.local({ type: OP.FILL, r, g, b, x, y });
  }

  onMove(ev) {
    if (ev.pointerType === 'touch' && this.touchMove(ev)) return;
    const d = this.drag;
    if (!d || d.id !== ev.pointerId) return;
    ev.preventDefault();
    if (d.mode === 'shape') {
      d.to = this.point(ev);
      this.shift = ev.shiftKey;
      this.showShape();
    } else if (d.mode === 'stroke' || d.mode === 'held') {
      this.extendStroke(d, ev);
    } else if (d.mode === 'look') {
      this.zoom?.pan(ev.clientX - d.last[0], ev.clientY - d.last[1]);
      d.last = [ev.clientX, ev.clientY];
    }
  }

  /** New points of a stroke: sent when it is live, added to the preview while held. */
  extendStroke(d, ev) {
    let events = typeof ev.getCoalescedEvents === 'function' ? ev.getCoalescedEvents() : [];
    if (!events || events.length === 0) events = [ev];
    const held = d.mode === 'held';
    const points = [];
    let [lx, ly, lp] = held ? d.points[d.points.length - 1] : d.last;
    for (const e of events) {
      const p = this.pressure.sample(d.sense, e);
      const [x, y] = this.point(e);
      if (x === lx && y === ly) continue;
      if (held) {
        d.points.push([x, y, p]);
        this.preview.extend([lx, ly, lp], [x, y, p], this.width, this.inkColor());
      } else {
        points.push([x, y, p]);
      }
      lx = x;
      ly = y;
      lp = p;
    }
    if (held || points.length === 0) return;
    d.last = this.sendPoints(d.last, points);
  }

  showShape() {
    const d = this.drag;
    if (!d || d.mode !== 'shape') return;
    this.preview.show(shapePath(d.tool, d.from, d.to, this.shift), this.width, this.color);
  }

  /** A held touch stroke is a drawing after all: send what it drew so far, then live. */
  commitHeld() {
    const d = this.drag;
    if (!d || d.mode !== 'held') return;
    clearTimeout(d.timer);
    this.preview.clear();
    const [first, ...rest] = d.points;
    this.beginStroke(d.id, first, true, d.sense);
    if (rest.length > 0) this.drag.last = this.sendPoints(first, rest);
  }

  onUp(ev, ok) {
    if (ev.pointerType === 'touch' && this.touchUp(ev)) return;
    const d = this.drag;
    if (!d || d.id !== ev.pointerId) return;
    if (ok) this.finishDrag(ev);
    else this.abortDrag({ send: true });
  }

  /** The pointer was released: the drag's result is drawn and sent. */
  finishDrag(ev) {
    const d = this.drag;
    if (d.mode === 'held') this.commitHeld();
    if (d.mode === 'shape') {
      if (ev.type === 'pointerup') {
        d.to = this.point(ev);
        this.shift = ev.shiftKey;
      }
      const points = shapePath(d.tool, d.from, d.to, this.shift);
      this.drag = null;
      this.preview.clear();
      for (const op of strokeOps(points, { color: this.color, width: this.width })) this.local(op);
    } else if (d.mode === 'fill') {
      if (Math.hypot(ev.clientX - d.start[0], ev.clientY - d.start[1]) < TAP_SLOP) this.fill(d.at);
    } else if (d.mode === 'look') {
      this.lookTap(d, ev);
    }
    this.drag = null;
    this.release(d.id);
    if (this.model.strokeOpen && (d.mode === 'stroke' || d.mode === 'held')) this.local({ type: OP.END });
  }

  /**
   * Drop the current drag. A shape, a held touch stroke and a finger's fill were never
   * sent, so nothing reaches the others. A live stroke is ended (END, when `send`) and,
   * with `undo`, taken back as one undo step.
   */
  abortDrag({ send = false, undo = false } = {}) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    clearTimeout(d.timer);
    this.preview.clear();
    this.release(d.id);
    if (d.mode !== 'stroke' || !this.model.strokeOpen) return;
    if (send) this.local({ type: OP.END });
    if (send && undo) this.local({ type: OP.UNDO });
  }

  // ---- touch: two fingers zoom and pan, and never leave a mark ----
  //
  // A one-finger stroke is held back for TOUCH_HOLD_MS: drawn on the local preview
  // only, nothing sent. Fingers of a pinch land within a few tens of milliseconds of
  // each other, so a second finger almost always arrives while the first one's stroke
  // is still held: it is dropped and nobody ever saw it. A stroke that outlived the
  // hold has been sent (the others see it at most that much later than without the
  // hold); if a second finger lands after all, it is ended and undone as one step, so
  // it does not stay on anybody's canvas. A finger on the fill tool fills on release.
  // After a pinch the remaining finger does nothing until every finger is up.

  /** A finger landed. True when the gesture logic took it (it must not draw). */
  touchDown(ev) {
    if (ev.isPrimary) {
      // the first finger of a new touch: forget any finger whose release was missed
      if (this.drag?.touch) this.abortDrag({ send: true });
      this.touches.clear();
      this.pinching = false;
      this.touchLocked = false;
    }
    this.touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (this.drag && !this.drag.touch) return true; // a pen or mouse draws: fingers are a resting hand
    ev.preventDefault();
    if (this.touches.size >= 2) {
      if (!this.pinching) this.startPinch();
      return true;
    }
    if (this.touchLocked) return true;
    if (this.enabled) return false;
    // a guesser's finger: pans a zoomed board; a double tap fits it again
    this.drag = { id: ev.pointerId, mode: 'look', touch: true, last: [ev.clientX, ev.clientY], start: [ev.clientX, ev.clientY], t: ev.timeStamp };
    return true;
  }

  startPinch() {
    this.abortDrag({ send: true, undo: true });
    this.pinching = true;
    const [a, b] = this.touches.values();
    this.zoom?.startPinch(a, b);
  }

  touchMove(ev) {
    const t = this.touches.get(ev.pointerId);
    if (!t) return false;
    t.x = ev.clientX;
    t.y = ev.clientY;
    if (!this.pinching) return false;
    ev.preventDefault();
    const [a, b] = this.touches.values();
    this.zoom?.movePinch(a, b);
    return true;
  }

  /** A finger left. True when the gesture logic took it. */
  touchUp(ev) {
    if (!this.touches.delete(ev.pointerId)) return false;
    if (this.pinching) {
      if (this.touches.size < 2) {
        this.pinching = false;
        this.zoom?.endPinch();
        this.touchLocked = this.touches.size > 0;
      }
      return true;
    }
    if (this.touches.size === 0) this.touchLocked = false;
    return false;
  }

  /** A guesser's quick tap; the second of two close ones fits the board. */
  lookTap(d, ev) {
    const moved = Math.hypot(ev.clientX - d.start[0], ev.clientY - d.start[1]);
    if (moved >= TAP_SLOP || ev.timeStamp - d.t > DOUBLE_TAP_MS) {
      this.lastTap = null;
      return;
    }
    const last = this.lastTap;
    if (last && ev.timeStamp - last.t < DOUBLE_TAP_MS && Math.hypot(ev.clientX - last.x, ev.clientY - last.y) < 3 * TAP_SLOP) {
      this.lastTap = null;
      this.zoom?.reset();
    } else {
      this.lastTap = { t: ev.timeStamp, x: ev.clientX, y: ev.clientY };
    }
  }

  /** Logical-coordinate pixel read (used by tests and tooling). */
  pixel(x, y) {
    return this.model.raster.getPixel(x, y);
  }
}
