// Issue 39's client logic without a browser: the store's named updates (the word once
// guessed, kept across a reload; gameDrawings), chat history kinds and their merge keys,
// isolated parameters (tParts), clamped settings, notices' field lists, the room list.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.navigator ??= { languages: ['en'] };
const store = await import('../../../web-static/js/store.js');
const { normalizeHistory, contextKey, mergeHistory } = await import('../../../web-static/js/chat-history.js');
const { tParts, DICTIONARIES } = await import('../../../web-static/js/i18n.js');
const { buildSettings, adjustedSettings } = await import('../../../web-static/js/util.js');
const { peopleAndBots, roomMatches, isPlaying } = await import('../../../web-static/js/room-summary.js');

const isDrawingId = (id) => typeof id === 'string' && /^[A-Za-z0-9_-]{22}$/.test(id);
const ID1 = 'AAAAAAAAAAAAAAAAAAAAAA';
const ID2 = 'BBBBBBBBBBBBBBBBBBBBBB';
const room = (extra = {}) => ({
  t: 'room', code: 'K7QX2M', name: 'R', host: 'a', phase: 'drawing', drawer: 'b', round: 1, rounds: 3, mask: '_ _ _',
  players: [{ id: 'a', name: 'Ada', score: 0 }, { id: 'b', name: 'Bo', score: 0 }], ...extra,
});

test('the guesser keeps the word from its guessed message until the turn ends', () => {
  store.resetStore();
  store.setWelcome({ playerId: 'a', name: 'Ada' });
  store.applyRoom(room());
  store.startTurn({ drawer: 'b', round: 1, mask: '_ _ _' });
  assert.equal(store.state.solvedWord, null);
  store.markGuessed({ playerId: 'b', points: 10, word: 'cat' }); // someone else's copy never has it
  assert.equal(store.state.solvedWord, null);
  store.markGuessed({ playerId: 'a', points: 90, word: 'cat' });
  assert.equal(store.state.solvedWord, 'cat');
  store.applyRoom(room({ solvedWord: 'cat' })); // the next room keeps it
  assert.equal(store.state.solvedWord, 'cat');
  store.endTurn({ word: 'cat', reason: 'allGuessed', scores: {} }, isDrawingId);
  assert.equal(store.state.solvedWord, 'cat');
  store.startChoosing('a');
  assert.equal(store.state.solvedWord, null, 'a new turn forgets it');
});

test('a reload: room (with solvedWord) first, then the resent turn keeps the word', () => {
  store.resetStore();
  store.setWelcome({ playerId: 'a', name: 'Ada' });
  store.applyRoom(room({ solvedWord: 'cat' }));
  const { fresh, newTurn } = store.startTurn({ drawer: 'b', round: 1, mask: '_ _ _' });
  assert.deepEqual([fresh, newTurn], [false, false]);
  assert.equal(store.state.solvedWord, 'cat');
  store.applyRoom(room({ phase: 'lobby' }));
  assert.equal(store.state.solvedWord, null);
});

test('nextGameMs is taken from room and dropped when absent', () => {
  store.resetStore();
  store.applyRoom(room({ phase: 'lobby', nextGameMs: 15000 }));
  assert.equal(store.state.nextGameMs, 15000);
  store.applyRoom(room({ phase: 'lobby' }));
  assert.equal(store.state.nextGameMs, null);
});

test('gameDrawings fill this game\'s drawings (or the finished game\'s at gameEnd)', () => {
  store.resetStore();
  store.applyRoom(room());
  const drawings = [
    { id: ID1, png: '/d/x.png', word: 'cat', drawer: 'b', name: 'Bo', round: 1 },
    { id: 'bad', word: 'x', drawer: 'b' },
    { id: ID2, word: 'dog', drawer: 'a', round: 1 },
  ];
  store.setGameDrawings(drawings, isDrawingId);
  assert.deepEqual(store.state.gameDrawings.map((d) => [d.id, d.word, d.drawer, d.drawerId]), [[ID1, 'cat', 'Bo', 'b'], [ID2, 'dog', 'Ada', 'a']]);
  store.applyRoom(room({ phase: 'gameEnd' }));
  store.setGameDrawings(drawings.slice(0, 1), isDrawingId);
  assert.equal(store.state.gameEndDrawings.length, 1);
});

test('the drawer of the ended turn is remembered (no Report on one\'s own drawing)', () => {
  store.resetStore();
  store.setWelcome({ playerId: 'a', name: 'Ada' });
  store.applyRoom(room({ drawer: 'a' }));
  store.endTurn({ word: 'cat', reason: 'time', scores: {}, drawing: { id: ID1 } }, isDrawingId);
  assert.equal(store.state.turnEndDrawer, 'a');
  assert.equal(store.state.gameDrawings[0].drawerId, 'a');
});

test('chat history kinds: checked, with the same merge key as the live line', () => {
  const lines = normalizeHistory([
    { from: 'b', name: 'Bo', text: 'hi' },
    { kind: 'guessed', playerId: 'b', name: 'Bo' },
    { kind: 'close', text: 'cap' },
    { kind: 'reveal', word: 'cat', reason: 'time' },
    { kind: 'passed', playerId: 'bot1', name: 'Pixel' },
    { kind: 'nonsense' },
    { kind: 'reveal' },
    null,
  ]);
  assert.deepEqual(lines.map((l) => l.kind), ['chat', 'guessed', 'close', 'reveal', 'passed']);
  assert.deepEqual(lines[1].key, contextKey('guessed', { playerId: 'b' }));
  assert.deepEqual(lines[3].key, { from: '#reveal', text: 'cat' });
  // the page wrote the first three live: only the rest is new
  const page = [lines[0].key, contextKey('guessed', { playerId: 'b' }), contextKey('close', { text: 'cap' })];
  const { add } = mergeHistory(page, lines.map((l) => ({ ...l.key, line: l })));
  assert.deepEqual(add.map((x) => x.line.kind), ['reveal', 'passed']);
});

test('tParts isolates each parameter', () => {
  assert.deepEqual(tParts('chat.left', { name: '<svg onload=alert(1)>' }), [{ text: '<svg onload=alert(1)>', param: 'name' }, { text: ' left.' }]);
  assert.deepEqual(tParts('chat.left', {}), [{ text: '{name}' }, { text: ' left.' }]);
});

test('the new notices and kick lines exist in every language', () => {
  for (const [code, dict] of Object.entries(DICTIONARIES)) {
    for (const key of ['notice.settings_adjusted', 'notice.slow_down', 'notice.bot_passed', 'chat.kicked', 'chat.votekicked',
      'chat.banned', 'room.solved', 'room.nextGameIn', 'dialog.ok', 'dialog.cancel', 'lobby.withBot', 'lobby.withBots']) {
      assert.ok(dict[key], `${code} lacks ${key}`);
    }
  }
});

test('adjustedSettings names what buildSettings moved into range', () => {
  const raw = { rounds: '99', drawTimeSec: '80', hints: '-3', maxPlayers: '' };
  assert.deepEqual(adjustedSettings(raw, buildSettings(raw)), { rounds: 10, hints: 0 });
  assert.deepEqual(adjustedSettings({ rounds: '3' }, buildSettings({ rounds: '3' })), {});
});

test('room list: people and bots, search, playing phases', () => {
  const t = (k, p) => `${k}:${JSON.stringify(p)}`;
  assert.equal(peopleAndBots({ players: 4, bots: 1 }, t), 'lobby.withBot:{"people":3}');
  assert.equal(peopleAndBots({ players: 5, bots: 2 }, t), 'lobby.withBots:{"people":3,"bots":2}');
  assert.equal(peopleAndBots({ players: 3 }, t), '');
  const r = { name: 'Kaffeerunde', code: 'K7QX2M', language: 'de' };
  assert.ok(roomMatches(r, 'KAFFEE'));
  assert.ok(roomMatches(r, 'k7q'));
  assert.ok(roomMatches(r, 'deutsch', () => 'Deutsch'));
  assert.ok(!roomMatches(r, 'zzz'));
  assert.ok(roomMatches(r, '  '));
  assert.ok(isPlaying('drawing') && !isPlaying('lobby') && !isPlaying('gameEnd'));
});

test('settings_adjusted fields have their form labels (language too)', async () => {
  const { settingLabelKey } = await import('../../../web-static/js/settings-form.js');
  assert.equal(settingLabelKey('rounds'), 'settings.rounds');
  assert.equal(settingLabelKey('drawTimeSec'), 'settings.drawTime');
  assert.equal(settingLabelKey('language'), 'settings.language');
  assert.equal(settingLabelKey('nonsense'), null);
});
