import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeHistory, turnKey } from '../../../web-static/js/chat-history.js';

const L = (from, text) => ({ from, name: from.toUpperCase(), text });

test('a reload (nothing on the page) adds the whole history at the top', () => {
  const h = [L('a', 'hi'), L('b', 'yo')];
  assert.deepEqual(mergeHistory([], h), { add: h, atTop: true });
});

test('a reconnect adds only the lines the page missed, at the end', () => {
  const page = [L('a', 'hi'), L('b', 'yo')];
  const h = [L('a', 'hi'), L('b', 'yo'), L('c', 'new'), L('a', 'newer')];
  assert.deepEqual(mergeHistory(page, h), { add: h.slice(2), atTop: false });
});

test('a page that has everything adds nothing', () => {
  const page = [L('x', 'old'), L('a', 'hi'), L('b', 'yo')];
  const h = [L('a', 'hi'), L('b', 'yo')];
  assert.deepEqual(mergeHistory(page, h).add, []);
});

test('the history may start before the page', () => {
  const page = [L('b', 'yo')];
  const h = [L('a', 'hi'), L('b', 'yo'), L('c', 'new')];
  assert.deepEqual(mergeHistory(page, h).add, [L('c', 'new')]);
});

test('repeated texts: the occurrence with the longest matching run wins, nothing twice', () => {
  const page = [L('a', 'x'), L('a', 'x'), L('b', 'y')];
  const h = [L('a', 'x'), L('a', 'x'), L('b', 'y'), L('a', 'x')];
  assert.deepEqual(mergeHistory(page, h).add, [L('a', 'x')]);
  const page2 = [L('b', 'y'), L('a', 'x')];
  const h2 = [L('a', 'x'), L('b', 'y'), L('a', 'x'), L('c', 'z')];
  assert.deepEqual(mergeHistory(page2, h2).add, [L('c', 'z')]);
});

test('a line the server lost (a crash) stays; nothing is re-added', () => {
  const page = [L('a', 'hi'), L('b', 'lost in the crash')];
  assert.deepEqual(mergeHistory(page, [L('a', 'hi')]).add, []);
  assert.deepEqual(mergeHistory(page, []).add, []);
  assert.deepEqual(mergeHistory(page, [L('a', 'hi'), L('c', 'after')]).add, [L('c', 'after')]);
});

test('nothing in common: the whole history is new', () => {
  assert.deepEqual(mergeHistory([L('q', 'old')], [L('a', 'hi')]), { add: [L('a', 'hi')], atTop: false });
});

test('bad history input is ignored', () => {
  assert.deepEqual(mergeHistory([], null).add, []);
  assert.deepEqual(mergeHistory([], [null, 3, L('a', 'ok')]).add, [L('a', 'ok')]);
});

test('turn keys differ by round and drawer', () => {
  assert.equal(turnKey(1, 'a'), turnKey(1, 'a'));
  assert.notEqual(turnKey(1, 'a'), turnKey(2, 'a'));
  assert.notEqual(turnKey(1, 'a'), turnKey(1, 'b'));
});
