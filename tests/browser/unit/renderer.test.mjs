// Unit tests for the rasteriser and the op-log renderer semantics (protocol 5.2).
import test from 'node:test';
import assert from 'node:assert/strict';
import { OP, TOOL, encodeOps, decodeOps } from '../../../web-static/js/ops.js';
import { Raster } from '../../../web-static/js/raster.js';
import { CanvasModel } from '../../../web-static/js/renderer.js';

const WHITE = [255, 255, 255];
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
const begin = (x, y, { width = 4, c = RED, tool = TOOL.PEN } = {}) => ({ type: OP.BEGIN, tool, r: c[0], g: c[1], b: c[2], width, x, y });
const points = (...deltas) => ({ type: OP.POINTS, deltas });
const END = { type: OP.END };
const UNDO = { type: OP.UNDO };
const CLEAR = { type: OP.CLEAR };
const fill = (x, y, c) => ({ type: OP.FILL, r: c[0], g: c[1], b: c[2], x, y });

function countColour(model, c) {
  const d = model.raster.data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] === c[0] && d[i + 1] === c[1] && d[i + 2] === c[2]) n++;
  return n;
}
function snapshot(model) {
  return Buffer.from(model.raster.data).toString('base64');
}

test('a new canvas is white', () => {
  const m = new CanvasModel(40, 30);
  assert.equal(countColour(m, WHITE), 40 * 30);
  assert.equal(m.w, 40);
  assert.equal(m.h, 30);
});

test('BEGIN + END with no POINTS draws a dot of the given width', () => {
  const m = new CanvasModel(40, 40);
  m.applyAll([begin(20, 20, { width: 6 }), END]);
  assert.deepEqual(m.raster.getPixel(20, 20), RED);
  assert.deepEqual(m.raster.getPixel(23, 20), RED); // radius 3
  assert.deepEqual(m.raster.getPixel(24, 20), WHITE);
  assert.deepEqual(m.raster.getPixel(22, 22), RED); // sqrt(8) < 3: round, not square
  assert.deepEqual(m.raster.getPixel(23, 23), WHITE); // sqrt(18) > 3
});

test('POINTS are relative to the previous point and drawn with round caps', () => {
  const m = new CanvasModel(60, 40);
  m.applyAll([begin(10, 10, { width: 4 }), points(20, 0, 0, 10), END]);
  assert.deepEqual(m.lastPoint, null);
  for (let x = 10; x <= 30; x++) assert.deepEqual(m.raster.getPixel(x, 10), RED, `x=${x}`);
  for (let y = 10; y <= 20; y++) assert.deepEqual(m.raster.getPixel(30, y), RED, `y=${y}`);
  assert.deepEqual(m.raster.getPixel(8, 10), RED); // cap extends by the radius
  assert.deepEqual(m.raster.getPixel(7, 10), WHITE);
  assert.deepEqual(m.raster.getPixel(20, 15), WHITE);
});

test('width 1 draws single pixels', () => {
  const m = new CanvasModel(10, 10);
  m.applyAll([begin(2, 2, { width: 1 }), points(4, 0), END]);
  assert.equal(countColour(m, RED), 5);
});

test('points outside the canvas are clipped', () => {
  const m = new CanvasModel(20, 20);
  m.applyAll([begin(-20, 10, { width: 2 }), points(60, 0), END]);
  assert.deepEqual(m.raster.getPixel(0, 10), RED);
  assert.deepEqual(m.raster.getPixel(19, 10), RED);
});

test('an eraser paints white whatever the colour bytes say', () => {
  const m = new CanvasModel(20, 20);
  m.applyAll([fill(0, 0, BLUE), begin(10, 10, { width: 4, c: RED, tool: TOOL.ERASER }), END]);
  assert.deepEqual(m.raster.getPixel(10, 10), WHITE);
  assert.deepEqual(m.raster.getPixel(0, 0), BLUE);
});

test('FILL floods the 4-connected region of the exact colour only', () => {
  const m = new CanvasModel(30, 30);
  // a closed box outline of width 1 from (5,5) to (15,15)
  m.applyAll([begin(5, 5, { width: 1 }), points(10, 0, 0, 10, -10, 0, 0, -10), END]);
  m.apply(fill(10, 10, BLUE));
  assert.deepEqual(m.raster.getPixel(10, 10), BLUE);
  assert.deepEqual(m.raster.getPixel(6, 6), BLUE);
  assert.deepEqual(m.raster.getPixel(14, 14), BLUE);
  assert.deepEqual(m.raster.getPixel(5, 10), RED);
  assert.deepEqual(m.raster.getPixel(2, 2), WHITE);
  assert.equal(countColour(m, BLUE), 9 * 9);
});

test('FILL does not leak through diagonal gaps (4-connectivity)', () => {
  const r = new Raster(3, 3);
  // diagonal of red from (0,2) to (2,0)
  for (const [x, y] of [[0, 2], [1, 1], [2, 0]]) r.segment(x, y, x, y, 1, 255, 0, 0);
  r.floodFill(0, 0, 0, 0, 255);
  assert.deepEqual(r.getPixel(0, 0), BLUE);
  assert.deepEqual(r.getPixel(1, 0), BLUE);
  assert.deepEqual(r.getPixel(0, 1), BLUE);
  assert.deepEqual(r.getPixel(2, 2), WHITE);
});

test('FILL of a big region is iterative (no stack overflow) and a same-colour fill is a no-op', () => {
  const m = new CanvasModel(800, 600);
  // a zig-zag maze of lines makes many spans
  for (let x = 10; x < 790; x += 4) m.applyAll([begin(x, x % 8 === 2 ? 0 : 599, { width: 1 }), points(0, x % 8 === 2 ? 590 : -590), END]);
  m.apply(fill(0, 0, BLUE));
  assert.deepEqual(m.raster.getPixel(0, 0), BLUE);
  assert.deepEqual(m.raster.getPixel(799, 599), BLUE);
  const before = snapshot(m);
  m.apply(fill(0, 0, BLUE));
  assert.equal(snapshot(m), before);
});

test('UNDO removes the most recent stroke or fill and re-renders', () => {
  const m = new CanvasModel(40, 40);
  m.applyAll([begin(10, 10), points(10, 0), END]);
  const afterFirst = snapshot(m);
  m.applyAll([fill(0, 0, BLUE)]);
  m.apply(UNDO);
  assert.equal(snapshot(m), afterFirst);
  m.apply(UNDO);
  assert.equal(countColour(m, WHITE), 40 * 40);
  m.apply(UNDO); // nothing left: no-op
  assert.equal(countColour(m, WHITE), 40 * 40);
});

test('UNDO while a stroke is open ends it first and removes it', () => {
  const m = new CanvasModel(40, 40);
  m.applyAll([begin(5, 5, { c: BLUE }), END, begin(20, 20), points(5, 5)]);
  assert.ok(m.strokeOpen);
  m.apply(UNDO);
  assert.ok(!m.strokeOpen);
  assert.deepEqual(m.raster.getPixel(20, 20), WHITE);
  assert.deepEqual(m.raster.getPixel(5, 5), BLUE);
  m.apply(points(1, 1)); // no open stroke: ignored
  assert.deepEqual(m.raster.getPixel(5, 5), BLUE);
});

test('BEGIN, FILL and CLEAR while a stroke is open end it first', () => {
  const m = new CanvasModel(40, 40);
  m.applyAll([begin(5, 5), begin(30, 30, { c: BLUE }), points(2, 0)]);
  assert.equal(m.items.length, 2);
  m.apply(fill(0, 39, [0, 255, 0]));
  assert.ok(!m.strokeOpen);
  m.apply(points(5, 5)); // ignored
  assert.deepEqual(m.raster.getPixel(37, 35), [0, 255, 0]);
  m.apply(UNDO); // removes the fill
  assert.deepEqual(m.raster.getPixel(0, 39), WHITE);
  assert.deepEqual(m.raster.getPixel(32, 30), BLUE);
  m.applyAll([begin(1, 1), CLEAR]);
  assert.ok(!m.strokeOpen);
  assert.equal(countColour(m, WHITE), 40 * 40);
});

test('UNDO after CLEAR does not bring back what was cleared', () => {
  const m = new CanvasModel(40, 40);
  m.applyAll([begin(10, 10), points(10, 10), END, CLEAR, UNDO]);
  assert.equal(countColour(m, WHITE), 40 * 40);
  m.applyAll([begin(5, 5, { c: BLUE }), END, begin(30, 30), END, UNDO]);
  assert.deepEqual(m.raster.getPixel(5, 5), BLUE, 'strokes after the clear stay until undone');
  assert.deepEqual(m.raster.getPixel(30, 30), WHITE);
  m.applyAll([UNDO, UNDO]);
  assert.equal(countColour(m, WHITE), 40 * 40);
});

test('UNDO re-renders fills against the canvas as it was at the time', () => {
  const m = new CanvasModel(30, 30);
  m.applyAll([begin(0, 15, { width: 1 }), points(29, 0), END]); // splits the canvas
  m.apply(fill(0, 0, BLUE)); // top half only
  m.applyAll([begin(5, 25, { c: BLUE }), END]);
  m.apply(UNDO); // remove the dot; the fill must still stop at the line
  assert.deepEqual(m.raster.getPixel(0, 0), BLUE);
  assert.deepEqual(m.raster.getPixel(0, 20), WHITE);
  assert.deepEqual(m.raster.getPixel(5, 25), WHITE);
});

test('ops survive encode -> decode -> render identically to direct rendering', () => {
  const ops = [begin(100, 100, { width: 12 }), points(30, 5, 10, 40, -60, 3), END, fill(700, 500, BLUE), begin(200, 300, { width: 3, c: BLUE }), points(1, 1), UNDO];
  const a = new CanvasModel();
  a.applyAll(ops);
  const b = new CanvasModel();
  b.applyAll(decodeOps(encodeOps(ops)));
  assert.equal(snapshot(a), snapshot(b));
});

test('reset gives a white canvas, an empty log and can change the size', () => {
  const m = new CanvasModel(40, 40);
  m.applyAll([begin(10, 10), END]);
  m.reset();
  assert.equal(countColour(m, WHITE), 1600);
  assert.equal(m.items.length, 0);
  m.reset(10, 5);
  assert.equal(m.raster.data.length, 10 * 5 * 4);
});

test('dirty rectangle covers what changed', () => {
  const r = new Raster(100, 100);
  r.dirty.reset();
  r.segment(10, 10, 20, 10, 4, 0, 0, 0);
  assert.deepEqual([r.dirty.x0, r.dirty.y0, r.dirty.x1, r.dirty.y1], [8, 8, 22, 12]);
});
