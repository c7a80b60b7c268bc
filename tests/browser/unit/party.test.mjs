// Avatars (validation, stepping) and sounds (scheduling, mute) without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validAvatar, stepAvatar, randomAvatar, AVATAR_PARTS } from '../../../web-static/js/avatar.js';
import { Sounds, SOUNDS } from '../../../web-static/js/sounds.js';

test('validAvatar accepts the enumerated ranges only', () => {
  assert.deepEqual(validAvatar({ color: 11, eyes: 5, mouth: 0, accessory: 6 }), { color: 11, eyes: 5, mouth: 0, accessory: 6 });
  for (const bad of [null, 'x', {}, { color: 12, eyes: 0, mouth: 0, accessory: 0 }, { color: 0, eyes: -1, mouth: 0, accessory: 0 },
    { color: 0, eyes: 0, mouth: 1.5, accessory: 0 }, { color: '1', eyes: 0, mouth: 0, accessory: 0 }, { color: 0, eyes: 0, mouth: 0, accessory: 7 }]) {
    assert.equal(validAvatar(bad), null, JSON.stringify(bad));
  }
  // extra fields are dropped, never carried along
  assert.deepEqual(validAvatar({ color: 1, eyes: 1, mouth: 1, accessory: 1, svg: '<script>' }), { color: 1, eyes: 1, mouth: 1, accessory: 1 });
});

test('stepAvatar wraps around in both directions', () => {
  const a = { color: 0, eyes: 5, mouth: 0, accessory: 0 };
  assert.equal(stepAvatar(a, 'color', -1).color, AVATAR_PARTS.color - 1);
  assert.equal(stepAvatar(a, 'eyes', 1).eyes, 0);
  let r = 0;
  const seq = () => { r = (r + 0.37) % 1; return r; };
  for (let i = 0; i < 50; i++) assert.ok(validAvatar(randomAvatar(seq)));
});

class FakeParam { setValueAtTime() {} exponentialRampToValueAtTime() {} }
function fakeContext(log) {
  return {
    currentTime: 0,
    destination: {},
    state: 'running',
    createOscillator() {
      log.push('osc');
      return { type: '', frequency: new FakeParam(), connect() {}, start() { log.push('start'); }, stop() {} };
    },
    createGain() { return { gain: new FakeParam(), connect() {} }; },
  };
}

test('every sound schedules one oscillator per note; muted plays nothing', () => {
  const log = [];
  const s = new Sounds(() => fakeContext(log));
  s.muted = false;
  for (const [name, notes] of Object.entries(SOUNDS)) {
    log.length = 0;
    assert.equal(s.play(name), true);
    assert.equal(log.filter((x) => x === 'start').length, notes.length, name);
  }
  log.length = 0;
  s.muted = true;
  assert.equal(s.play('yourTurn'), false);
  assert.equal(s.play('nope'), false);
  assert.deepEqual(log, []);
});

test('no Web Audio: play() is a quiet no-op', () => {
  const s = new Sounds(() => null);
  s.muted = false;
  assert.equal(s.play('tick'), false);
});
