// The big-screen page's pure logic (web-static/js/tv-model.js): the code in /tv/CODE, the
// code form's check, the scoreboard without screens, the feed, the reveal's rows, the podium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  tvPathCode, tvPath, checkTvCode, isScreen, scoreboard, spectatorCount, shownCode, HIDDEN_CODE,
  feedFromHistory, addFeed, turnEndRows, podiumOrder, timeFraction, FEED_MAX,
} from '../../../web-static/js/tv-model.js';

test('the code in the path: /tv/CODE, any case; /tv has none', () => {
  assert.equal(tvPathCode('/tv/k7qx2m'), 'K7QX2M');
  assert.equal(tvPathCode('/tv/K7QX2M/'), 'K7QX2M');
  assert.equal(tvPathCode('/tv/k7q-x2m'), 'K7QX2M');
  assert.equal(tvPathCode('/tv'), '');
  assert.equal(tvPathCode('/tv/'), '');
  assert.equal(tvPathCode('/'), '');
  assert.equal(tvPathCode('/tv/a/b'), '');
  assert.equal(tvPath('K7QX2M'), '/tv/K7QX2M');
  assert.equal(tvPath(''), '/tv');
});

test('the code form: lower case and spaces accepted, a wrong code named', () => {
  assert.deepEqual(checkTvCode(' k7qx2m '), { code: 'K7QX2M' });
  assert.deepEqual(checkTvCode('k7q x2m'), { code: 'K7QX2M' });
  assert.deepEqual(checkTvCode(''), { error: 'tv.codeMissing' });
  assert.deepEqual(checkTvCode('   '), { error: 'tv.codeMissing' });
  assert.deepEqual(checkTvCode('k7q'), { error: 'tv.badCode' });
  assert.deepEqual(checkTvCode('K7QX2O'), { error: 'tv.badCode' }); // O is not in the alphabet
});

const players = [
  { id: 'tv1', name: 'TV', score: 0, spectator: true, watching: true },
  { id: 'a', name: 'Ada', score: 120 },
  { id: 'b', name: 'Bob', score: 300, guessed: true },
  { id: 's', name: 'Sam', score: 500, spectator: true },
  { id: 'c', name: 'Cy', score: 120 },
  { id: 'tv2', name: 'Lobby TV', score: 0, spectator: true, watching: true },
];

test('the scoreboard: players by score, no screen, no spectator; equal scores share a place', () => {
  const rows = scoreboard(players);
  assert.deepEqual(rows.map((r) => r.id), ['b', 'a', 'c']);
  assert.deepEqual(rows.map((r) => r.place), [1, 2, 2]);
  assert.ok(rows.every((r) => !isScreen(r)));
  assert.equal(rows[0].guessed, true);
  assert.equal(rows[1].guessed, false);
  assert.equal(rows[0].order, undefined);
  assert.deepEqual(scoreboard(undefined), []);
  assert.deepEqual(scoreboard([players[0]]), []);
});

test("the scoreboard: this turn's guess marks the player and shows its points", () => {
  const rows = scoreboard(players, { c: 80 });
  const cy = rows.find((r) => r.id === 'c');
  assert.equal(cy.guessed, true);
  assert.equal(cy.gain, 80);
  assert.equal(rows.find((r) => r.id === 'a').gain, null);
  // the score itself comes from the room only (no double count)
  assert.equal(cy.score, 120);
});

test('spectators are counted without the screens; a streamer room hides its code', () => {
  assert.equal(spectatorCount(players), 1);
  assert.equal(spectatorCount(null), 0);
  assert.equal(shownCode('K7QX2M', false), 'K7QX2M');
  assert.equal(shownCode('K7QX2M', true), HIDDEN_CODE);
  assert.ok(!shownCode('K7QX2M', true).includes('K'));
});

test('the feed from a chatHistory: the game lines only, the newest kept', () => {
  const lines = [
    { from: 'a', name: 'Ada', text: 'hello' },
    { kind: 'guessed', playerId: 'b', name: 'Bob' },
    { kind: 'close', text: 'hors' },
    { kind: 'reveal', word: 'horse', reason: 'time' },
    { kind: 'passed', playerId: 'bot-1', name: 'Robo' },
    { kind: 'bogus' },
  ];
  assert.deepEqual(feedFromHistory(lines), [
    { kind: 'guessed', name: 'Bob', playerId: 'b' },
    { kind: 'reveal', word: 'horse' },
    { kind: 'passed', name: 'Robo' },
  ]);
  const many = Array.from({ length: 20 }, (_, i) => ({ kind: 'reveal', word: `w${i}` }));
  assert.equal(feedFromHistory(many).length, FEED_MAX);
  assert.equal(feedFromHistory(many).at(-1).word, 'w19');
  assert.deepEqual(feedFromHistory('nope'), []);
});

test('addFeed: newest last, at most FEED_MAX, a keyed item once', () => {
  let feed = [];
  for (let i = 0; i < 10; i++) feed = addFeed(feed, { kind: 'reveal', word: `w${i}` });
  assert.equal(feed.length, FEED_MAX);
  assert.equal(feed.at(-1).word, 'w9');
  const turn = { kind: 'turn', name: 'Ada', key: 'turn:1:a' };
  const once = addFeed(feed, turn);
  assert.equal(addFeed(once, { ...turn }), once);
  assert.equal(addFeed(once, { kind: 'turn', name: 'Bob', key: 'turn:1:b' }).at(-1).name, 'Bob');
});

test('turnEnd rows, the podium order and the timer ring', () => {
  assert.deepEqual(turnEndRows({ a: 50, b: '200', c: 0 }), [{ id: 'b', delta: 200 }, { id: 'a', delta: 50 }, { id: 'c', delta: 0 }]);
  assert.deepEqual(turnEndRows(null), []);
  const ranking = [
    { id: 'a', score: 900, place: 1 }, { id: 'b', score: 500, place: 2 }, { id: 'c', score: 300, place: 3 },
    { id: 'd', score: 100, place: 4 },
  ];
  const { stage, rest } = podiumOrder(ranking);
  assert.deepEqual(stage.map((r) => r.id), ['b', 'a', 'c']); // the winner in the middle
  assert.deepEqual(rest.map((r) => r.id), ['d']);
  assert.deepEqual(podiumOrder([{ id: 'a', score: 5 }, { id: 'b', score: 9 }]).stage.map((r) => r.id), ['a', 'b']);
  assert.deepEqual(podiumOrder([{ id: 'x', score: 1, watching: true }]).stage, []);
  assert.equal(timeFraction(40000, 80000), 0.5);
  assert.equal(timeFraction(90000, 80000), 1);
  assert.equal(timeFraction(-5, 80000), 0);
  assert.equal(timeFraction(1000, 0), 0);
});
