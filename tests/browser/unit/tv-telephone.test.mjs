// The big screen's telephone logic (web-static/js/tv-model.js, "telephone"; PROTOCOL 12.5):
// the step and who has handed it in as the server's `phoneProgress` says (at every step's
// start too, and to a screen that comes in mid-step), who plays (the room message that
// started the game, or the memo a reload keeps), and the album as far as the host has
// revealed it, also for a screen that joins during it. Driven with server messages
// through the player client's store and telephone-model.js, as tv.js does.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.navigator ??= { languages: ['en'] };
const tvm = await import('../../../web-static/js/tv-model.js');
const { initialPhone, applyProgress, applyAlbum, applyReveal } = await import('../../../web-static/js/telephone-model.js');
const store = await import('../../../web-static/js/store.js');

const {
  initialWatch, phoneSeats, watchStart, watchRoom, stepComplete, phoneMemo, restoreWatch, phoneStatus, albumScreen,
  textSize, MEMO_MAX_AGE_MS,
} = tvm;

const players = () => [
  { id: 'tv', name: 'TV', spectator: true, watching: true, connected: true },
  { id: 'a', name: 'Ada', connected: true },
  { id: 'b', name: 'Bob', connected: true },
  { id: 'c', name: 'Cy', connected: true },
  { id: 's', name: 'Sam', spectator: true, connected: true },
  { id: 'd', name: 'Dee', connected: true },
];
const progress = (phone, step, done, remainingMs) => applyProgress(phone, { t: 'phoneProgress', step, done, remainingMs });

test("the game's seats: seated players in the room's order, no screen, no spectator, no bot", () => {
  assert.deepEqual(phoneSeats(players()), ['a', 'b', 'c', 'd']);
  assert.deepEqual(phoneSeats([...players(), { id: 'x', bot: true }]), ['a', 'b', 'c', 'd']);
  assert.deepEqual(phoneSeats(null), []);
  assert.deepEqual(watchStart(players()), { seats: ['a', 'b', 'c', 'd'], sure: true });
  assert.deepEqual(initialWatch(), { seats: [], sure: false });
});

test("the step and who has handed it in are the server's last phoneProgress", () => {
  let phone = progress(initialPhone(), 0, ['a', 'c'], 30000);
  const w = watchStart(players());
  const s = phoneStatus(w, phone, players());
  assert.equal(s.step, 0);
  assert.deepEqual(s.rows.map((r) => [r.id, r.done]), [['a', true], ['b', false], ['c', true], ['d', false]]);
  assert.equal(s.done, 2);
  assert.equal(s.total, 4);
  assert.equal(s.kind, 'write');
  assert.equal(s.steps, 4);
  assert.deepEqual(s.kinds, ['write', 'draw', 'describe', 'draw']);
  assert.equal(s.over, false);
  phone = progress(phone, 0, ['a', 'b', 'c'], 20000);
  assert.equal(phoneStatus(w, phone, players()).done, 3);
});

test("a step's start (nobody done): the next step, without the last one's check marks", () => {
  let phone = progress(initialPhone(), 0, ['a', 'b', 'c', 'd'], 12000);
  const w = watchStart(players());
  let s = phoneStatus(w, phone, players());
  assert.deepEqual([s.step, s.kind, s.done, s.over], [0, 'write', 4, false], 'all in, not the last step: the album is not next');
  phone = progress(phone, 1, [], 80000);
  s = phoneStatus(w, phone, players());
  assert.deepEqual([s.step, s.kind, s.done, s.total], [1, 'draw', 0, 4]);
  assert.ok(s.rows.every((r) => !r.done), "step 0's check marks are not step 1's");
  // a step that ran out: the server's next start says so as well
  phone = progress(phone, 2, [], 40000);
  assert.deepEqual([phoneStatus(w, phone, players()).step, phoneStatus(w, phone, players()).kind], [2, 'describe']);
});

test('before any progress the step is not known (a screen that has just come in)', () => {
  const s = phoneStatus(watchStart(players()), initialPhone(), players());
  assert.deepEqual([s.step, s.kind, s.done, s.over], [null, null, 0, false]);
  assert.ok(s.rows.every((r) => !r.done));
});

test('a disconnected or departed seat does not hold the step up (as on the server)', () => {
  const offline = players().map((p) => (p.id === 'd' ? { ...p, connected: false } : p));
  const phone = progress(initialPhone(), 3, ['a', 'b', 'c']);
  assert.equal(stepComplete(['a', 'b', 'c', 'd'], phone.done, offline), true);
  assert.equal(stepComplete(['a', 'b', 'c', 'd'], phone.done, players()), false);
  assert.equal(phoneStatus(watchStart(players()), phone, offline).over, true, 'the last step: the album comes');
  const gone = players().filter((p) => p.id !== 'd');
  assert.equal(phoneStatus(watchStart(players()), phone, gone).over, true);
  const s = phoneStatus(watchStart(players()), progress(initialPhone(), 0, ['a']), offline);
  assert.deepEqual(s.rows.find((r) => r.id === 'd'), { id: 'd', done: false, offline: true });
  assert.equal(stepComplete([], [], players()), false, 'no seats: nothing is complete');
});

test('the last step handed in: the album comes', () => {
  const phone = progress(initialPhone(), 3, ['a', 'b', 'c', 'd']);
  const s = phoneStatus(watchStart(players()), phone, players());
  assert.equal(s.over, true);
  assert.equal(s.kind, null);
  assert.equal(phoneStatus(watchStart(players()), progress(initialPhone(), 3, ['a']), players()).over, false);
});

test('a screen that came in during the steps: the seated players as a guess, its step from the progress', () => {
  const withLate = [...players(), { id: 'late', name: 'Late', connected: true }];
  const { seats, sure } = restoreWatch(null, { code: 'K7QX2M', players: withLate, now: 1e6 });
  assert.deepEqual([seats, sure], [['a', 'b', 'c', 'd', 'late'], false]);
  const phone = progress(initialPhone(), 3, ['c'], 50000);
  const s = phoneStatus({ seats, sure }, phone, withLate);
  assert.deepEqual([s.step, s.kind, s.done, s.total], [3, 'draw', 1, 5]);
});

test('a later room message keeps the seats the screen saw at the start', () => {
  const w = watchStart(players());
  const later = [...players(), { id: 'late', name: 'Late', connected: true }];
  assert.equal(watchRoom(w, later), w);
  assert.deepEqual(watchRoom(initialWatch(), later), { seats: ['a', 'b', 'c', 'd', 'late'], sure: false });
});

test('the memo a reload keeps: the seats the screen saw at the start, ids only', () => {
  assert.deepEqual(phoneMemo(watchStart(players()), 'K7QX2M', 5000), { code: 'K7QX2M', seats: ['a', 'b', 'c', 'd'], at: 5000 });
  assert.equal(phoneMemo({ seats: ['a', 'b'], sure: false }, 'K7QX2M', 5000), null, 'a guess is not kept: it is made again');
  assert.equal(phoneMemo(initialWatch(), 'K7QX2M', 5000), null);
});

test("a reload: the memo's seats when it is this room's and recent, else a guess", () => {
  const memo = { code: 'K7QX2M', seats: ['a', 'b', 'c'], at: 30000 };
  const later = [...players(), { id: 'late', name: 'Late', connected: true }];
  assert.deepEqual(restoreWatch(memo, { code: 'K7QX2M', players: later, now: 32000 }), { seats: ['a', 'b', 'c'], sure: true });
  const guess = { seats: ['a', 'b', 'c', 'd', 'late'], sure: false };
  assert.deepEqual(restoreWatch(memo, { code: 'ZZZZZZ', players: later, now: 32000 }), guess, 'another room');
  assert.deepEqual(restoreWatch(memo, { code: 'K7QX2M', players: later, now: 30000 + MEMO_MAX_AGE_MS + 1 }), guess, 'too old');
  assert.deepEqual(restoreWatch(memo, { code: 'K7QX2M', players: later, now: 29000 }), guess, 'from the future');
  assert.deepEqual(restoreWatch({ code: 'K7QX2M', seats: 'a', at: 1 }, { code: 'K7QX2M', players: later, now: 2 }), guess, 'junk');
  // the memo's seats (the game's) count, not the room's seated players now
  const phone = progress(initialPhone(), 1, ['b'], 20000);
  assert.equal(phoneStatus(restoreWatch(memo, { code: 'K7QX2M', players: later, now: 32000 }), phone, later).steps, 3);
});

test('the steps view holds who, never what', () => {
  const phone = { ...progress(initialPhone(), 1, ['a']), prompt: 'A castle of cheese', myText: 'A castle of cheese' };
  const s = phoneStatus({ ...watchStart(players()), step: 1, clock: null }, phone, players());
  assert.doesNotMatch(JSON.stringify(s), /cheese/);
});

const album = {
  t: 'album',
  chains: [
    { owner: 'a', entries: [
      { kind: 'text', by: 'a', text: 'A giraffe at the beach' },
      { kind: 'drawing', by: 'b', drawing: { id: 'd1', png: '/d/d1.png', timelapse: '/d/d1.apng' } },
      { kind: 'text', by: 'c', text: 'Long neck on holiday' },
      { kind: 'drawing', by: 'd' },
    ] },
    { owner: 'b', entries: [
      { kind: 'text', by: 'b', text: '' },
      { kind: 'drawing', by: 'c', drawing: { id: 'd2', png: '/d/d2.png' } },
      { kind: 'text', by: 'd', text: 'Anything' },
      { kind: 'drawing', by: 'a', drawing: { id: 'd3', png: '/d/d3.png' } },
    ] },
  ],
};

test('the album: the title card, then each entry with the one it answers, nothing past the reveal', () => {
  let phone = applyAlbum(initialPhone(), album);
  let a = albumScreen(phone);
  assert.equal(a.title, true);
  assert.equal(a.owner, 'a');
  assert.equal(a.count, 2);
  assert.equal(a.total, 4);
  assert.deepEqual(a.entries, []);
  assert.equal(a.main, null);
  phone = applyReveal(phone, { chain: 0, entry: 0 });
  a = albumScreen(phone);
  assert.equal(a.title, false);
  assert.equal(a.main.text, 'A giraffe at the beach');
  assert.equal(a.before, null);
  phone = applyReveal(phone, { chain: 0, entry: 1 });
  a = albumScreen(phone);
  assert.equal(a.main.drawing.png, '/d/d1.png');
  assert.equal(a.before.text, 'A giraffe at the beach');
  assert.doesNotMatch(JSON.stringify(a), /Long neck|d2|Anything/, 'nothing the host has not revealed');
  phone = applyReveal(phone, { chain: 0, entry: 3 });
  a = albumScreen(phone);
  assert.equal(a.main.drawing, null, 'a drawing left empty');
  assert.equal(a.entries.length, 4);
  phone = applyReveal(phone, { chain: 1, entry: -1 });
  a = albumScreen(phone);
  assert.deepEqual([a.title, a.owner, a.chain, a.entries.length], [true, 'b', 1, 0]);
  assert.doesNotMatch(JSON.stringify(a), /giraffe|d2/);
  assert.equal(albumScreen(initialPhone()), null, 'before the album');
});

test('text sizes: shorter texts larger', () => {
  assert.equal(textSize('A cat'), 'short');
  assert.equal(textSize('A castle made of Swiss cheese with a moat'), 'medium');
  assert.equal(textSize('x'.repeat(100)), 'long');
});

test('through the store, as tv.js does: start, progress with clocks, the next step, the album, the lobby', () => {
  store.resetStore();
  store.setWelcome({ playerId: 'tv' });
  const room = (phase, extra = {}) => ({ t: 'room', code: 'K7QX2M', phase, players: players(), settings: { mode: 'telephone', writeTimeSec: 40, drawTimeSec: 80 }, remainingMs: 40000, ...extra });
  store.applyRoom(room('lobby'));
  const { prevPhase } = store.applyRoom(room('telephone'));
  assert.equal(prevPhase, 'lobby');
  const w = watchStart(store.state.room.players);
  const status = () => phoneStatus(w, store.state.phone, store.state.room.players);
  store.setPhoneProgress({ t: 'phoneProgress', step: 0, done: [], remainingMs: 40000 });
  assert.deepEqual([status().step, status().done], [0, 0]);
  store.setPhoneProgress({ t: 'phoneProgress', step: 0, done: ['a', 'b'], remainingMs: 31000 });
  assert.equal(status().done, 2);
  store.setPhoneProgress({ t: 'phoneProgress', step: 0, done: ['a', 'b', 'c', 'd'], remainingMs: 25000 });
  store.setPhoneProgress({ t: 'phoneProgress', step: 1, done: [], remainingMs: 80000 });
  assert.deepEqual([status().step, status().kind, status().done], [1, 'draw', 0]);
  store.setPhoneProgress({ t: 'phoneProgress', step: 1, done: ['d'], remainingMs: 70000 });
  assert.deepEqual([status().step, status().kind, status().done], [1, 'draw', 1]);
  store.setAlbum(album);
  assert.equal(store.state.phase, 'album');
  store.setAlbumReveal({ t: 'albumReveal', chain: 0, entry: 0 });
  assert.equal(albumScreen(store.state.phone).main.by, 'a');
  store.applyRoom(room('lobby', { remainingMs: 0 }));
  assert.equal(albumScreen(store.state.phone), null, 'back in the lobby: no album held');
  store.resetStore();
});

test("a screen that joins during the album: the room, then the album at the host's entry", () => {
  store.resetStore();
  store.setWelcome({ playerId: 'tv' });
  const { firstEntry } = store.applyRoom({ t: 'room', code: 'K7QX2M', phase: 'album', players: players(), settings: { mode: 'telephone' } });
  assert.equal(firstEntry, true);
  assert.equal(albumScreen(store.state.phone), null, 'before the album comes');
  store.setAlbum(album);
  store.setAlbumReveal({ t: 'albumReveal', chain: 1, entry: 2 });
  const a = albumScreen(store.state.phone);
  assert.deepEqual([a.chain, a.newest, a.main.text, a.before.by, a.title], [1, 2, 'Anything', 'c', false]);
  assert.doesNotMatch(JSON.stringify(a), /d3/, 'nothing past the host');
  store.resetStore();
});
