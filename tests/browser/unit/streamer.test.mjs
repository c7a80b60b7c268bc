// Streamer mode (issue 36, docs/PROTOCOL.md 12.2) without a browser: the setting read from
// the form and from the server, the mask, and when the store lets the code show (the host's
// click only, until the next click, a new room, the setting turned off or the host changed).
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.navigator ??= { languages: ['en'] };
const { buildSettings, isStreamer, maskedText, MASK, CODE_LENGTH } = await import('../../../web-static/js/util.js');
const store = await import('../../../web-static/js/store.js');

const room = (extra = {}, settings = {}) => ({
  t: 'room', code: 'K7QX2M', name: 'R', host: 'a', phase: 'lobby', public: true,
  players: [{ id: 'a', name: 'Ada', score: 0 }, { id: 'b', name: 'Bo', score: 0 }],
  settings: { rounds: 3, streamer: true, ...settings }, ...extra,
});

test('the form sends streamer: true only for a ticked box, false otherwise', () => {
  assert.equal(buildSettings({ streamer: true }).streamer, true);
  assert.equal(buildSettings({ streamer: false }).streamer, false);
  assert.equal(buildSettings({}).streamer, false, 'an untouched form (an older page) sends false');
  assert.equal(buildSettings({ streamer: 'on' }).streamer, false, 'only a checkbox value counts');
});

test('isStreamer: only a true from the server turns it on', () => {
  assert.equal(isStreamer({ streamer: true }), true);
  for (const s of [{ streamer: false }, {}, null, undefined, { streamer: 'true' }, { streamer: 1 }]) {
    assert.equal(isStreamer(s), false, JSON.stringify(s));
  }
});

test('the mask hides the value and its length', () => {
  assert.equal(MASK, '\u2022'.repeat(CODE_LENGTH));
  assert.equal(maskedText('K7QX2M', true), MASK);
  assert.equal(maskedText('a-much-longer-player-id', true), MASK);
  assert.equal(maskedText('K7QX2M', false), 'K7QX2M');
  assert.equal(maskedText(null, false), '');
  assert.ok(!maskedText('K7QX2M', true).includes('K'));
});

test('the code is hidden in streamer mode; only the host can show it', () => {
  store.resetStore();
  store.setWelcome({ playerId: 'b', name: 'Bo' });
  store.applyRoom(room());
  assert.equal(store.streamerMode(), true);
  assert.equal(store.codeHidden(), true);
  store.setCodeRevealed(true); // a guest's click does nothing
  assert.equal(store.codeHidden(), true);

  store.resetStore();
  store.setWelcome({ playerId: 'a', name: 'Ada' });
  store.applyRoom(room());
  assert.equal(store.codeHidden(), true, 'the host too starts with the code hidden');
  store.setCodeRevealed(true);
  assert.equal(store.codeHidden(), false);
  store.applyRoom(room()); // the next room message keeps the reveal
  assert.equal(store.codeHidden(), false);
  store.setCodeRevealed(false);
  assert.equal(store.codeHidden(), true, 'the next click hides it');
});

test('a reveal ends with the setting, the host seat or the room', () => {
  store.resetStore();
  store.setWelcome({ playerId: 'a', name: 'Ada' });
  store.applyRoom(room());
  store.setCodeRevealed(true);
  store.applyRoom(room({}, { streamer: false }));
  assert.equal(store.streamerMode(), false);
  assert.equal(store.codeHidden(), false, 'streamer mode off: nothing to hide');
  store.applyRoom(room());
  assert.equal(store.codeHidden(), true, 'turned on again: hidden again');

  store.setCodeRevealed(true);
  store.applyRoom(room({ host: 'b' }));
  store.applyRoom(room({ host: 'a' }));
  assert.equal(store.codeHidden(), true, 'the host seat went away and came back: hidden');

  store.setCodeRevealed(true);
  store.applyRoom(room({ code: 'ABCDEF' }));
  assert.equal(store.codeHidden(), true, 'another room: hidden');
  store.setCodeRevealed(true);
  store.leaveRoom();
  assert.equal(store.state.codeRevealed, false);
  assert.equal(store.streamerMode(), false, 'out of the room: no streamer mode');
});

test('a room without the setting (an older server) is not in streamer mode', () => {
  store.resetStore();
  store.setWelcome({ playerId: 'a', name: 'Ada' });
  const msg = room();
  delete msg.settings.streamer;
  store.applyRoom(msg);
  assert.equal(store.streamerMode(), false);
  store.setCodeRevealed(true);
  assert.equal(store.state.codeRevealed, false);
  assert.equal(store.codeHidden(), false);
});
