// WebSocket session: hello/welcome with a resumable token, automatic reconnect
// with exponential backoff and jitter, close-code policy (see docs/CLIENT.md).

import { backoffDelay, streakPolicy } from './util.js';

const TOKEN_KEY = 'drawserver.token';

export function wsUrl(loc = window.location) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws`;
}

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** `key`: where the token is kept (the /tv page keeps its own, so a tab never mixes the two). */
export function loadToken(key = TOKEN_KEY) {
  return storage()?.getItem(key) || null;
}

export function saveToken(token, key = TOKEN_KEY) {
  const s = storage();
  if (!s) return;
  if (token) s.setItem(key, token);
  else s.removeItem(key);
}

/**
 * Events (EventTarget, detail in event.detail):
 *  - "message": a parsed JSON object from the server
 *  - "binary":  a Uint8Array binary frame
 *  - "status":  {state: "connecting"|"open"|"reconnecting"|"stopped", key?, code?, retryInMs?}
 *    (`key` names the interface string of the state's message, js/i18n.js)
 */
export class Connection extends EventTarget {
  /**
   * `tokenKey`: the session storage key of the token; `joinFields`: added to the `join`
   * sent after a redirect (the /tv page's `watch`).
   */
  constructor({ url = wsUrl(), name = '', tokenKey = TOKEN_KEY, joinFields = {} } = {}) {
    super();
    this.url = url;
    this.name = name;
    this.tokenKey = tokenKey;
    this.joinFields = joinFields;
    this.avatar = null; // {color, eyes, mouth, accessory} sent in hello (js/avatar.js)
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.stopped = true;
    this.welcomed = false;
    this.pendingJoin = null; // room code to join after following a redirect
    this.redirects = 0; // redirects followed since the last room reached
    this.streak = null; // close policy of the current run of reconnect attempts
    this.state = 'stopped';
    this.onOnline = () => {
      if (!this.stopped && this.state === 'reconnecting') this.reconnectNow();
    };
    window.addEventListener('online', this.onOnline);
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  setStatus(state, extra = {}) {
    this.state = state;
    this.dispatchEvent(new CustomEvent('status', { detail: { state, ...extra } }));
  }

  /** Start (or restart) the connection. */
  start(name) {
    if (name) this.name = name;
    this.stopped = false;
    this.attempt = 0;
    this.open();
  }

  /** Close for good (no reconnect). */
  stop(key = '') {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.dropSocket();
    this.setStatus('stopped', { key });
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.stopped = false;
    this.dropSocket();
    this.open();
  }

  dropSocket() {
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close(1000);
      } catch {
        /* ignore */
      }
    }
  }

  open() {
    this.dropSocket();
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting', { key: this.attempt === 0 ? 'conn.connecting' : 'conn.reconnecting' });
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (e) {
      this.scheduleRetry({ reconnect: true, key: 'close.cannotOpen' });
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => {
      const hello = { t: 'hello', name: this.name };
      const token = loadToken(this.tokenKey);
      if (token) hello.token = token;
      if (this.avatar) hello.avatar = this.avatar;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      if (typeof ev.data === 'string') {
        let msg;
        try {
          msg = JSON.parse(ev.data);
        } catch {
          return;
        }
        if (!msg || typeof msg !== 'object' || typeof msg.t !== 'string') return;
        if (msg.t === 'redirect') {
          // The room runs on another node (docs/PROTOCOL.md): reconnect through the same
          // host to that node with our token, then join again.
          this.followRedirect(msg);
          return;
        }
        if (msg.t === 'room') this.redirects = 0;
        if (msg.t === 'welcome') {
          this.welcomed = true;
          this.attempt = 0;
          if (typeof msg.token === 'string' && msg.token) saveToken(msg.token, this.tokenKey);
          this.setStatus('open');
          if (this.pendingJoin) {
            ws.send(JSON.stringify({ t: 'join', code: this.pendingJoin, ...this.joinFields }));
            this.pendingJoin = null;
          }
        }
        this.dispatchEvent(new CustomEvent('message', { detail: msg }));
      } else {
        this.dispatchEvent(new CustomEvent('binary', { detail: new Uint8Array(ev.data) }));
      }
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.welcomed = false;
      if (this.stopped) return;
      // within a streak of failed attempts (attempt > 0) keep the reason of its first close
      const policy = streakPolicy(ev.code, this.attempt > 0 ? this.streak : null);
      this.streak = policy;
      this.dispatchEvent(new CustomEvent('closed', { detail: { code: ev.code, reason: ev.reason, policy } }));
      if (!policy.reconnect) {
        this.stopped = true;
        this.setStatus('stopped', { key: policy.key, code: ev.code });
        return;
      }
      this.scheduleRetry(policy, ev.code);
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  followRedirect(msg) {
    if (typeof msg.path !== 'string' || !msg.path.startsWith('/ws?') || typeof msg.room !== 'string') return;
    // A balancer that does not route ?node= would send us back and forth: give up after a
    // few redirects without reaching a room.
    if (this.redirects >= 3) {
      this.dispatchEvent(new CustomEvent('message', { detail: { t: 'error', code: 'room_not_found', message: 'the room could not be reached', ref: 'join' } }));
      return;
    }
    this.redirects++;
    const base = new URL(this.url);
    this.url = `${base.protocol}//${base.host}${msg.path}`;
    this.pendingJoin = msg.room;
    this.open();
  }

  scheduleRetry(policy, code) {
    clearTimeout(this.retryTimer);
    let delay = backoffDelay(this.attempt, { baseMs: policy.fast ? 250 : 500, maxMs: 15000 });
    if (policy.slow) delay = Math.max(delay, 5000);
    this.attempt++;
    this.setStatus('reconnecting', { key: policy.key, code, retryInMs: delay });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  /** Send a JSON message; returns false when not connected. */
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    if (!this.welcomed && obj.t !== 'hello') return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  sendBinary(bytes) {
    if (!this.isOpen) return false;
    this.ws.send(bytes);
    return true;
  }
}
