// The telephone game's client state (web-static/js/telephone-model.js, PROTOCOL 12.5),
// driven by server messages alone; and the store's telephone updates.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.navigator ??= { languages: ['en'] };
const m = await import('../../../web-static/js/telephone-model.js');
const store = await import('../../../web-static/js/store.js');
const { buildSettings, adjustedSettings } = await import('../../../web-static/js/util.js');

const step = (over) => ({ t: 'phoneStep', step: 0, steps: 4, kind: 'write', remainingMs: 40000, ...over });

test('a write step: the form, nothing handed', () => {
  const p = m.applyStep(m.initialPhone(), step());
  assert.equal(p.step, 0);
  assert.equal(p.steps, 4);
  assert.equal(p.kind, 'write');
  assert.equal(p.prompt, null);
  assert.equal(p.drawing, null);
  assert.equal(p.submitted, false);
  assert.equal(m.stepScreen(p), 'answer');
});

test('submitting: the waiting state; "Change my answer" reopens the form with the text', () => {
  let p = m.applyStep(m.initialPhone(), step());
  p = m.markSubmitted(p, 'A cat on the moon');
  assert.equal(m.stepScreen(p), 'waiting');
  assert.equal(p.myText, 'A cat on the moon');
  p = m.reopen(p);
  assert.equal(m.stepScreen(p), 'answer');
  assert.equal(p.editing, true);
  p = m.markSubmitted(p, 'A dog on the moon');
  assert.equal(m.stepScreen(p), 'waiting');
  assert.equal(p.myText, 'A dog on the moon');
});

test('a draw step carries the prompt; Done leaves the board live', () => {
  let p = m.applyStep(m.initialPhone(), step({ step: 1, kind: 'draw', prompt: 'Two robots' }));
  assert.equal(p.prompt, 'Two robots');
  assert.equal(m.stepScreen(p), 'draw');
  p = m.markSubmitted(p);
  assert.equal(m.stepScreen(p), 'drawDone');
  assert.equal(m.reopen(p), p, 'a drawing is not reopened (drawing on is allowed anyway)');
  const empty = m.applyStep(m.initialPhone(), step({ step: 1, kind: 'draw', prompt: '' }));
  assert.equal(empty.prompt, '', 'an empty text is handed as an empty prompt');
});

test('a describe step carries the drawing, or none when it was left empty', () => {
  const p = m.applyStep(m.initialPhone(), step({ step: 2, kind: 'describe', drawing: { id: 'abc', png: '/d/abc.png' } }));
  assert.deepEqual(p.drawing, { id: 'abc', png: '/d/abc.png', timelapse: null });
  assert.equal(m.stepScreen(p), 'answer');
  const none = m.applyStep(m.initialPhone(), step({ step: 2, kind: 'describe' }));
  assert.equal(none.drawing, null);
  const junk = m.applyStep(m.initialPhone(), step({ step: 2, kind: 'describe', drawing: { id: 'x' } }));
  assert.equal(junk.drawing, null, 'a drawing without a png is none');
});

test('a returning player: `submitted` restores the waiting state; the same step keeps its progress', () => {
  let p = m.applyStep(m.initialPhone(), step({ step: 2, kind: 'describe', submitted: true }));
  assert.equal(m.stepScreen(p), 'waiting');
  p = m.applyProgress(p, { step: 2, done: ['a', 'b'] });
  const again = m.applyStep(p, step({ step: 2, kind: 'describe', submitted: true }));
  assert.deepEqual(again.done, ['a', 'b']);
  assert.equal(m.isNewStep(p, { step: 2 }), false);
  assert.equal(m.isNewStep(p, { step: 3 }), true);
  const next = m.applyStep(p, step({ step: 3, kind: 'draw', prompt: 'x' }));
  assert.deepEqual(next.done, [], 'a new step starts with nobody done');
  assert.equal(next.submitted, false);
  assert.equal(next.myText, '', 'the text of the step before is not kept');
});

test('progress: only for the step shown; counts against the game\'s players', () => {
  let p = m.applyStep(m.initialPhone(), step({ step: 1, kind: 'draw', steps: 5 }));
  p = m.applyProgress(p, { step: 0, done: ['late'] });
  assert.deepEqual(p.done, [], 'a late progress of the step before is ignored');
  p = m.applyProgress(p, { step: 1, done: ['a', 'b', 'c'] });
  assert.deepEqual(m.progressCount(p), { done: 3, total: 5 });
  assert.deepEqual(m.applyProgress(p, { step: 1, done: 'x' }).done, []);
  // a watcher has no step: it follows whichever step the progress is of, counting the seated
  const w = m.applyProgress(m.initialPhone(), { step: 2, done: ['a'] });
  assert.deepEqual(w.done, ['a']);
  assert.deepEqual(m.progressCount(w, 4), { done: 1, total: 4 });
  assert.equal(w.progressStep, 2, 'the step the progress is of');
  assert.equal(m.stepScreen(w), 'none');
});

test('texts are cleaned as the server keeps them: 1..100 characters', () => {
  assert.equal(m.cleanPhoneText('  a\tcat\n\n on   the moon '), 'a cat on the moon');
  assert.equal(m.cleanPhoneText('   '), null);
  assert.equal(m.cleanPhoneText('x'.repeat(100)), 'x'.repeat(100));
  assert.equal(m.cleanPhoneText('x'.repeat(101)), null);
  assert.equal(m.cleanPhoneText('🦒'.repeat(100)), '🦒'.repeat(100), 'characters, not UTF-16 units');
});

const ALBUM = {
  t: 'album',
  chains: [
    { owner: 'a', entries: [{ kind: 'text', by: 'a', text: 'giraffe' }, { kind: 'drawing', by: 'b', drawing: { id: 'd1', png: '/d/d1.png', timelapse: '/d/d1.apng' } }] },
    { owner: 'b', entries: [{ kind: 'text', by: 'b', text: 'robots' }, { kind: 'drawing', by: 'a' }] },
  ],
};

test('the album: title card first, entries up to the one revealed, the last one ends it', () => {
  let p = m.applyStep(m.initialPhone(), step({ step: 1, kind: 'draw', prompt: 'x' }));
  p = m.applyAlbum(p, ALBUM);
  assert.equal(p.step, null, 'no step in the album');
  let v = m.albumView(p);
  assert.deepEqual([v.chain, v.count, v.owner, v.entries.length, v.newest, v.last], [0, 2, 'a', 0, -1, false]);
  p = m.applyReveal(p, { chain: 0, entry: 1 });
  v = m.albumView(p);
  assert.equal(v.entries.length, 2);
  assert.equal(v.entries[1].drawing.timelapse, '/d/d1.apng');
  p = m.applyReveal(p, { chain: 1, entry: -1 });
  v = m.albumView(p);
  assert.deepEqual([v.owner, v.entries.length], ['b', 0], 'a new chain starts at its title card');
  p = m.applyReveal(p, { chain: 1, entry: 1 });
  v = m.albumView(p);
  assert.equal(v.last, true);
  assert.equal(v.entries[1].drawing, null, 'an empty drawing has none');
  assert.equal(m.albumView(m.initialPhone()), null);
  assert.equal(m.albumView(m.applyReveal(p, { chain: 9, entry: 9 })).chain, 1, 'out of range is clamped');
});

test('the store: phoneStep sets the phase; a lobby room message drops the game', () => {
  store.resetStore();
  store.applyRoom({ t: 'room', code: 'ABCDEF', phase: 'telephone', players: [], settings: { mode: 'telephone' } });
  assert.equal(store.isTelephone(), true);
  assert.equal(store.setPhoneStep(step({ step: 1, kind: 'draw', prompt: 'p' })), true);
  assert.equal(store.isPhoneDrawing(), true);
  assert.equal(store.setPhoneStep(step({ step: 1, kind: 'draw', prompt: 'p', submitted: true })), false, 'a resend is not a new step');
  store.setPhoneProgress({ step: 1, done: ['x'] });
  assert.deepEqual(store.state.phone.done, ['x']);
  store.setAlbum(ALBUM);
  assert.equal(store.state.phase, 'album');
  assert.equal(store.isPhoneDrawing(), false);
  store.setAlbumReveal({ chain: 1, entry: 0 });
  store.applyRoom({ t: 'room', code: 'ABCDEF', phase: 'album', players: [], settings: { mode: 'telephone' } });
  assert.deepEqual(store.state.phone.reveal, { chain: 1, entry: 0 }, 'a room message in the album keeps it');
  store.applyRoom({ t: 'room', code: 'ABCDEF', phase: 'lobby', players: [], settings: { mode: 'telephone' } });
  assert.equal(store.state.phone.album, null);
  assert.equal(store.state.phone.step, null);
});

test('the kind of a step by its number (for a watcher, told no kind): write, then draw and describe in turn', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5].map(m.kindOfStep), ['write', 'draw', 'describe', 'draw', 'describe', 'draw']);
  assert.equal(m.kindOfStep(null), null);
  assert.equal(m.kindOfStep(-1), null);
  assert.equal(m.kindOfStep(1.5), null);
});

test('settings: the mode and the write time are sent, clamped like the others', () => {
  assert.equal(buildSettings({ mode: 'telephone' }).mode, 'telephone');
  assert.equal(buildSettings({ mode: 'gartic' }).mode, 'classic');
  assert.equal(buildSettings({}).writeTimeSec, 40);
  assert.equal(buildSettings({ writeTimeSec: '5' }).writeTimeSec, 10);
  assert.deepEqual(adjustedSettings({ writeTimeSec: '500' }, buildSettings({ writeTimeSec: '500' })), { writeTimeSec: 120 });
});
