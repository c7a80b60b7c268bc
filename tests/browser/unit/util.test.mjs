// Unit tests for the pure helpers (codes, masks, countdowns, settings, rankings, backoff).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  normalizeCode, isValidCode, cleanName, maskWords, maskLengths, maskForWord, revealedCount, Countdown,
  formatSeconds, parseCustomWords, buildSettings, withPlaces, backoffDelay, closePolicy, streakPolicy, toLogical,
} from '../../../web-static/js/util.js';

test('room codes: case-insensitive input, alphabet and length validated', () => {
  assert.equal(normalizeCode(' k7qx2m '), 'K7QX2M');
  assert.equal(normalizeCode('k7q-x2m'), 'K7QX2M');
  assert.ok(isValidCode('K7QX2M'));
  assert.ok(!isValidCode('K7QX2'));
  assert.ok(!isValidCode('K7QX2MM'));
  for (const bad of ['K7QX2O', 'K7QX20', 'K7QXI2', 'K7QX12', 'k7qx2m']) assert.ok(!isValidCode(bad), bad);
});

test('names are 1..24 characters after trimming', () => {
  assert.equal(cleanName('  Ada '), 'Ada');
  assert.equal(cleanName(''), null);
  assert.equal(cleanName('   '), null);
  assert.equal(cleanName('x'.repeat(24)), 'x'.repeat(24));
  assert.equal(cleanName('x'.repeat(25)), null);
  assert.equal(cleanName('😀'.repeat(24)), '😀'.repeat(24));
});

test('masks: words separated by three spaces, letters by one', () => {
  const mask = '_ _ _   _ _';
  assert.deepEqual(maskWords(mask), [['_', '_', '_'], ['_', '_']]);
  assert.deepEqual(maskLengths(mask), [3, 2]);
  assert.deepEqual(maskLengths("_ - _ _   _ ' _"), [3, 2]);
  assert.deepEqual(maskLengths(''), []);
  assert.equal(maskForWord('hot dog'), '_ _ _   _ _ _');
  assert.equal(maskForWord("jack-o'-lantern"), "_ _ _ _ - _ ' - _ _ _ _ _ _ _");
  assert.equal(revealedCount('c _ _   _ a'), 2);
  assert.equal(revealedCount(maskForWord('giraffe')), 0);
});

test('Countdown follows remainingMs durations with an injected clock', () => {
  let now = 1000;
  const c = new Countdown(() => now);
  assert.ok(!c.running);
  assert.equal(c.remainingMs(), 0);
  c.set(80000);
  assert.ok(c.running);
  assert.equal(c.seconds(), 80);
  now += 500;
  assert.equal(c.remainingMs(), 79500);
  assert.equal(c.seconds(), 80, 'rounds up');
  now += 79600;
  assert.equal(c.remainingMs(), 0);
  assert.equal(c.seconds(), 0);
  c.set(-5);
  assert.ok(!c.running);
  c.set(1000);
  c.stop();
  assert.ok(!c.running);
});

test('formatSeconds', () => {
  assert.equal(formatSeconds(5), '5');
  assert.equal(formatSeconds(59.9), '59');
  assert.equal(formatSeconds(80), '1:20');
  assert.equal(formatSeconds(-3), '0');
});

test('custom words: lines or commas, trimmed, de-duplicated, at most 500', () => {
  assert.deepEqual(parseCustomWords('apple, banana\n  cherry pie \n\nApple,,'), ['apple', 'banana', 'cherry pie']);
  assert.equal(parseCustomWords(Array.from({ length: 600 }, (_, i) => `w${i}`).join(',')).length, 500);
  assert.deepEqual(parseCustomWords(''), []);
});

test('settings are clamped to the protocol ranges', () => {
  const s = buildSettings({ rounds: '99', drawTimeSec: '10', maxPlayers: '8', wordChoices: 'x', hints: '-1', customWords: 'a,b', customOnly: true });
  assert.deepEqual(s, { rounds: 10, drawTimeSec: 30, maxPlayers: 8, wordChoices: 3, hints: 0, customWords: ['a', 'b'], customOnly: true, language: 'en', streamer: false, writeTimeSec: 40, mode: 'classic' });
  assert.equal(buildSettings({ customOnly: true }).customOnly, false, 'customOnly needs custom words');
});

test('ranking: equal scores share a place', () => {
  const r = withPlaces([{ id: 'a', name: 'A', score: 10 }, { id: 'b', name: 'B', score: 30 }, { id: 'c', name: 'C', score: 10 }, { id: 'd', name: 'D', score: 5 }]);
  assert.deepEqual(r.map((x) => [x.id, x.place]), [['b', 1], ['a', 2], ['c', 2], ['d', 4]]);
  const s = withPlaces([{ id: 'x', score: 1, place: 2 }, { id: 'y', score: 2, place: 1 }]);
  assert.deepEqual(s.map((x) => x.id), ['y', 'x'], 'server places are kept');
  assert.deepEqual(withPlaces(undefined), []);
});

test('backoff is exponential, capped and jittered into [50%, 100%]', () => {
  assert.equal(backoffDelay(0, { random: () => 1 }), 500);
  assert.equal(backoffDelay(0, { random: () => 0 }), 250);
  assert.equal(backoffDelay(3, { random: () => 1 }), 4000);
  assert.equal(backoffDelay(20, { random: () => 1 }), 15000);
  assert.equal(backoffDelay(20, { random: () => 0 }), 7500);
  for (let i = 0; i < 100; i++) {
    const d = backoffDelay(2);
    assert.ok(d >= 1000 && d <= 2000);
  }
});

test('close codes: 4001 does not reconnect, 1012/4008 and others do', () => {
  assert.equal(closePolicy(4001).reconnect, false);
  assert.match(closePolicy(4001).message, /another tab/);
  assert.equal(closePolicy(1012).reconnect, true);
  assert.equal(closePolicy(1012).fast, true);
  assert.equal(closePolicy(4008).reconnect, true);
  assert.equal(closePolicy(1006).reconnect, true);
  assert.equal(closePolicy(1008).slow, true);
});

test('failed reconnect attempts keep the reason of the first close', () => {
  const restart = streakPolicy(1012, null);
  assert.match(restart.message, /restarting/);
  assert.equal(streakPolicy(1006, restart), restart, '1006 while the server is down keeps 1012');
  assert.match(streakPolicy(1006, null).message, /Connection lost/);
  assert.equal(streakPolicy(4001, restart).reconnect, false, 'a real close code wins');
  assert.equal(streakPolicy(1006, streakPolicy(1008, null)).slow, true, 'the slow pace is kept');
});

test('pointer positions map to logical canvas coordinates', () => {
  const rect = { left: 10, top: 20, width: 400, height: 300 };
  assert.deepEqual(toLogical(10, 20, rect, 800, 600), [0, 0]);
  assert.deepEqual(toLogical(210, 170, rect, 800, 600), [400, 300]);
  assert.deepEqual(toLogical(409.9, 319.9, rect, 800, 600), [799, 599]);
  assert.deepEqual(toLogical(-10000, 10000, rect, 800, 600), [-800, 1199], 'clamped to [-w, 2w) x [-h, 2h)');
});
