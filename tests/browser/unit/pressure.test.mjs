// Unit tests for pen pressure (protocol 12.4): PRESSURE_BEGIN (0x07) and
// PRESSURE_POINTS (0x08) in the codec and the batcher, tapered strokes in the
// rasteriser and the op-log renderer.
import test from 'node:test';
import assert from 'node:assert/strict';
import { OP, TOOL, encodeOps, decodeOps, OpBatcher, OpsError, MAX_POINTS_PER_OP } from '../../../web-static/js/ops.js';
import { Raster } from '../../../web-static/js/raster.js';
import { CanvasModel, pressureRadius } from '../../../web-static/js/renderer.js';
import { PressureSense, pressureToP, MIN_PRESSURE_FACTOR } from '../../../web-static/js/pressure.js';

const RED = [255, 0, 0];
const WHITE = [255, 255, 255];
const pbegin = (x, y, p, { width = 20, c = RED, tool = TOOL.PEN } = {}) => ({ type: OP.PRESSURE_BEGIN, tool, r: c[0], g: c[1], b: c[2], width, p, x, y });
const begin = (x, y, { width = 20, c = RED, tool = TOOL.PEN } = {}) => ({ type: OP.BEGIN, tool, r: c[0], g: c[1], b: c[2], width, x, y });
const ppoints = (deltas, pressures) => ({ type: OP.PRESSURE_POINTS, deltas, pressures });
const points = (...deltas) => ({ type: OP.POINTS, deltas });
const END = { type: OP.END };
const UNDO = { type: OP.UNDO };

const snapshot = (m) => Buffer.from(m.raster.data).toString('base64');

/** Number of pixels of colour c in column x (the stroke's thickness there for a horizontal stroke). */
function columnInk(m, x, c = RED) {
  let n = 0;
  for (let y = 0; y < m.h; y++) {
    const px = m.raster.getPixel(x, y);
    if (px[0] === c[0] && px[1] === c[1] && px[2] === c[2]) n++;
  }
  return n;
}

// ---------------------------------------------------------------- codec

test('PRESSURE_BEGIN and PRESSURE_POINTS have the documented layout', () => {
  const bytes = encodeOps([
    pbegin(100, -2, 128, { width: 8, c: [255, 0, 16] }),
    ppoints([1, -1, 64, 0], [1, 255]),
    END,
  ]);
  assert.deepEqual([...bytes], [
    0x07, 0x00, 255, 0, 16, 8, 128, 0xc8, 0x01, 0x03, // tool, rgb, width, p, x=100, y=-2
    0x08, 0x02, 0x02, 0x01, 1, 0x80, 0x01, 0x00, 255, // n=2: (1,-1,p=1) (64,0,p=255)
    0x03,
  ]);
});

test('pressure ops round trip, also mixed with POINTS in one stroke', () => {
  const ops = [
    pbegin(-800, 1199, 1, { width: 64, tool: TOOL.ERASER, c: WHITE }),
    ppoints(Array.from({ length: 2 * MAX_POINTS_PER_OP }, (_, i) => (i % 9) - 4), Array.from({ length: MAX_POINTS_PER_OP }, (_, i) => 1 + (i % 255))),
    points(3, 4, -5, 6),
    ppoints([0, 0], [77]),
    END,
    begin(10, 10, { width: 1 }),
    ppoints([5, 5, -1000, 2000], [200, 2]),
    points(1, 1),
    END,
  ];
  assert.deepEqual(decodeOps(encodeOps(ops)), ops);
});

test('the decoder refuses invalid pressure ops', () => {
  const dec = (...b) => () => decodeOps(Uint8Array.from(b));
  assert.throws(dec(0x07, 0, 0, 0, 0, 8, 0, 0, 0), /pressure/); // p = 0
  assert.throws(dec(0x07, 0, 0, 0, 0, 0, 9, 0, 0), /width/); // width 0
  assert.throws(dec(0x07, 0, 0, 0, 0, 65, 9, 0, 0), /width/); // width 65
  assert.throws(dec(0x07, 2, 0, 0, 0, 8, 9, 0, 0), /tool/);
  assert.throws(dec(0x07, 0, 0, 0, 0, 8, 9, 0), /truncated/); // no y
  assert.throws(dec(0x07, 0, 0, 0, 0, 8), /truncated/); // no p
  assert.throws(dec(0x08, 0x00), /count/); // n = 0
  assert.throws(dec(0x08, 0x81, 0x08), /count/); // n = 1025
  assert.throws(dec(0x08, 0x01, 0x02, 0x02, 0x00), /pressure/); // p = 0
  assert.throws(dec(0x08, 0x01, 0x02, 0x02), /truncated/); // no p
  assert.throws(dec(0x08, 0x02, 0x02, 0x02, 9, 0x02), /truncated/); // second point cut
  assert.throws(dec(0x08), /truncated/); // no n
  assert.throws(dec(0x09), /unknown opcode/);
  // valid edges
  assert.equal(decodeOps(Uint8Array.from([0x08, 0x01, 0, 0, 1]))[0].pressures[0], 1);
  assert.equal(decodeOps(Uint8Array.from([0x07, 1, 0, 0, 0, 64, 255, 0, 0]))[0].p, 255);
});

test('the encoder refuses out-of-range pressure ops', () => {
  assert.throws(() => encodeOps([pbegin(0, 0, 0)]), OpsError);
  assert.throws(() => encodeOps([pbegin(0, 0, 256)]), OpsError);
  assert.throws(() => encodeOps([pbegin(0, 0, 1.5)]), OpsError);
  assert.throws(() => encodeOps([pbegin(0, 0, 9, { width: 65 })]), OpsError);
  assert.throws(() => encodeOps([ppoints([], [])]), OpsError);
  assert.throws(() => encodeOps([ppoints([1, 1], [0])]), OpsError);
  assert.throws(() => encodeOps([ppoints([1, 1, 2, 2], [9])]), OpsError); // one p per point
  const many = MAX_POINTS_PER_OP + 1;
  assert.throws(() => encodeOps([ppoints(new Array(2 * many).fill(0), new Array(many).fill(9))]), OpsError);
});

function fakeTimers() {
  const timers = [];
  return {
    setTimer: (f) => { timers.push({ f, live: true }); return timers.length - 1; },
    clearTimer: (id) => { if (timers[id]) timers[id].live = false; },
    fire() { for (const t of timers) if (t.live) { t.live = false; t.f(); } },
  };
}

test('OpBatcher merges PRESSURE_POINTS, never with POINTS, and splits at 1024', () => {
  const sent = [];
  const ft = fakeTimers();
  const b = new OpBatcher((bytes) => sent.push(bytes), { setTimer: ft.setTimer, clearTimer: ft.clearTimer });
  const first = ppoints([1, 1], [10]);
  b.push(pbegin(10, 10, 50));
  b.push(first);
  b.push(ppoints([2, 0, 0, 3], [20, 30]));
  b.push(points(1, 0));
  b.push(points(1, 0));
  b.push(ppoints([4, 4], [40]));
  ft.fire();
  assert.deepEqual(first, ppoints([1, 1], [10]), 'the caller\'s op is not changed by a merge');
  assert.deepEqual(decodeOps(sent[0]), [
    pbegin(10, 10, 50),
    ppoints([1, 1, 2, 0, 0, 3], [10, 20, 30]),
    points(1, 0, 1, 0),
    ppoints([4, 4], [40]),
  ]);
  b.push(pbegin(0, 0, 9));
  for (let i = 0; i < 1500; i++) b.push(ppoints([1, 0], [1 + (i % 255)]));
  b.push(END);
  b.flush();
  const ops = decodeOps(sent[1]);
  assert.deepEqual(ops.map((o) => o.type), [OP.PRESSURE_BEGIN, OP.PRESSURE_POINTS, OP.PRESSURE_POINTS, OP.END]);
  assert.equal(ops[1].pressures.length, 1024);
  assert.equal(ops[1].deltas.length, 2048);
  assert.equal(ops[2].pressures.length, 476);
  assert.equal(ops[2].pressures[0], 1 + (1024 % 255));
  // one op of more than 1024 points is split too
  b.push(ppoints(new Array(2 * 1100).fill(1), new Array(1100).fill(7)));
  b.flush();
  assert.deepEqual(decodeOps(sent[2]).map((o) => o.pressures.length), [1024, 76]);
});

// ---------------------------------------------------------------- rendering

test('pressureRadius: width * p / 255, never under 1 px wide', () => {
  assert.equal(pressureRadius(20, 255), 10);
  assert.equal(pressureRadius(20, 51), 2);
  assert.equal(pressureRadius(8, 1), 0.5);
  assert.equal(pressureRadius(1, 255), 0.5);
});

test('PRESSURE_BEGIN alone draws a dot of width * p / 255', () => {
  const m = new CanvasModel(40, 40);
  m.applyAll([pbegin(20, 20, 153, { width: 20 }), END]); // 12 px: radius 6
  assert.deepEqual(m.raster.getPixel(26, 20), RED);
  assert.deepEqual(m.raster.getPixel(27, 20), WHITE);
  assert.deepEqual(m.raster.getPixel(20, 14), RED);
  assert.deepEqual(m.raster.getPixel(20, 13), WHITE);
});

test('a stroke whose pressure grows tapers from thin to thick', () => {
  const m = new CanvasModel(200, 80);
  const deltas = [];
  const pressures = [];
  for (let i = 1; i <= 16; i++) {
    deltas.push(10, 0);
    pressures.push(Math.round(13 + (242 * i) / 16));
  }
  m.applyAll([pbegin(20, 40, 13, { width: 40 }), ppoints(deltas, pressures), END]);
  const thin = columnInk(m, 30);
  const mid = columnInk(m, 100);
  const thick = columnInk(m, 180); // the last point, p = 255
  assert.ok(thin <= 6, `thin end ${thin}`);
  assert.ok(mid > thin + 10 && thick > mid + 10, `thickness ${thin} < ${mid} < ${thick}`);
  assert.ok(thick >= 38 && thick <= 41, `thick end ${thick}`);
  // monotonic along the stroke: no bulges at the joints
  let prev = 0;
  for (let x = 25; x <= 175; x++) {
    const n = columnInk(m, x);
    assert.ok(n >= prev - 1, `column ${x}: ${n} after ${prev}`);
    prev = Math.max(prev, n);
  }
});

test('a pressure segment covers both end discs and the hull between them', () => {
  const r = new Raster(100, 60);
  r.taperedSegment(20, 30, 3, 70, 30, 15, 255, 0, 0);
  const ink = (x, y) => r.getPixel(x, y)[1] === 0;
  assert.ok(ink(17, 30) && !ink(16, 30), 'disc at A, radius 3');
  assert.ok(ink(85, 30) && !ink(86, 30), 'disc at B, radius 15');
  assert.ok(ink(70, 15) && ink(70, 45) && !ink(70, 14));
  // on the tangent between: at x = 45 the half-width is a bit more than (3 + 15) / 2
  assert.ok(ink(45, 30 - 9) && ink(45, 30 + 9) && !ink(45, 30 - 12) && !ink(45, 30 + 12));
  // one disc inside the other: the larger disc
  const n = new Raster(40, 40);
  n.taperedSegment(20, 20, 10, 22, 20, 2, 0, 0, 0);
  assert.ok(n.getPixel(10, 20)[0] === 0 && n.getPixel(9, 20)[0] === 255 && n.getPixel(30, 20)[0] === 0);
});

test('pressure 255 draws exactly the pixels of BEGIN/POINTS', () => {
  const a = new CanvasModel(120, 80);
  const b = new CanvasModel(120, 80);
  const c = new CanvasModel(120, 80);
  a.applyAll([begin(10, 10, { width: 9 }), points(40, 20, 30, -5, 0, 40), END]);
  b.applyAll([pbegin(10, 10, 255, { width: 9 }), ppoints([40, 20, 30, -5, 0, 40], [255, 255, 255]), END]);
  c.applyAll([begin(10, 10, { width: 9 }), points(40, 20), ppoints([30, -5], [255]), points(0, 40), END]);
  assert.equal(snapshot(b), snapshot(a));
  assert.equal(snapshot(c), snapshot(a));
});

test('a stroke may mix POINTS (p = 255) and PRESSURE_POINTS', () => {
  const m = new CanvasModel(200, 80);
  m.applyAll([begin(20, 40, { width: 30 }), points(40, 0), ppoints([40, 0, 40, 0], [128, 26]), points(40, 0), END]);
  assert.equal(m.items[0].pressures.join(','), '255,255,128,26,255');
  assert.ok(columnInk(m, 60) === 31, `full width at the POINTS part: ${columnInk(m, 60)}`);
  const narrow = columnInk(m, 140);
  assert.ok(narrow <= 5, `narrow at p = 26: ${narrow}`);
  assert.ok(columnInk(m, 180) === 31, 'full width again after the POINTS');
  // and the same from PRESSURE_BEGIN followed by POINTS
  const n = new CanvasModel(200, 80);
  n.applyAll([pbegin(20, 40, 26, { width: 30 }), points(80, 0), END]);
  assert.ok(columnInk(n, 20) <= 5 && columnInk(n, 100) === 31);
});

test('PRESSURE_POINTS without an open stroke are ignored; PRESSURE_BEGIN ends the open stroke', () => {
  const m = new CanvasModel(100, 60);
  m.applyAll([ppoints([10, 10], [100])]);
  assert.equal(m.items.length, 0);
  m.applyAll([begin(10, 10), points(5, 0), pbegin(50, 30, 100), ppoints([10, 0], [200]), END, ppoints([10, 0], [200])]);
  assert.equal(m.items.length, 2);
  assert.deepEqual(m.items[0].points, [10, 10, 15, 10]);
  assert.deepEqual(m.items[1].points, [50, 30, 60, 30]);
});

test('undo and redraw reproduce tapered strokes pixel for pixel; a pressure eraser paints white', () => {
  const m = new CanvasModel(160, 100);
  const ops = [
    pbegin(20, 50, 20, { width: 48, c: [0, 0, 255] }),
    ppoints([20, 3, 20, -3, 20, 5, 20, 0, 20, -2], [60, 120, 200, 255, 90]),
    END,
    pbegin(30, 10, 255, { width: 24, tool: TOOL.ERASER, c: WHITE }),
    ppoints([30, 40, 30, 40], [120, 10]),
    END,
  ];
  m.applyAll(ops.slice(0, 3));
  const before = snapshot(m);
  m.applyAll(ops.slice(3));
  assert.notEqual(snapshot(m), before, 'the eraser removed ink');
  assert.deepEqual(m.raster.getPixel(60, 50), WHITE, 'erased where the eraser crossed the blue stroke');
  const withEraser = snapshot(m);
  m.redraw();
  assert.equal(snapshot(m), withEraser, 'redraw gives the same pixels');
  m.apply(UNDO);
  assert.equal(snapshot(m), before, 'undo of the eraser stroke restores the tapered stroke');
  m.apply(UNDO);
  assert.ok(!m.raster.data.some((v) => v !== 255), 'undo of the tapered stroke leaves white');
  // the decoder's ops render the same as the encoder's input
  const d = new CanvasModel(160, 100);
  d.applyAll(decodeOps(encodeOps(ops)));
  assert.equal(snapshot(d), withEraser);
});

// ---------------------------------------------------------------- input

test('pressureToP maps 0..1 onto 0.15..1 of the width, as 1..255', () => {
  assert.equal(MIN_PRESSURE_FACTOR, 0.15);
  assert.equal(pressureToP(0), 38); // 0.15 * 255
  assert.equal(pressureToP(1), 255);
  assert.equal(pressureToP(0.5), 147);
  assert.equal(pressureToP(-3), 38);
  assert.equal(pressureToP(7), 255);
  assert.equal(pressureToP(NaN), 147);
  let prev = 0;
  for (let i = 0; i <= 100; i++) {
    const p = pressureToP(i / 100);
    assert.ok(p >= prev && p >= 1 && p <= 255);
    prev = p;
  }
});

const ev = (pointerType, pressure) => ({ pointerType, pressure });

test('a mouse never has pressure', () => {
  const s = new PressureSense();
  const t = s.start(ev('mouse', 0.5));
  assert.equal(s.first(t), null);
  assert.equal(s.sample(t, ev('mouse', 0.5)), null);
  assert.equal(s.sample(t, ev('mouse', 0.8)), null);
  assert.equal(s.start(ev('mouse', 0.3)).on, false);
  assert.equal(s.known.size, 0);
});

test('a pen or finger with a constant 0.5, 0 or 1 has no pressure', () => {
  for (const flat of [0.5, 0, 1]) {
    for (const type of ['pen', 'touch']) {
      const s = new PressureSense();
      const t = s.start(ev(type, flat));
      assert.equal(s.first(t), null);
      for (let i = 0; i < 5; i++) assert.equal(s.sample(t, ev(type, flat)), null);
      assert.equal(s.known.size, 0);
    }
  }
  // a finger that goes from 1 to 0 as it lifts: still none
  const s = new PressureSense();
  const t = s.start(ev('touch', 1));
  assert.equal(s.sample(t, ev('touch', 0)), null);
});

test('a pen with a varying pressure has it from its first point, and remembers it', () => {
  const s = new PressureSense();
  const t = s.start(ev('pen', 0.2));
  assert.equal(s.first(t), pressureToP(0.2));
  assert.equal(s.sample(t, ev('pen', 0.9)), pressureToP(0.9));
  // the next pen stroke starting at exactly 0.5 has pressure from the start
  const t2 = s.start(ev('pen', 0.5));
  assert.equal(s.first(t2), pressureToP(0.5));
  // a finger is another pointer type: not known yet
  assert.equal(s.first(s.start(ev('touch', 0.5))), null);
});

test('a stroke that starts at a flat value gets pressure once the value varies', () => {
  const s = new PressureSense();
  const t = s.start(ev('pen', 0.5));
  assert.equal(s.first(t), null);
  assert.equal(s.sample(t, ev('pen', 0.5)), null);
  assert.equal(s.sample(t, ev('pen', 0.62)), pressureToP(0.62));
  assert.equal(s.sample(t, ev('pen', 0.5)), pressureToP(0.5));
  assert.ok(s.known.has('pen'));
});

test('switched off, nothing has pressure, but pressure pointers are still found', () => {
  const found = [];
  const s = new PressureSense((type) => found.push(type));
  s.enabled = false;
  const t = s.start(ev('pen', 0.3));
  assert.equal(s.first(t), null);
  assert.equal(s.sample(t, ev('pen', 0.7)), null);
  const u = s.start(ev('touch', 1));
  assert.equal(s.sample(u, ev('touch', 0.4)), null);
  assert.deepEqual(found, ['pen', 'touch']);
  s.enabled = true;
  assert.equal(s.first(s.start(ev('pen', 0.5))), pressureToP(0.5));
  s.start(ev('pen', 0.3));
  assert.deepEqual(found, ['pen', 'touch'], 'onFound once per pointer type');
});

test('a held touch stroke\'s preview has the pixels that its ops draw on the board', async () => {
  // PreviewLayer only needs a 2D context's putImageData and the ImageData constructor
  globalThis.ImageData ??= class { constructor(data, w, h) { Object.assign(this, { data, width: w, height: h }); } };
  const { PreviewLayer } = await import('../../../web-static/js/board-preview.js');
  const canvas = { width: 0, height: 0, getContext: () => ({ putImageData() {} }) };
  const layer = new PreviewLayer(canvas);
  layer.resize(160, 100);
  // a stroke that starts without pressure and gets it (as a finger that only then varies)
  const pts = [[20, 50, null], [35, 45, null], [50, 55, 90], [70, 40, 200], [95, 60, 30], [120, 50, 255]];
  layer.show([pts[0]], 24, RED);
  for (let i = 1; i < pts.length; i++) layer.extend(pts[i - 1], pts[i], 24, RED);
  const m = new CanvasModel(160, 100);
  m.applyAll([begin(20, 50, { width: 24 }), points(15, -5), ppoints([15, 10, 20, -15, 25, 20, 25, -10], [90, 200, 30, 255]), END]);
  for (let i = 0; i < 160 * 100; i++) {
    const inked = m.raster.data[4 * i + 1] === 0;
    assert.equal(layer.raster.data[4 * i + 3] === 255, inked, `pixel ${i % 160},${Math.floor(i / 160)}`);
  }
});
