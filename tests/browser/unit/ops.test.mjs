// Unit tests for the binary operation codec and the batching sender (protocol 5.2).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  OP, TOOL, zigzag, unzigzag, ByteWriter, ByteReader, encodeOps, decodeOps, OpBatcher, OpsError, MAX_POINTS_PER_OP,
} from '../../../web-static/js/ops.js';

test('zigzag maps signed to unsigned as (n << 1) ^ (n >> 31)', () => {
  const cases = [[0, 0], [-1, 1], [1, 2], [-2, 3], [2, 4], [63, 126], [-64, 127], [2147483647, 4294967294], [-2147483648, 4294967295]];
  for (const [n, u] of cases) {
    assert.equal(zigzag(n), u, `zigzag(${n})`);
    assert.equal(unzigzag(u), n, `unzigzag(${u})`);
  }
});

test('uvarint is LEB128, low group first', () => {
  const enc = (v) => { const w = new ByteWriter(1); w.uvarint(v); return [...w.bytes()]; };
  assert.deepEqual(enc(0), [0x00]);
  assert.deepEqual(enc(1), [0x01]);
  assert.deepEqual(enc(127), [0x7f]);
  assert.deepEqual(enc(128), [0x80, 0x01]);
  assert.deepEqual(enc(300), [0xac, 0x02]);
  assert.deepEqual(enc(16384), [0x80, 0x80, 0x01]);
  assert.deepEqual(enc(0xffffffff), [0xff, 0xff, 0xff, 0xff, 0x0f]);
  for (const v of [0, 1, 127, 128, 255, 300, 16383, 16384, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 0xffffffff]) {
    const r = new ByteReader(Uint8Array.from(enc(v)));
    assert.equal(r.uvarint(), v);
    assert.ok(r.done);
  }
});

test('svarint round trip', () => {
  for (const v of [0, -1, 1, -63, 64, -65, 1000, -1000, 2 ** 30, -(2 ** 31), 2 ** 31 - 1]) {
    const w = new ByteWriter();
    w.svarint(v);
    assert.equal(new ByteReader(w.bytes()).svarint(), v);
  }
  const w = new ByteWriter();
  w.svarint(-3);
  assert.deepEqual([...w.bytes()], [0x05]);
});

test('varint longer than 5 bytes or truncated is rejected', () => {
  assert.throws(() => new ByteReader(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x01])).uvarint(), OpsError);
  assert.throws(() => new ByteReader(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x1f])).uvarint(), OpsError);
  assert.throws(() => new ByteReader(Uint8Array.from([0x80])).uvarint(), OpsError);
});

test('encodes every opcode with the documented layout', () => {
  const bytes = encodeOps([
    { type: OP.BEGIN, tool: TOOL.PEN, r: 255, g: 0, b: 16, width: 8, x: 100, y: -2 },
    { type: OP.POINTS, deltas: [1, -1, 64, 0] },
    { type: OP.END },
    { type: OP.FILL, r: 1, g: 2, b: 3, x: 300, y: 5 },
    { type: OP.UNDO },
    { type: OP.CLEAR },
  ]);
  assert.deepEqual([...bytes], [
    0x01, 0x00, 255, 0, 16, 8, 0xc8, 0x01, 0x03, // BEGIN, x=100 -> zigzag 200, y=-2 -> 3
    0x02, 0x02, 0x02, 0x01, 0x80, 0x01, 0x00, // POINTS n=2: (1,-1) (64,0)
    0x03,
    0x04, 1, 2, 3, 0xac, 0x02, 0x05, // FILL x=300 (uvarint), y=5
    0x05,
    0x06,
  ]);
});

test('decode(encode(ops)) round trips', () => {
  const ops = [
    { type: OP.BEGIN, tool: TOOL.ERASER, r: 255, g: 255, b: 255, width: 64, x: -800, y: 1199 },
    { type: OP.POINTS, deltas: Array.from({ length: 2 * MAX_POINTS_PER_OP }, (_, i) => (i % 7) - 3) },
    { type: OP.END },
    { type: OP.FILL, r: 9, g: 8, b: 7, x: 799, y: 599 },
    { type: OP.UNDO },
    { type: OP.CLEAR },
  ];
  assert.deepEqual(decodeOps(encodeOps(ops)), ops);
});

test('decoder rejects invalid frames', () => {
  assert.throws(() => decodeOps(new Uint8Array(0)), /empty/);
  assert.throws(() => decodeOps(Uint8Array.from([0x09])), /unknown opcode/);
  assert.throws(() => decodeOps(Uint8Array.from([0x01, 0, 0, 0, 0, 0, 0, 0])), /width/); // width 0
  assert.throws(() => decodeOps(Uint8Array.from([0x01, 0, 0, 0, 0, 65, 0, 0])), /width/); // width 65
  assert.throws(() => decodeOps(Uint8Array.from([0x01, 0, 0, 0, 0, 4, 0])), /truncated/);
  assert.throws(() => decodeOps(Uint8Array.from([0x02, 0x00])), /count/); // n = 0
  assert.throws(() => decodeOps(Uint8Array.from([0x02, 0x81, 0x08])), /count/); // n = 1025
  assert.throws(() => decodeOps(Uint8Array.from([0x02, 0x02, 0x00, 0x00])), /truncated/);
  assert.throws(() => decodeOps(Uint8Array.from([0x01, 2, 0, 0, 0, 4, 0, 0])), /tool/);
});

test('encoder refuses out-of-range values', () => {
  assert.throws(() => encodeOps([{ type: OP.BEGIN, tool: 0, r: 0, g: 0, b: 0, width: 0, x: 0, y: 0 }]), OpsError);
  assert.throws(() => encodeOps([{ type: OP.POINTS, deltas: [] }]), OpsError);
  assert.throws(() => encodeOps([{ type: 99 }]), OpsError);
});

function fakeTimers() {
  const timers = [];
  return {
    timers,
    setTimer: (f, ms) => { timers.push({ f, ms, live: true }); return timers.length - 1; },
    clearTimer: (id) => { if (timers[id]) timers[id].live = false; },
    fire() { for (const t of timers) if (t.live) { t.live = false; t.f(); } },
  };
}

test('OpBatcher sends one frame per batch and merges POINTS', () => {
  const sent = [];
  const ft = fakeTimers();
  const b = new OpBatcher((bytes) => sent.push(bytes), { intervalMs: 20, setTimer: ft.setTimer, clearTimer: ft.clearTimer });
  b.push({ type: OP.BEGIN, tool: 0, r: 0, g: 0, b: 0, width: 4, x: 10, y: 10 });
  b.push({ type: OP.POINTS, deltas: [1, 1] });
  b.push({ type: OP.POINTS, deltas: [2, 0, 0, 3] });
  assert.equal(sent.length, 0, 'nothing is sent before the batch interval');
  assert.equal(ft.timers.length, 1, 'a single timer per batch');
  assert.ok(ft.timers[0].ms >= 16 && ft.timers[0].ms <= 33);
  ft.fire();
  assert.equal(sent.length, 1);
  assert.deepEqual(decodeOps(sent[0]), [
    { type: OP.BEGIN, tool: 0, r: 0, g: 0, b: 0, width: 4, x: 10, y: 10 },
    { type: OP.POINTS, deltas: [1, 1, 2, 0, 0, 3] },
  ]);
  b.push({ type: OP.END });
  ft.fire();
  assert.equal(sent.length, 2);
  assert.deepEqual(decodeOps(sent[1]), [{ type: OP.END }]);
  ft.fire();
  assert.equal(sent.length, 2, 'empty batches send nothing');
});

test('OpBatcher clamps the interval to 16..33 ms and splits POINTS at 1024', () => {
  const sent = [];
  const ft = fakeTimers();
  const b = new OpBatcher((bytes) => sent.push(bytes), { intervalMs: 100, setTimer: ft.setTimer, clearTimer: ft.clearTimer });
  assert.equal(b.intervalMs, 33);
  assert.equal(new OpBatcher(() => {}, { intervalMs: 1 }).intervalMs, 16);
  b.push({ type: OP.BEGIN, tool: 0, r: 0, g: 0, b: 0, width: 4, x: 0, y: 0 });
  for (let i = 0; i < 1500; i++) b.push({ type: OP.POINTS, deltas: [1, 0] });
  b.flush();
  const ops = decodeOps(sent[0]);
  assert.equal(ops.length, 3);
  assert.equal(ops[1].deltas.length / 2, 1024);
  assert.equal(ops[2].deltas.length / 2, 476);
});

test('OpBatcher.reset drops queued ops', () => {
  const sent = [];
  const ft = fakeTimers();
  const b = new OpBatcher((bytes) => sent.push(bytes), { setTimer: ft.setTimer, clearTimer: ft.clearTimer });
  b.push({ type: OP.CLEAR });
  b.reset();
  ft.fire();
  b.flush();
  assert.equal(sent.length, 0);
});
