import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeHistory, turnKey } from '../../../web-static/js/chat-history.js';

const L = (from, text) => ({ from, name: from.toUpperCase(), text });

test('a reload (nothing on the page) adds the whole history', () => {
  const h = [L('a', 'hi'), L('b', 'yo')];
  assert.deepEqual(mergeHistory([], h), { replace: false, add: h });
});

test('a reconnect adds only the lines the page missed', () => {
  const page = [L('a', 'hi'), L('b', 'yo')];
  const h = [L('a', 'hi'), L('b', 'yo'), L('c', 'new'), L('a', 'newer')];
  assert.deepEqual(mergeHistory(page, h), { replace: false, add: h.slice(2) });
});

test('a page that has everything adds nothing', () => {
  const page = [L('x', 'old'), L('a', 'hi'), L('b', 'yo')];
  const h = [L('a', 'hi'), L('b', 'yo')];
  assert.deepEqual(mergeHistory(page, h), { replace: false, add: [] });
});

test('the history may start before the page; the run inside it is matched', () => {
  const page = [L('b', 'yo')];
  const h = [L('a', 'hi'), L('b', 'yo'), L('c', 'new')];
  assert.deepEqual(mergeHistory(page, h).add, [L('c', 'new')]);
});

test('repeated texts: the longest run wins, so no line is added twice', () => {
  const page = [L('a', 'x'), L('a', 'x'), L('b', 'y')];
  const h = [L('a', 'x'), L('a', 'x'), L('b', 'y'), L('a', 'x')];
  assert.deepEqual(mergeHistory(page, h).add, [L('a', 'x')]);
});

test('no overlap replaces the page chat lines', () => {
  const page = [L('q', 'gone')];
  const h = [L('a', 'hi')];
  assert.deepEqual(mergeHistory(page, h), { replace: true, add: h });
});

test('bad history input is ignored', () => {
  assert.deepEqual(mergeHistory([], null), { replace: false, add: [] });
  assert.deepEqual(mergeHistory([], [null, 3, L('a', 'ok')]).add, [L('a', 'ok')]);
});

test('turn keys differ by round and drawer', () => {
  assert.equal(turnKey(1, 'a'), turnKey(1, 'a'));
  assert.notEqual(turnKey(1, 'a'), turnKey(2, 'a'));
  assert.notEqual(turnKey(1, 'a'), turnKey(1, 'b'));
});
