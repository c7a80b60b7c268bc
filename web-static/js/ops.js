// Binary drawing operations (protocol sections 5.2 and 12.4): varints, zigzag, encoder,
// decoder and the batching sender used by the drawer. Pure module: no DOM access.

export const OP = Object.freeze({
  BEGIN: 1, POINTS: 2, END: 3, FILL: 4, UNDO: 5, CLEAR: 6, PRESSURE_BEGIN: 7, PRESSURE_POINTS: 8,
});
export const TOOL = Object.freeze({ PEN: 0, ERASER: 1 });
export const MAX_POINTS_PER_OP = 1024;
export const MIN_WIDTH = 1;
export const MAX_WIDTH = 64;
/** A point's width factor p (1..255): its width is width * p / 255 px (at least 1 px). */
export const MIN_PRESSURE = 1;
export const MAX_PRESSURE = 255;
/** Stay well below the default 64 KiB binary frame limit. */
export const MAX_FRAME_BYTES = 60000;

export class OpsError extends Error {}

/** Zigzag-map a signed 32-bit integer: (n << 1) ^ (n >> 31), as an unsigned value. */
export function zigzag(n) {
  return ((n << 1) ^ (n >> 31)) >>> 0;
}

/** Inverse of zigzag. */
export function unzigzag(u) {
  return (u >>> 1) ^ -(u & 1);
}

/** Growable byte buffer with LEB128 helpers. */
export class ByteWriter {
  constructor(capacity = 64) {
    this.buf = new Uint8Array(capacity);
    this.length = 0;
  }
  ensure(extra) {
    if (this.length + extra <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + extra) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  u8(v) {
    this.ensure(1);
    this.buf[this.length++] = v & 0xff;
  }
  uvarint(v) {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new OpsError(`uvarint out of range: ${v}`);
    this.ensure(5);
    let x = v >>> 0;
    while (x >= 0x80) {
      this.buf[this.length++] = (x & 0x7f) | 0x80;
      x >>>= 7;
    }
    this.buf[this.length++] = x;
  }
  svarint(v) {
    if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) throw new OpsError(`svarint out of range: ${v}`);
    this.uvarint(zigzag(v));
  }
  bytes() {
    return this.buf.slice(0, this.length);
  }
}

/** Sequential reader; every read throws OpsError when the data is truncated or malformed. */
export class ByteReader {
  constructor(bytes) {
    this.bytes = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    this.pos = 0;
  }
  get done() {
    return this.pos >= this.bytes.length;
  }
  u8() {
    if (this.pos >= this.bytes.length) throw new OpsError('truncated');
    return this.bytes[this.pos++];
  }
  uvarint() {
    let result = 0;
    for (let i = 0; i < 5; i++) {
      const b = this.u8();
      if (i === 4 && b > 0x0f) throw new OpsError('uvarint too long');
      result += (b & 0x7f) * 2 ** (7 * i);
      if ((b & 0x80) === 0) return result >>> 0;
    }
    throw new OpsError('uvarint too long');
  }
  svarint() {
    return unzigzag(this.uvarint());
  }
}

function checkPressure(p) {
  if (!Number.isInteger(p) || p < MIN_PRESSURE || p > MAX_PRESSURE) throw new OpsError('pressure out of range');
  return p;
}

function writeOp(w, op) {
  switch (op.type) {
    case OP.BEGIN:
    case OP.PRESSURE_BEGIN:
      w.u8(op.type);
      w.u8(op.tool === TOOL.ERASER ? TOOL.ERASER : TOOL.PEN);
      w.u8(op.r); w.u8(op.g); w.u8(op.b);
      if (op.width < MIN_WIDTH || op.width > MAX_WIDTH) throw new OpsError('width out of range');
      w.u8(op.width);
      if (op.type === OP.PRESSURE_BEGIN) w.u8(checkPressure(op.p));
      w.svarint(op.x); w.svarint(op.y);
      break;
    case OP.POINTS: {
      const n = op.deltas.length / 2;
      if (!Number.isInteger(n) || n < 1 || n > MAX_POINTS_PER_OP) throw new OpsError('POINTS count out of range');
      w.u8(OP.POINTS);
      w.uvarint(n);
      for (let i = 0; i < op.deltas.length; i++) w.svarint(op.deltas[i]);
      break;
    }
    case OP.PRESSURE_POINTS: {
      const n = op.pressures.length;
      if (n < 1 || n > MAX_POINTS_PER_OP) throw new OpsError('PRESSURE_POINTS count out of range');
      if (op.deltas.length !== 2 * n) throw new OpsError('PRESSURE_POINTS needs one pressure per point');
      w.u8(OP.PRESSURE_POINTS);
      w.uvarint(n);
      for (let i = 0; i < n; i++) {
        w.svarint(op.deltas[2 * i]); w.svarint(op.deltas[2 * i + 1]);
        w.u8(checkPressure(op.pressures[i]));
      }
      break;
    }
    case OP.FILL:
      w.u8(OP.FILL);
      w.u8(op.r); w.u8(op.g); w.u8(op.b);
      w.uvarint(op.x); w.uvarint(op.y);
      break;
    case OP.END:
    case OP.UNDO:
    case OP.CLEAR:
      w.u8(op.type);
      break;
    default:
      throw new OpsError(`unknown op type ${op.type}`);
  }
}

/** Encode a list of operations into one binary frame. */
export function encodeOps(ops) {
  const w = new ByteWriter();
  for (const op of ops) writeOp(w, op);
  return w.bytes();
}

/**
 * Decode one binary frame into operations. Structural validation only (opcodes,
 * truncation, n, width and pressure ranges, empty frame); throws OpsError on invalid input.
 * POINTS ops carry `deltas` (relative, as on the wire); PRESSURE_POINTS ops carry the
 * same `deltas` and `pressures` (one width factor 1..255 per point); PRESSURE_BEGIN is
 * BEGIN with the first point's `p`.
 */
export function decodeOps(bytes) {
  const r = new ByteReader(bytes);
  if (r.done) throw new OpsError('empty frame');
  const ops = [];
  while (!r.done) {
    const code = r.u8();
    switch (code) {
      case OP.BEGIN:
      case OP.PRESSURE_BEGIN: {
        const tool = r.u8();
        if (tool !== TOOL.PEN && tool !== TOOL.ERASER) throw new OpsError('bad tool');
        const red = r.u8(), green = r.u8(), blue = r.u8();
        const width = r.u8();
        if (width < MIN_WIDTH || width > MAX_WIDTH) throw new OpsError('width out of range');
        if (code === OP.PRESSURE_BEGIN) {
          const p = r.u8();
          if (p < MIN_PRESSURE) throw new OpsError('pressure out of range');
          const x = r.svarint(), y = r.svarint();
          ops.push({ type: OP.PRESSURE_BEGIN, tool, r: red, g: green, b: blue, width, p, x, y });
        } else {
          const x = r.svarint(), y = r.svarint();
          ops.push({ type: OP.BEGIN, tool, r: red, g: green, b: blue, width, x, y });
        }
        break;
      }
      case OP.POINTS: {
        const n = r.uvarint();
        if (n < 1 || n > MAX_POINTS_PER_OP) throw new OpsError('POINTS count out of range');
        const deltas = new Array(n * 2);
        for (let i = 0; i < n * 2; i++) deltas[i] = r.svarint();
        ops.push({ type: OP.POINTS, deltas });
        break;
      }
      case OP.PRESSURE_POINTS: {
        const n = r.uvarint();
        if (n < 1 || n > MAX_POINTS_PER_OP) throw new OpsError('PRESSURE_POINTS count out of range');
        const deltas = new Array(n * 2);
        const pressures = new Array(n);
        for (let i = 0; i < n; i++) {
          deltas[2 * i] = r.svarint();
          deltas[2 * i + 1] = r.svarint();
          const p = r.u8();
          if (p < MIN_PRESSURE) throw new OpsError('pressure out of range');
          pressures[i] = p;
        }
        ops.push({ type: OP.PRESSURE_POINTS, deltas, pressures });
        break;
      }
      case OP.FILL: {
        const red = r.u8(), green = r.u8(), blue = r.u8();
        const x = r.uvarint(), y = r.uvarint();
        ops.push({ type: OP.FILL, r: red, g: green, b: blue, x, y });
        break;
      }
      case OP.END:
      case OP.UNDO:
      case OP.CLEAR:
        ops.push({ type: code });
        break;
      default:
        throw new OpsError(`unknown opcode 0x${code.toString(16)}`);
    }
  }
  return ops;
}

/** Encoded size upper bound of an op, used to split frames. */
function opSizeBound(op) {
  if (op.type === OP.POINTS) return 1 + 5 + op.deltas.length * 5;
  if (op.type === OP.PRESSURE_POINTS) return 1 + 5 + op.deltas.length * 5 + op.pressures.length;
  return 17;
}

/**
 * Collects the drawer's operations and sends them in batches: one binary frame
 * per flush, flushed `intervalMs` after the first queued op (16..33 ms).
 * Consecutive POINTS ops are merged (up to 1024 points per op), and so are
 * consecutive PRESSURE_POINTS ops. The scheduler
 * and the send function are injected so this is testable without timers.
 */
export class OpBatcher {
  constructor(send, { intervalMs = 25, setTimer = (f, ms) => setTimeout(f, ms), clearTimer = (t) => clearTimeout(t) } = {}) {
    this.send = send;
    this.intervalMs = Math.min(33, Math.max(16, intervalMs));
    this.setTimer = setTimer;
    this.clearTimer = clearTimer;
    this.queue = [];
    this.timer = null;
  }

  push(op) {
    const last = this.queue[this.queue.length - 1];
    const pointsOp = op.type === OP.POINTS || op.type === OP.PRESSURE_POINTS;
    const fits = pointsOp && last && last.type === op.type && last.deltas.length + op.deltas.length <= MAX_POINTS_PER_OP * 2;
    if (op.type === OP.POINTS && fits) {
      last.deltas.push(...op.deltas);
    } else if (op.type === OP.PRESSURE_POINTS && fits) {
      last.deltas.push(...op.deltas);
      last.pressures.push(...op.pressures);
    } else if (op.type === OP.POINTS) {
      // copy so later merges never mutate the caller's object
      for (let i = 0; i < op.deltas.length; i += MAX_POINTS_PER_OP * 2) {
        this.queue.push({ type: OP.POINTS, deltas: op.deltas.slice(i, i + MAX_POINTS_PER_OP * 2) });
      }
    } else if (op.type === OP.PRESSURE_POINTS) {
      for (let i = 0; i < op.pressures.length; i += MAX_POINTS_PER_OP) {
        this.queue.push({
          type: OP.PRESSURE_POINTS,
          deltas: op.deltas.slice(2 * i, 2 * (i + MAX_POINTS_PER_OP)),
          pressures: op.pressures.slice(i, i + MAX_POINTS_PER_OP),
        });
      }
    } else {
      this.queue.push({ ...op });
    }
    if (this.timer === null) this.timer = this.setTimer(() => this.flush(), this.intervalMs);
  }

  /** Send everything queued now (split into several frames only if very large). */
  flush() {
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    if (this.queue.length === 0) return;
    let chunk = [];
    let size = 0;
    for (const op of this.queue) {
      const s = opSizeBound(op);
      if (chunk.length > 0 && size + s > MAX_FRAME_BYTES) {
        this.send(encodeOps(chunk));
        chunk = [];
        size = 0;
      }
      chunk.push(op);
      size += s;
    }
    if (chunk.length) this.send(encodeOps(chunk));
    this.queue = [];
  }

  /** Drop anything queued (e.g. the connection went away). */
  reset() {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.queue = [];
  }
}
