// Shape tools (web-static/js/shapes.js): geometry, the Shift constraint, and the ops
// that carry a shape as one ordinary pen stroke.
import test from 'node:test';
import assert from 'node:assert/strict';
import { OP, TOOL, MAX_POINTS_PER_OP, encodeOps, decodeOps } from '../../../web-static/js/ops.js';
import { CanvasModel } from '../../../web-static/js/renderer.js';
import {
  constrain, shapePoints, shapePath, shapeOps, strokeOps, ellipsePointCount, isShapeTool,
  ELLIPSE_TOLERANCE, ELLIPSE_MAX_POINTS,
} from '../../../web-static/js/shapes.js';

const RED = [255, 0, 0];
const WHITE = [255, 255, 255];

/** Absolute points of a BEGIN + POINTS... + END list. */
function pointsOf(ops) {
  assert.equal(ops[0].type, OP.BEGIN);
  assert.equal(ops[ops.length - 1].type, OP.END);
  let x = ops[0].x;
  let y = ops[0].y;
  const out = [[x, y]];
  for (const op of ops.slice(1, -1)) {
    assert.equal(op.type, OP.POINTS);
    for (let i = 0; i < op.deltas.length; i += 2) {
      x += op.deltas[i];
      y += op.deltas[i + 1];
      out.push([x, y]);
    }
  }
  return out;
}

test('the shape tools', () => {
  for (const t of ['line', 'rect', 'ellipse']) assert.ok(isShapeTool(t));
  for (const t of ['pen', 'eraser', 'fill', undefined]) assert.ok(!isShapeTool(t));
});

test('Shift: a line snaps to the nearest multiple of 45°', () => {
  assert.deepEqual(constrain('line', 10, 10, 100, 20), [100, 10]); // nearly horizontal
  assert.deepEqual(constrain('line', 10, 10, -80, 15), [-80, 10]); // to the left
  assert.deepEqual(constrain('line', 10, 10, 14, 90), [10, 90]); // nearly vertical, down
  assert.deepEqual(constrain('line', 10, 10, 5, -60), [10, -60]); // up
  assert.deepEqual(constrain('line', 0, 0, 50, 40), [45, 45]); // diagonal, exact
  assert.deepEqual(constrain('line', 0, 0, -50, 40), [-45, 45]);
  assert.deepEqual(constrain('line', 0, 0, -41, -50), [-46, -46]);
  assert.deepEqual(constrain('line', 0, 0, 30, -35), [33, -33]);
  assert.deepEqual(constrain('line', 7, 7, 7, 7), [7, 7]);
  // every constrained direction is one of the eight
  for (let a = 0; a < 360; a += 7) {
    const x = Math.round(100 * Math.cos((a * Math.PI) / 180));
    const y = Math.round(100 * Math.sin((a * Math.PI) / 180));
    const [cx, cy] = constrain('line', 0, 0, x, y);
    assert.ok(cx === 0 || cy === 0 || Math.abs(cx) === Math.abs(cy), `${a}°: ${cx},${cy}`);
    const snapped = (Math.atan2(cy, cx) * 180) / Math.PI;
    const off = Math.abs(((snapped - a + 540) % 360) - 180);
    assert.ok(off <= 22.5 + 1, `${a}° snapped to ${snapped}°`);
  }
});

test('Shift: a rectangle becomes a square, an ellipse a circle, from the start corner', () => {
  assert.deepEqual(constrain('rect', 10, 10, 70, 30), [70, 70]);
  assert.deepEqual(constrain('rect', 10, 10, -20, 50), [-30, 50]);
  assert.deepEqual(constrain('ellipse', 100, 100, 80, 40), [40, 40]);
  assert.deepEqual(constrain('ellipse', 100, 100, 100, 130), [130, 130]); // no width: grows to the right
  const [x1, y1] = constrain('rect', 3, 4, 50, 9);
  assert.equal(Math.abs(x1 - 3), Math.abs(y1 - 4));
});

test('a zero-size drag draws nothing', () => {
  for (const t of ['line', 'rect', 'ellipse']) {
    assert.deepEqual(shapePoints(t, 5, 5, 5, 5), []);
    assert.deepEqual(shapeOps(t, [5, 5], [5, 5], { shift: true }), []);
  }
  assert.deepEqual(strokeOps([]), []);
});

test('a line is its two ends; a rectangle its four corners, closed', () => {
  assert.deepEqual(shapePoints('line', 1, 2, 30, 40), [[1, 2], [30, 40]]);
  assert.deepEqual(shapePoints('rect', 10, 20, 50, 60), [[10, 20], [50, 20], [50, 60], [10, 60], [10, 20]]);
  // dragged up and to the left: the same box
  assert.deepEqual(shapePoints('rect', 50, 60, 10, 20), [[50, 60], [10, 60], [10, 20], [50, 20], [50, 60]]);
  // a flat rectangle is a line there and back, no repeated point
  assert.deepEqual(shapePoints('rect', 10, 20, 50, 20), [[10, 20], [50, 20], [10, 20]]);
});

test('an ellipse: closed, inside its box, every point and chord close to the curve', () => {
  const [x0, y0, x1, y1] = [100, 50, 500, 350];
  const pts = shapePoints('ellipse', x0, y0, x1, y1);
  assert.deepEqual(pts[0], pts[pts.length - 1]);
  const cx = 300, cy = 200, a = 200, b = 150;
  // distance from the ellipse, approximately: |f| / |grad f| for f = (x/a)² + (y/b)² - 1
  const off = ([x, y]) => {
    const u = (x - cx) / a, v = (y - cy) / b;
    const f = u * u + v * v - 1;
    const g = Math.hypot((2 * u) / a, (2 * v) / b);
    return Math.abs(f) / g;
  };
  for (const p of pts) {
    assert.ok(p[0] >= x0 && p[0] <= x1 && p[1] >= y0 && p[1] <= y1, `${p} outside the box`);
    assert.ok(off(p) <= 0.75, `${p} is ${off(p)} off the ellipse`);
  }
  for (let i = 1; i < pts.length; i++) {
    const mid = [(pts[i - 1][0] + pts[i][0]) / 2, (pts[i - 1][1] + pts[i][1]) / 2];
    assert.ok(off(mid) <= ELLIPSE_TOLERANCE + 0.75, `the chord ${i} strays ${off(mid)}`);
  }
  // the four ends of the axes are on it: the shape is symmetric
  for (const p of [[500, 200], [300, 350], [100, 200], [300, 50]]) {
    assert.ok(pts.some((q) => q[0] === p[0] && q[1] === p[1]), `no point at ${p}`);
  }
});

test('an ellipse has more points the larger it is, within bounds', () => {
  const small = ellipsePointCount(10, 6);
  const medium = ellipsePointCount(100, 60);
  const large = ellipsePointCount(400, 300);
  assert.ok(small < medium && medium < large, `${small} ${medium} ${large}`);
  assert.ok(small >= 8);
  assert.ok(large <= ELLIPSE_MAX_POINTS);
  for (const n of [small, medium, large, ellipsePointCount(0, 0), ellipsePointCount(1e6, 1)]) {
    assert.equal(n % 4, 0);
    assert.ok(n >= 8 && n <= ELLIPSE_MAX_POINTS);
  }
  // a large circle on the 800 x 600 board: smooth, yet far below the point budgets
  assert.ok(large >= 60 && large <= 200, `${large}`);
});

test('a shape is one ordinary pen stroke in the given colour and width', () => {
  const ops = shapeOps('rect', [10, 20], [50, 60], { color: RED, width: 6 });
  assert.deepEqual(ops[0], { type: OP.BEGIN, tool: TOOL.PEN, r: 255, g: 0, b: 0, width: 6, x: 10, y: 20 });
  assert.deepEqual(pointsOf(ops), [[10, 20], [50, 20], [50, 60], [10, 60], [10, 20]]);
  assert.equal(ops.length, 3);
  // valid on the wire: encodes and decodes to the same ops
  assert.deepEqual(decodeOps(encodeOps(ops)), ops);
});

test('Shift applies to the ops: a square, a circle, a 45° line', () => {
  const sq = pointsOf(shapeOps('rect', [0, 0], [40, 10], { shift: true }));
  assert.deepEqual(sq, [[0, 0], [40, 0], [40, 40], [0, 40], [0, 0]]);
  const circle = shapePath('ellipse', [0, 0], [80, 30], true);
  const xs = circle.map((p) => p[0]);
  const ys = circle.map((p) => p[1]);
  assert.equal(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  assert.deepEqual(shapePath('line', [0, 0], [90, 10], true), [[0, 0], [90, 0]]);
  assert.deepEqual(shapePath('line', [0, 0], [90, 10], false), [[0, 0], [90, 10]]);
});

test('a long polyline is split into POINTS of at most 1,024 points', () => {
  const pts = [];
  for (let i = 0; i < 2500; i++) pts.push([i % 700, Math.floor(i / 700)]);
  const ops = strokeOps(pts, { width: 2 });
  const sizes = ops.filter((o) => o.type === OP.POINTS).map((o) => o.deltas.length / 2);
  assert.deepEqual(sizes, [MAX_POINTS_PER_OP, MAX_POINTS_PER_OP, 2499 - 2 * MAX_POINTS_PER_OP]);
  assert.deepEqual(pointsOf(ops), pts);
  assert.deepEqual(decodeOps(encodeOps(ops)), ops);
});

test('rendered: ink on the outline, none inside; one undo removes the whole shape', () => {
  const m = new CanvasModel(200, 150);
  m.applyAll(shapeOps('ellipse', [20, 20], [180, 130], { color: RED, width: 4 }));
  for (const [x, y] of [[20, 75], [180, 75], [100, 20], [100, 130]]) assert.deepEqual(m.raster.getPixel(x, y), RED, `${x},${y}`);
  for (const [x, y] of [[100, 75], [50, 75], [150, 75], [100, 35], [100, 115]]) assert.deepEqual(m.raster.getPixel(x, y), WHITE, `${x},${y}`);
  // the ring is closed: a fill inside stays inside
  m.apply({ type: OP.FILL, r: 0, g: 0, b: 255, x: 100, y: 75 });
  assert.deepEqual(m.raster.getPixel(5, 5), WHITE);
  m.apply({ type: OP.UNDO });
  m.applyAll(shapeOps('rect', [40, 40], [160, 110], { color: RED, width: 2 }));
  for (const [x, y] of [[40, 40], [160, 110], [100, 40], [160, 75]]) assert.deepEqual(m.raster.getPixel(x, y), RED, `${x},${y}`);
  assert.deepEqual(m.raster.getPixel(100, 75), WHITE);
  assert.equal(m.items.length, 2);
  m.apply({ type: OP.UNDO });
  assert.equal(m.items.length, 1);
  assert.deepEqual(m.raster.getPixel(100, 40), WHITE); // the rectangle is gone, all of it
  assert.deepEqual(m.raster.getPixel(20, 75), RED); // the ellipse stays
});
