// The big-screen page's pure decisions (web-static/js/tv-model.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeCode, codeFromPath, scoreboard, clock, shownCode } from '../../../web-static/js/tv-model.js';

test('a typed code is read in any case, and refused when it cannot be one', () => {
  assert.equal(normalizeCode(' k7qx2m '), 'K7QX2M');
  assert.equal(normalizeCode('K7QX2'), null);
  assert.equal(normalizeCode('K7QX2O'), null, 'O is not in the alphabet');
  assert.equal(normalizeCode(''), null);
});

test('the path names the room', () => {
  assert.equal(codeFromPath('/tv/k7qx2m'), 'K7QX2M');
  assert.equal(codeFromPath('/tv/K7QX2M/'), 'K7QX2M');
  assert.equal(codeFromPath('/tv'), null);
  assert.equal(codeFromPath('/tv/'), null);
  assert.equal(codeFromPath('/tv/nope'), null);
});

test('the scoreboard lists players only, best first, marking who guessed and who draws', () => {
  const players = [
    { id: 'a', name: 'Ada', score: 120 },
    { id: 'tv', name: 'TV', score: 0, spectator: true, watching: true },
    { id: 's', name: 'Sam', score: 500, spectator: true },
    { id: 'b', name: 'Bob', score: 300 },
    { id: 'c', name: 'Cy', score: 120, guessed: true },
  ];
  const rows = scoreboard(players, { drawer: 'a', guessed: new Set(['b']) });
  assert.deepEqual(rows.map((r) => r.id), ['b', 'a', 'c']);
  assert.deepEqual(rows.map((r) => [r.guessedNow, r.drawing]), [[true, false], [false, true], [true, false]]);
  assert.deepEqual(scoreboard(undefined), []);
});

test('the clock reads m:ss and never goes below zero', () => {
  assert.equal(clock(80_000), '1:20');
  assert.equal(clock(9_001), '0:10');
  assert.equal(clock(-5), '0:00');
});

test("a streamer's code is masked in the corner", () => {
  assert.equal(shownCode({ code: 'K7QX2M', settings: {} }), 'K7QX2M');
  assert.equal(shownCode({ code: 'K7QX2M', settings: { streamer: true } }), '••••••');
  assert.equal(shownCode(null), '');
});
