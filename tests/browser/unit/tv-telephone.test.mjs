// The big screen's telephone logic (web-static/js/tv-model.js, "telephone"; PROTOCOL 12.5):
// what a watching screen can tell of the steps from `room`, `phoneProgress` and its own
// countdown (never a clock it was not told), what a reload keeps, and the album as far
// as the host has revealed it. Driven with server messages through the player client's
// store and telephone-model.js, as tv.js does.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.navigator ??= { languages: ['en'] };
const tvm = await import('../../../web-static/js/tv-model.js');
const { initialPhone, applyProgress, applyAlbum, applyReveal } = await import('../../../web-static/js/telephone-model.js');
const store = await import('../../../web-static/js/store.js');

const {
  initialWatch, phoneSeats, watchStart, watchRoom, watchSettle, watchTimeUp, stepComplete,
  phoneMemo, restoreWatch, phoneStatus, albumScreen, textSize, CLOCK_UNKNOWN_STEP, MEMO_MAX_AGE_MS,
} = tvm;

const players = () => [
  { id: 'tv', name: 'TV', spectator: true, watching: true, connected: true },
  { id: 'a', name: 'Ada', connected: true },
  { id: 'b', name: 'Bob', connected: true },
  { id: 'c', name: 'Cy', connected: true },
  { id: 's', name: 'Sam', spectator: true, connected: true },
  { id: 'd', name: 'Dee', connected: true },
];
const progress = (phone, step, done) => applyProgress(phone, { t: 'phoneProgress', step, done });

test("the game's seats: seated players in the room's order, no screen, no spectator, no bot", () => {
  assert.deepEqual(phoneSeats(players()), ['a', 'b', 'c', 'd']);
  assert.deepEqual(phoneSeats([...players(), { id: 'x', bot: true }]), ['a', 'b', 'c', 'd']);
  assert.deepEqual(phoneSeats(null), []);
  const w = watchStart(players());
  assert.deepEqual(w, { seats: ['a', 'b', 'c', 'd'], sure: true, step: 0, clock: 0 });
});

test('progress of the step under way: the check marks, the same step and its clock', () => {
  let phone = progress(initialPhone(), 0, ['a', 'c']);
  const w = watchSettle(watchStart(players()), phone, players());
  assert.equal(w.step, 0);
  assert.equal(w.clock, 0, 'the clock of step 0 (the room message that started the game) still counts');
  const s = phoneStatus(w, phone, players());
  assert.deepEqual(s.rows.map((r) => [r.id, r.done]), [['a', true], ['b', false], ['c', true], ['d', false]]);
  assert.equal(s.done, 2);
  assert.equal(s.total, 4);
  assert.equal(s.kind, 'write');
  assert.equal(s.steps, 4);
  assert.deepEqual(s.kinds, ['write', 'draw', 'describe', 'draw']);
  assert.equal(s.over, false);
  phone = progress(phone, 0, ['a', 'b', 'c']);
  assert.equal(watchSettle(w, phone, players()).step, 0, 'three of four: the step goes on');
});

test('everyone handed in: the next step starts at once, without a clock the screen was told', () => {
  const phone = progress(initialPhone(), 0, ['a', 'b', 'c', 'd']);
  const w = watchSettle(watchStart(players()), phone, players());
  assert.deepEqual([w.step, w.clock], [1, null]);
  const s = phoneStatus(w, phone, players());
  assert.equal(s.kind, 'draw');
  assert.equal(s.done, 0, "step 0's check marks are not step 1's");
  assert.ok(s.rows.every((r) => !r.done));
  // and a second settle does not skip another step
  assert.equal(watchSettle(w, phone, players()).step, 1);
});

test('a disconnected or departed seat does not hold the step up (as on the server)', () => {
  const offline = players().map((p) => (p.id === 'd' ? { ...p, connected: false } : p));
  const phone = progress(initialPhone(), 0, ['a', 'b', 'c']);
  assert.equal(stepComplete(['a', 'b', 'c', 'd'], phone.done, offline), true);
  assert.equal(watchSettle(watchStart(players()), phone, offline).step, 1);
  const gone = players().filter((p) => p.id !== 'd');
  assert.equal(watchSettle(watchStart(players()), phone, gone).step, 1);
  const s = phoneStatus(watchStart(players()), progress(initialPhone(), 0, ['a']), offline);
  assert.deepEqual(s.rows.find((r) => r.id === 'd'), { id: 'd', done: false, offline: true });
  assert.equal(stepComplete([], [], players()), false, 'no seats: nothing is complete');
});

test('a progress of a later step: the screen missed the end (time ran out), and has no clock for it', () => {
  const phone = progress(initialPhone(), 2, ['b']);
  const w = watchSettle({ ...watchStart(players()), step: 1, clock: null }, phone, players());
  assert.deepEqual([w.step, w.clock], [2, null]);
  assert.equal(phoneStatus(w, phone, players()).kind, 'describe');
  const timed = watchSettle({ ...watchStart(players()), step: 1, clock: 1 }, phone, players());
  assert.equal(timed.clock, null, "step 1's clock is not step 2's");
  // an older step's progress arriving late changes nothing
  const late = watchSettle({ ...watchStart(players()), step: 3, clock: null }, progress(initialPhone(), 2, ['a']), players());
  assert.equal(late.step, 3);
});

test('a screen that came in during the steps: the step is unknown until a progress names it', () => {
  const { watch } = restoreWatch(null, { code: 'K7QX2M', players: players(), remainingMs: 30000, now: 1e6 });
  assert.deepEqual(watch, { seats: ['a', 'b', 'c', 'd'], sure: false, step: null, clock: CLOCK_UNKNOWN_STEP });
  const s0 = phoneStatus(watch, initialPhone(), players());
  assert.equal(s0.step, null);
  assert.equal(s0.kind, null);
  assert.equal(s0.done, 0);
  const phone = progress(initialPhone(), 3, ['c']);
  const w = watchSettle(watch, phone, players());
  assert.deepEqual([w.step, w.clock], [3, 3], 'the clock of the step under way is step 3');
  assert.equal(phoneStatus(w, phone, players()).kind, 'draw');
});

test('guessed seats with a later joiner never move the screen on early', () => {
  const withLate = [...players(), { id: 'late', name: 'Late', connected: true }];
  const { watch } = restoreWatch(null, { code: 'K7QX2M', players: withLate, remainingMs: 1000, now: 1 });
  const phone = progress(initialPhone(), 1, ['a', 'b', 'c', 'd']);
  const w = watchSettle(watch, phone, withLate);
  assert.equal(w.step, 1, 'the later joiner is a guessed seat that never hands in: wait for the next progress');
  assert.equal(watchSettle(w, progress(phone, 2, ['a']), withLate).step, 2);
});

test('the countdown ran out: the step it counted is over; an unknown step keeps no clock', () => {
  assert.deepEqual(watchTimeUp({ ...watchStart(players()), step: 0, clock: 0 }).step, 1);
  assert.equal(watchTimeUp({ ...watchStart(players()), step: 0, clock: 0 }).clock, null);
  const unknown = watchTimeUp({ seats: ['a'], sure: false, step: null, clock: CLOCK_UNKNOWN_STEP });
  assert.deepEqual([unknown.step, unknown.clock], [null, null]);
  const none = { ...watchStart(players()), step: 2, clock: null };
  assert.equal(watchTimeUp(none), none);
});

test('a room message during the steps: its remainingMs is the step under way', () => {
  const w = watchRoom({ ...watchStart(players()), step: 2, clock: null }, players());
  assert.equal(w.clock, 2);
  const u = watchRoom(initialWatch(), players());
  assert.deepEqual([u.seats.length, u.step, u.clock], [4, null, CLOCK_UNKNOWN_STEP]);
});

test('the last step handed in: the album comes', () => {
  const phone = progress(initialPhone(), 3, ['a', 'b', 'c', 'd']);
  const w = watchSettle({ ...watchStart(players()), step: 3, clock: null }, phone, players());
  const s = phoneStatus(w, phone, players());
  assert.equal(s.over, true);
  assert.equal(s.kind, null);
});

test('the memo a reload keeps: ids and numbers, the step and its end', () => {
  const phone = { ...progress(initialPhone(), 1, ['b']), myText: 'secret', prompt: 'secret' };
  const memo = phoneMemo({ ...watchStart(players()), step: 1, clock: 1 }, phone, 'K7QX2M', 5000, 20000);
  assert.deepEqual(memo, { code: 'K7QX2M', seats: ['a', 'b', 'c', 'd'], sure: true, step: 1, done: ['b'], deadline: 25000, at: 5000 });
  assert.doesNotMatch(JSON.stringify(memo), /secret/);
  const untimed = phoneMemo({ ...watchStart(players()), step: 1, clock: null }, phone, 'K7QX2M', 5000, 20000);
  assert.equal(untimed.deadline, null, 'no clock for the step: no end kept');
  const other = phoneMemo({ ...watchStart(players()), step: 2, clock: null }, phone, 'K7QX2M', 5000, null);
  assert.deepEqual(other.done, [], "step 1's progress is not step 2's");
});

test('a reload: back on the step when its end is the memo\'s, on the next when it has passed', () => {
  const memo = { code: 'K7QX2M', seats: ['a', 'b', 'c', 'd'], sure: true, step: 1, done: ['b', 'c'], deadline: 60000, at: 30000 };
  const same = restoreWatch(memo, { code: 'K7QX2M', players: players(), remainingMs: 27000, now: 32000 });
  assert.deepEqual(same, { watch: { seats: ['a', 'b', 'c', 'd'], sure: true, step: 1, clock: 1 }, done: ['b', 'c'] });
  const passed = restoreWatch(memo, { code: 'K7QX2M', players: players(), remainingMs: 38000, now: 62000 });
  assert.deepEqual([passed.watch.step, passed.watch.clock, passed.done], [2, 2, []]);
  const moved = restoreWatch(memo, { code: 'K7QX2M', players: players(), remainingMs: 40000, now: 40000 });
  assert.deepEqual([moved.watch.step, moved.watch.clock, moved.done], [null, CLOCK_UNKNOWN_STEP, null], 'everyone handed in meanwhile: unknown');
  const noEnd = restoreWatch({ ...memo, deadline: null }, { code: 'K7QX2M', players: players(), remainingMs: 10000, now: 32000 });
  assert.deepEqual([noEnd.watch.step, noEnd.watch.clock, noEnd.done], [1, 1, ['b', 'c']]);
  const otherRoom = restoreWatch(memo, { code: 'ZZZZZZ', players: players(), remainingMs: 10000, now: 32000 });
  assert.deepEqual([otherRoom.watch.step, otherRoom.watch.sure, otherRoom.done], [null, false, null]);
  const old = restoreWatch(memo, { code: 'K7QX2M', players: players(), remainingMs: 10000, now: 30000 + MEMO_MAX_AGE_MS + 1 });
  assert.equal(old.watch.step, null);
  const junk = restoreWatch({ code: 'K7QX2M', seats: 'a', at: 1 }, { code: 'K7QX2M', players: players(), remainingMs: 10000, now: 2 });
  assert.equal(junk.watch.step, null);
  // the memo's seats (the game's) count, not the room's seated players now
  const seats = restoreWatch({ ...memo, seats: ['a', 'b', 'c'] }, { code: 'K7QX2M', players: players(), remainingMs: 27000, now: 32000 });
  assert.equal(phoneStatus(seats.watch, initialPhone(), players()).steps, 3);
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

test('through the store, as tv.js does: start, progress, a step handed in, the album, the lobby', () => {
  store.resetStore();
  store.setWelcome({ playerId: 'tv' });
  const room = (phase, extra = {}) => ({ t: 'room', code: 'K7QX2M', phase, players: players(), settings: { mode: 'telephone', writeTimeSec: 40, drawTimeSec: 80 }, remainingMs: 40000, ...extra });
  store.applyRoom(room('lobby'));
  const { prevPhase } = store.applyRoom(room('telephone'));
  assert.equal(prevPhase, 'lobby');
  let w = watchStart(store.state.room.players);
  store.setPhoneProgress({ t: 'phoneProgress', step: 0, done: ['a', 'b'] });
  w = watchSettle(w, store.state.phone, store.state.room.players);
  assert.equal(phoneStatus(w, store.state.phone, store.state.room.players).done, 2);
  store.setPhoneProgress({ t: 'phoneProgress', step: 0, done: ['a', 'b', 'c', 'd'] });
  w = watchSettle(w, store.state.phone, store.state.room.players);
  assert.deepEqual([w.step, w.clock], [1, null]);
  store.setPhoneProgress({ t: 'phoneProgress', step: 1, done: ['d'] });
  w = watchSettle(w, store.state.phone, store.state.room.players);
  const s = phoneStatus(w, store.state.phone, store.state.room.players);
  assert.deepEqual([s.step, s.kind, s.done], [1, 'draw', 1]);
  store.setAlbum(album);
  assert.equal(store.state.phase, 'album');
  store.setAlbumReveal({ t: 'albumReveal', chain: 0, entry: 0 });
  assert.equal(albumScreen(store.state.phone).main.by, 'a');
  store.applyRoom(room('lobby', { remainingMs: 0 }));
  assert.equal(albumScreen(store.state.phone), null, 'back in the lobby: no album held');
  store.resetStore();
});
