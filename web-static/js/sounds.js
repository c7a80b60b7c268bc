// Game sounds synthesised with Web Audio (oscillators and gain envelopes; nothing is
// downloaded). The AudioContext is made on first use and resumed on the next user
// gesture (browsers start it suspended); the mute choice is remembered.

export const MUTE_KEY = 'drawserver.muted';

// Each sound is a list of notes: start offset and length in seconds, frequency in Hz,
// oscillator type and peak gain.
const note = (at, len, freq, type = 'sine', gain = 0.18) => ({ at, len, freq, type, gain });

export const SOUNDS = Object.freeze({
  yourTurn: [note(0, 0.12, 523.25, 'triangle'), note(0.1, 0.12, 659.25, 'triangle'), note(0.2, 0.22, 783.99, 'triangle')],
  wordChosen: [note(0, 0.08, 880, 'sine', 0.12), note(0.08, 0.12, 1174.66, 'sine', 0.12)],
  correctMine: [note(0, 0.1, 783.99, 'square', 0.08), note(0.08, 0.1, 987.77, 'square', 0.08), note(0.16, 0.3, 1567.98, 'square', 0.08)],
  correctOther: [note(0, 0.18, 1318.51, 'sine', 0.1)],
  close: [note(0, 0.09, 440, 'triangle', 0.14), note(0.1, 0.12, 466.16, 'triangle', 0.14)],
  tick: [note(0, 0.035, 1500, 'square', 0.05)],
  turnEnd: [note(0, 0.16, 659.25, 'triangle'), note(0.15, 0.28, 493.88, 'triangle')],
  gameEnd: [note(0, 0.14, 523.25, 'triangle'), note(0.14, 0.14, 659.25, 'triangle'), note(0.28, 0.14, 783.99, 'triangle'), note(0.42, 0.5, 1046.5, 'triangle')],
});

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export class Sounds {
  /** `makeContext` is injectable for tests; it returns null when Web Audio is missing. */
  constructor(makeContext = () => {
    const Ctor = window.AudioContext || window.webkitAudioContext;
    return Ctor ? new Ctor() : null;
  }) {
    this.makeContext = makeContext;
    this.ctx = null;
    this.muted = storage()?.getItem(MUTE_KEY) === '1';
  }

  setMuted(on) {
    this.muted = Boolean(on);
    storage()?.setItem(MUTE_KEY, this.muted ? '1' : '0');
  }

  /** Call from a user gesture: browsers only let audio start after one. */
  unlock() {
    if (this.muted) return;
    const ctx = this.context();
    if (ctx && ctx.state === 'suspended') ctx.resume?.().catch(() => {});
  }

  context() {
    if (!this.ctx) {
      try {
        this.ctx = this.makeContext();
      } catch {
        this.ctx = null;
      }
    }
    return this.ctx;
  }

  /** Play a named sound; returns whether it was scheduled. */
  play(name) {
    const notes = SOUNDS[name];
    if (this.muted || !notes) return false;
    const ctx = this.context();
    if (!ctx) return false;
    const t0 = ctx.currentTime + 0.01;
    for (const n of notes) {
      const osc = ctx.createOscillator();
      const env = ctx.createGain();
      osc.type = n.type;
      osc.frequency.setValueAtTime(n.freq, t0 + n.at);
      // a short attack and an exponential release: no clicks
      env.gain.setValueAtTime(0.0001, t0 + n.at);
      env.gain.exponentialRampToValueAtTime(n.gain, t0 + n.at + 0.01);
      env.gain.exponentialRampToValueAtTime(0.0001, t0 + n.at + n.len);
      osc.connect(env);
      env.connect(ctx.destination);
      osc.start(t0 + n.at);
      osc.stop(t0 + n.at + n.len + 0.02);
    }
    return true;
  }
}
