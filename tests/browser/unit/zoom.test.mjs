// The board's pinch-zoom and pan (web-static/js/zoom.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { FIT, MAX_ZOOM, clampView, isZoomed, pinchView, panView, contentAt, viewTransform } from '../../../web-static/js/zoom.js';

const near = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);

test('a view is clamped: 1x to 4x, the board always covering its box', () => {
  assert.deepEqual(clampView({ s: 0.5, x: 0.2, y: -3 }), FIT);
  assert.deepEqual(clampView({ s: 9, x: -5, y: 1 }), { s: MAX_ZOOM, x: 1 - MAX_ZOOM, y: 0 });
  assert.deepEqual(clampView({ s: 2, x: -0.5, y: -0.25 }), { s: 2, x: -0.5, y: -0.25 });
  assert.deepEqual(clampView({ s: NaN, x: undefined, y: 0 }), FIT);
  assert.ok(!isZoomed(FIT));
  assert.ok(isZoomed({ s: 1.5, x: 0, y: 0 }));
  assert.equal(viewTransform(FIT), '');
  assert.match(viewTransform({ s: 2, x: -0.5, y: 0 }), /^translate\(-50\.0000%, 0\.0000%\) scale\(2\.0000\)$/);
});

test('spreading two fingers zooms about their midpoint', () => {
  const m = [0.25, 0.75];
  const v = pinchView(FIT, m, 100, m, 200);
  near(v.s, 2, 'scale');
  // the content point under the fingers stays there
  const [u, w] = contentAt(v, m[0], m[1]);
  near(u, 0.25, 'u');
  near(w, 0.75, 'v');
  // zooming further from there, about another point
  const v2 = pinchView(v, [0.5, 0.5], 50, [0.5, 0.5], 75);
  near(v2.s, 3, 'scale');
  const before = contentAt(v, 0.5, 0.5);
  const after = contentAt(v2, 0.5, 0.5);
  near(after[0], before[0], 'u');
  near(after[1], before[1], 'v');
});

test('zoom stops at 4x and at fit; pinching in fully returns to fit', () => {
  assert.equal(pinchView(FIT, [0.5, 0.5], 10, [0.5, 0.5], 1000).s, MAX_ZOOM);
  assert.deepEqual(pinchView({ s: 3, x: -1, y: -1 }, [0.5, 0.5], 300, [0.5, 0.5], 10), FIT);
});

test('moving two fingers pans; one finger pans a zoomed board', () => {
  const v0 = { s: 2, x: -0.5, y: -0.5 };
  const v = pinchView(v0, [0.5, 0.5], 100, [0.6, 0.4], 100);
  near(v.s, 2, 'scale');
  near(v.x, -0.4, 'x');
  near(v.y, -0.6, 'y');
  const p = panView(v0, 0.1, -0.2);
  near(p.x, -0.4, 'x');
  near(p.y, -0.7, 'y');
  // never past the edges
  assert.deepEqual(panView(v0, 5, -5), { s: 2, x: 0, y: -1 });
  assert.deepEqual(panView(FIT, 0.3, 0.3), FIT);
});
