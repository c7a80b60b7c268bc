// Pen pressure of the drawer's pointer (issue 36 §3, protocol 12.4). Pure module: it
// reads the `pointerType` and `pressure` of pointer events and has no DOM access.
//
// A pointer "has pressure" when it reports a value that varies. A mouse reports 0.5
// while a button is pressed (0 otherwise), and pens and touch screens without a sensor
// report a constant 0.5, 0 or 1: all of them draw as before (BEGIN/POINTS). So a mouse
// never has pressure; a pen or finger has it from its first event when that value is
// not one of those constants, or from the first event of a stroke whose value differs
// from the stroke's first (and is not 0). The board remembers a pointer type that once
// showed pressure, so its next strokes have it from the start even when they begin at
// exactly 0.5. Switched off (the toolbar's toggle), pointers are still recognised, so
// the toggle can appear, but every stroke is sent without pressure.

import { MAX_PRESSURE, MIN_PRESSURE } from './ops.js';

/** The width factor of the lightest touch: a pen that barely touches still draws this much. */
export const MIN_PRESSURE_FACTOR = 0.15;

/** Pressures that carry no information (mouse buttons, pens and screens without a sensor). */
const FLAT = new Set([0, 0.5, 1]);

/**
 * The protocol's width factor p (1..255) for `PointerEvent.pressure` (0..1): the
 * pressure range is mapped linearly onto 0.15..1 of the brush width, so the lightest
 * touch still draws 15 % of the width and full pressure the whole width.
 */
export function pressureToP(pressure) {
  const v = Number.isFinite(pressure) ? Math.min(1, Math.max(0, pressure)) : 0.5;
  const p = Math.round(MAX_PRESSURE * (MIN_PRESSURE_FACTOR + (1 - MIN_PRESSURE_FACTOR) * v));
  return Math.min(MAX_PRESSURE, Math.max(MIN_PRESSURE, p));
}

export class PressureSense {
  /** @param {(type: string) => void} [onFound] called when a pointer type first shows pressure */
  constructor(onFound = null) {
    /** Off: every stroke is sent without pressure. */
    this.enabled = true;
    /** Pointer types ('pen', 'touch') that have shown a varying pressure. */
    this.known = new Set();
    this.onFound = onFound;
  }

  found(type) {
    if (this.known.has(type)) return;
    this.known.add(type);
    this.onFound?.(type);
  }

  /** A stroke begins with this pointerdown: its pressure state {type, first, on}. */
  start(ev) {
    const track = { type: ev.pointerType, first: ev.pressure, on: false };
    if (ev.pointerType === 'mouse') return track;
    if (!FLAT.has(ev.pressure) && Number.isFinite(ev.pressure)) this.found(ev.pointerType);
    track.on = this.enabled && this.known.has(ev.pointerType);
    return track;
  }

  /**
   * A later event of the stroke (a coalesced pointermove): turns pressure on when the
   * value varies. Returns the point's width factor p, or null while it is off.
   */
  sample(track, ev) {
    if (!track.on && track.type !== 'mouse' && Number.isFinite(ev.pressure)
      && ev.pressure > 0 && ev.pressure !== track.first) {
      this.found(track.type);
      track.on = this.enabled;
    }
    return track.on ? pressureToP(ev.pressure) : null;
  }

  /** The width factor of the stroke's first point, or null without pressure. */
  first(track) {
    return track.on ? pressureToP(track.first) : null;
  }
}
