// The board's zoom on phones (issue 36): the <canvas> and its preview sit in a view box
// that a CSS transform scales and moves inside the board's frame (which clips it). The
// pointer mapping (getBoundingClientRect of the canvas) sees the transform, so drawing
// coordinates stay right at any zoom. A "fit" button, shown while zoomed, returns to 1x.
// The gesture itself (which fingers do what) is decided in board.js.

import { FIT, clampView, isZoomed, pinchView, panView, viewTransform } from './zoom.js';

export class BoardZoom {
  /**
   * @param {{frame: HTMLElement, view: HTMLElement, button?: HTMLElement|null, label?: HTMLElement|null}} els
   * @param {() => void} onChange called after every change of the view
   */
  constructor({ frame, view, button = null, label = null }, onChange = () => {}) {
    this.frame = frame;
    this.viewEl = view;
    this.button = button;
    this.label = label;
    this.onChange = onChange;
    this.view = FIT;
    this.pinch = null;
    if (button) button.addEventListener('click', () => this.reset());
  }

  get zoomed() {
    return isZoomed(this.view);
  }

  set(view) {
    this.view = clampView(view);
    this.viewEl.style.transform = viewTransform(this.view);
    const zoomed = this.zoomed;
    this.frame.classList.toggle('zoomed', zoomed);
    if (this.button) this.button.hidden = !zoomed;
    if (this.label) this.label.textContent = zoomed ? `${Math.round(this.view.s * 10) / 10}×` : '';
    this.onChange(this.view);
  }

  reset() {
    this.pinch = null;
    if (this.zoomed || this.viewEl.style.transform) this.set(FIT);
  }

  /** A client point as fractions of the frame's inner box (the unzoomed board). */
  frac(x, y) {
    const r = this.frame.getBoundingClientRect();
    const w = this.frame.clientWidth || 1;
    const h = this.frame.clientHeight || 1;
    return [(x - r.left - this.frame.clientLeft) / w, (y - r.top - this.frame.clientTop) / h];
  }

  /** Two fingers landed at client points a and b ({x, y}). */
  startPinch(a, b) {
    this.pinch = { v0: this.view, m0: this.frac((a.x + b.x) / 2, (a.y + b.y) / 2), d0: Math.hypot(a.x - b.x, a.y - b.y) };
  }

  movePinch(a, b) {
    if (!this.pinch) return;
    const { v0, m0, d0 } = this.pinch;
    this.set(pinchView(v0, m0, d0, this.frac((a.x + b.x) / 2, (a.y + b.y) / 2), Math.hypot(a.x - b.x, a.y - b.y)));
  }

  endPinch() {
    this.pinch = null;
  }

  /** One finger moved a zoomed board by (dx, dy) client pixels. */
  pan(dx, dy) {
    if (!this.zoomed) return;
    this.set(panView(this.view, dx / (this.frame.clientWidth || 1), dy / (this.frame.clientHeight || 1)));
  }
}
