// Unit tests of /gallery's pure helpers: the listing's query string and what a report's
// HTTP status tells the reporter (docs/PROTOCOL.md section 10.3).
import test from 'node:test';
import assert from 'node:assert/strict';
import { galleryPath, reportOutcome } from '../../../web-static/js/gallery.js';
import en from '../../../web-static/js/locales/en.js';

test('gallery paths: view, filters and page; a plus stays a plus', () => {
  assert.equal(galleryPath({ view: 'recent', lang: '', word: '', page: 1 }), '/api/gallery?page=1&per=24');
  assert.equal(galleryPath({ view: 'best', lang: 'de', word: 'a+b', page: 2 }), '/api/gallery?sort=best&lang=de&word=a%2Bb&page=2&per=24');
  assert.equal(galleryPath({ view: 'mine', lang: '', word: '', page: 1 }), '/api/gallery/mine?page=1&per=24');
});

test('a report from /gallery: every answer has its own message, in the dictionaries', () => {
  assert.deepEqual(reportOutcome(201), ['report.thanks', 'success']);
  assert.deepEqual(reportOutcome(429), ['error.report_limited', 'error']);
  assert.deepEqual(reportOutcome(403), ['report.own', 'error']);
  assert.deepEqual(reportOutcome(404), ['error.unknown_target', 'error']);
  assert.deepEqual(reportOutcome(401), ['gallery.reportHint', 'error']);
  assert.deepEqual(reportOutcome(0), ['report.failed', 'error'], 'a network failure');
  assert.deepEqual(reportOutcome(500), ['report.failed', 'error']);
  for (const status of [201, 429, 403, 404, 401, 0]) assert.ok(en[reportOutcome(status)[0]], `a text for ${status}`);
});
