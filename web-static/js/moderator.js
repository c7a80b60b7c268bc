// Moderator dashboard: open reports, a live thumbnail grid of every room, kick and close actions.
// All requests carry "Authorization: Bearer <token>"; the token lives in sessionStorage.

import { $, el, show, toast } from './dom.js';
import { icon } from './icons.js';
import { avatarNode } from './avatar.js';
import { refreshReports, clearReports } from './moderator-reports.js';

const TOKEN_KEY = 'drawserver.moderatorToken';
const REFRESH_MS = 4000;
const THUMB_MAX = 320;

const state = {
  token: sessionStorage.getItem(TOKEN_KEY) || '',
  cards: new Map(), // code -> {node, img, url, summary}
  timer: null,
  busy: false,
  again: false, // a refresh was asked for while one was running
};

class Unauthorized extends Error {}

async function api(path, { method = 'GET', accept = 'application/json' } = {}) {
  const res = await fetch(path, {
    method,
    headers: { Authorization: `Bearer ${state.token}`, Accept: accept },
    cache: 'no-store',
  });
  if (res.status === 401) throw new Unauthorized('The moderator token was rejected.');
  return res;
}

function setStatus(text, kind) {
  $('#mod-status-text').textContent = text;
  $('#mod-status').dataset.state = kind;
}

function signOut(message) {
  state.token = '';
  sessionStorage.removeItem(TOKEN_KEY);
  clearInterval(state.timer);
  state.timer = null;
  clearInterval(state.clockTimer);
  state.clockTimer = null;
  for (const card of state.cards.values()) if (card.url) URL.revokeObjectURL(card.url);
  state.cards.clear();
  $('#mod-grid').replaceChildren();
  clearReports();
  if ($('#kick-dialog').open) $('#kick-dialog').close();
  show($('#mod-dashboard'), false);
  show($('#mod-login'), true);
  show($('#mod-controls'), false);
  setStatus('Signed out', 'stopped');
  $('#login-error').textContent = message || '';
  $('#token-input').value = '';
  $('#token-input').focus();
}

function signedIn() {
  show($('#mod-login'), false);
  show($('#mod-dashboard'), true);
  show($('#mod-controls'), true);
  clearInterval(state.timer);
  state.timer = setInterval(() => {
    if ($('#mod-auto').checked && !document.hidden) refresh();
  }, REFRESH_MS);
  clearInterval(state.clockTimer);
  state.clockTimer = setInterval(() => {
    for (const card of state.cards.values()) updateClock(card);
  }, 1000);
}

function handleError(err) {
  if (err instanceof Unauthorized) {
    signOut(err.message);
    return;
  }
  setStatus('Server unreachable', 'reconnecting');
  console.warn(err);
}

async function refresh() {
  if (!state.token) return;
  if (state.busy) {
    state.again = true; // e.g. right after a kick or close: run once more when done
    return;
  }
  state.busy = true;
  state.again = false;
  try {
    const res = await api('/api/rooms');
    if (!res.ok) throw new Error(`GET /api/rooms: HTTP ${res.status}`);
    const body = await res.json();
    const rooms = Array.isArray(body) ? body : Array.isArray(body?.rooms) ? body.rooms : [];
    renderRooms(rooms);
    setStatus('Live', 'open');
    $('#mod-updated').textContent = `Updated ${new Date().toLocaleTimeString()}`;
    await Promise.all([
      refreshHealth(),
      refreshReports(api, refresh),
      ...rooms.map((r) => Promise.all([keepsThumb(r) ? null : refreshThumb(String(r.code)), refreshDetail(String(r.code))])),
    ]);
  } catch (err) {
    handleError(err);
  } finally {
    state.busy = false;
    if (state.again && state.token) refresh();
  }
}

function renderRooms(rooms) {
  const grid = $('#mod-grid');
  const seen = new Set();
  rooms.sort((a, b) => String(a.code).localeCompare(String(b.code)));
  for (const r of rooms) {
    const code = String(r.code ?? '');
    if (!code) continue;
    seen.add(code);
    let card = state.cards.get(code);
    if (!card) {
      card = makeCard(code);
      state.cards.set(code, card);
    }
    card.summary = r;
    updateCard(card);
    grid.append(card.node); // keeps sorted order; moving an existing node is cheap
  }
  for (const [code, card] of state.cards) {
    if (seen.has(code)) continue;
    if (card.url) URL.revokeObjectURL(card.url);
    card.node.remove();
    state.cards.delete(code);
  }
  $('#room-count').textContent = String(state.cards.size);
  show($('#mod-empty'), state.cards.size === 0);
}

function makeCard(code) {
  const img = el('img', { alt: `Canvas of room ${code}`, attrs: { width: 320, height: 240 } });
  const placeholder = el('span', { className: 'mod-placeholder', text: 'no canvas yet' });
  const phase = el('span', { className: 'mod-phase' });
  const clock = el('span', { className: 'mod-clock', attrs: { 'aria-label': 'Time left in this phase' } });
  const title = el('strong', { className: 'mod-name' });
  const meta = el('div', { className: 'mod-meta' });
  const people = el('ul', { className: 'mod-players', attrs: { 'aria-label': `Players in ${code}` } });
  const node = el('li', { className: 'mod-room', dataset: { code } },
    el('div', { className: 'mod-thumb' }, img, placeholder, phase, clock),
    el('div', { className: 'mod-body' },
      el('div', { className: 'mod-title' }, title, el('code', { text: code })),
      meta,
      people,
      el('div', { className: 'mod-actions' },
        el('button', { type: 'button', className: 'btn btn-sm', text: 'Kick player…', attrs: { 'aria-label': `Kick a player from ${code}` }, on: { click: () => openKick(code) } }),
        el('button', { type: 'button', className: 'btn btn-danger btn-sm', text: 'Close room', attrs: { 'aria-label': `Close room ${code}` }, on: { click: () => closeRoom(code) } }),
      ),
    ),
  );
  img.hidden = true;
  clock.hidden = true;
  return { code, node, img, placeholder, phase, clock, title, meta, people, url: null, summary: null, detail: null, deadline: 0 };
}

const PHASES = { lobby: 'Lobby', choosing: 'Choosing', drawing: 'Drawing', turnEnd: 'Turn end', gameEnd: 'Game end' };

function updateCard(card) {
  const r = card.summary || {};
  const d = card.detail;
  const phase = d?.phase || r.phase || 'unknown';
  card.node.dataset.phase = phase;
  card.title.textContent = r.name || d?.name || card.code;
  card.title.title = r.name || '';
  card.phase.textContent = PHASES[phase] || phase;
  card.phase.dataset.phase = phase;
  const players = r.players ?? d?.players?.length;
  const parts = [];
  if (d && d.round > 0 && phase !== 'lobby') parts.push(`Round ${d.round}/${d.rounds}`);
  parts.push(`${players ?? '?'}${r.maxPlayers ? `/${r.maxPlayers}` : ''} players`);
  parts.push(r.public === false ? 'private' : 'public');
  // Several nodes on one store: the node that runs the room (absent on one node).
  const node = r.node || d?.node;
  if (node) parts.push(`node ${node}`);
  card.meta.replaceChildren(...parts.map((text) => el('span', { text })));
  if (d && Array.isArray(d.players)) {
    card.people.replaceChildren(...d.players.map((p) => {
      const id = String(p.id ?? '');
      const cls = ['mod-player'];
      if (p.connected === false) cls.push('offline');
      if (p.spectator) cls.push('spectator');
      const label = [p.name || '?'];
      if (id === d.host) label.push('host');
      if (id === d.drawer) label.push('drawing');
      if (p.connected === false) label.push('offline');
      if (p.spectator) label.push('spectating');
      return el('li', { className: cls.join(' '), dataset: { id }, title: `${label.join(', ')} — id ${id}` },
        avatarNode(p.avatar, p.name, { size: 20 }),
        id === d.drawer ? icon('pencil') : id === d.host ? icon('crown') : null,
        el('span', { text: p.name || '?' }),
      );
    }));
  }
  updateClock(card);
}

function updateClock(card) {
  const left = card.deadline ? Math.max(0, card.deadline - Date.now()) : 0;
  const phase = card.detail?.phase;
  const running = left > 0 && phase && phase !== 'lobby';
  show(card.clock, running);
  if (running) {
    const s = Math.ceil(left / 1000);
    card.clock.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  }
}

// GET /api/health: a banner while the server's storage is failing (docs/PROTOCOL.md).
function formatBytes(n) {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KiB`;
  return `${n} bytes`;
}

async function refreshHealth() {
  let storage = null;
  try {
    const res = await api('/api/health');
    if (res.ok) storage = (await res.json())?.storage ?? null;
  } catch (err) {
    if (err instanceof Unauthorized) throw err;
  }
  showStorage(storage);
}

function showStorage(storage) {
  const failing = storage && storage.ok === false;
  show($('#storage-banner'), Boolean(failing));
  if (!failing) return;
  const since = Number(storage.failingSince) > 0 ? ` since ${new Date(Number(storage.failingSince)).toLocaleTimeString()}` : '';
  $('#storage-banner-title').textContent = `Storage is failing: ${storage.reason || storage.fault || 'unknown fault'}${since}`;
  const parts = [
    `${Number(storage.heldChanges) || 0} changes (${formatBytes(Number(storage.heldBytes) || 0)}) held and retried`,
    `${Number(storage.commitFailures) || 0} failed commits`,
  ];
  if (storage.refusingNewRooms) parts.push('new rooms are refused; open rooms keep playing');
  if (Number(storage.droppedChanges) > 0) parts.push(`${storage.droppedChanges} changes given up`);
  if (storage.detail) parts.push(String(storage.detail));
  $('#storage-banner-text').textContent = parts.join(' · ');
}

async function refreshDetail(code) {
  const card = state.cards.get(code);
  if (!card) return;
  try {
    const res = await api(`/api/rooms/${encodeURIComponent(code)}`);
    if (!res.ok) return; // gone (the next list drops the card) or not offered by this server
    const body = await res.json();
    if (!state.cards.has(code) || !body || typeof body !== 'object') return;
    card.detail = body;
    card.deadline = Number(body.remainingMs) > 0 ? Date.now() + Number(body.remainingMs) : 0;
    updateCard(card);
  } catch (err) {
    if (err instanceof Unauthorized) throw err;
  }
}

/**
 * At game end the players still see the last turn's drawing, but the room's canvas is
 * already reset: the card keeps the last thumbnail it had instead of going blank.
 */
function keepsThumb(r) {
  return r.phase === 'gameEnd' && Boolean(state.cards.get(String(r.code))?.url);
}

async function refreshThumb(code) {
  const card = state.cards.get(code);
  if (!card) return;
  try {
    const res = await api(`/api/rooms/${encodeURIComponent(code)}/canvas.png?max=${THUMB_MAX}`, { accept: 'image/png' });
    if (!res.ok) {
      card.placeholder.textContent = res.status === 404 ? 'no canvas' : `canvas: HTTP ${res.status}`;
      show(card.placeholder, true);
      return;
    }
    const blob = await res.blob();
    if (!state.cards.has(code)) return; // removed meanwhile
    const url = URL.createObjectURL(blob);
    const old = card.url;
    card.url = url;
    card.img.onload = () => {
      if (old) URL.revokeObjectURL(old);
    };
    card.img.onerror = () => {
      if (old) URL.revokeObjectURL(old);
    };
    card.img.src = url;
    card.img.hidden = false;
    show(card.placeholder, false);
  } catch (err) {
    if (err instanceof Unauthorized) throw err;
    card.placeholder.textContent = 'canvas unavailable';
  }
}

// ---------------------------------------------------------------- actions

async function closeRoom(code) {
  const name = state.cards.get(code)?.summary?.name || code;
  if (!confirm(`Close room ${code} (${name})? Every player is sent back to the lobby.`)) return;
  try {
    const res = await api(`/api/rooms/${encodeURIComponent(code)}`, { method: 'DELETE' });
    if (res.ok) toast(`Room ${code} closed.`, 'success');
    else toast(res.status === 404 ? `Room ${code} no longer exists.` : `Closing failed: HTTP ${res.status}`, 'error');
    refresh();
  } catch (err) {
    handleError(err);
  }
}

let kickCode = null;

async function openKick(code) {
  kickCode = code;
  const dialog = $('#kick-dialog');
  const name = state.cards.get(code)?.summary?.name;
  $('#kick-room').textContent = name ? `Room ${code} (${name})` : `Room ${code}`;
  $('#kick-error').textContent = '';
  $('#kick-id').value = '';
  $('#kick-id-label').textContent = 'Player id';
  const choices = $('#kick-choices');
  choices.replaceChildren(el('p', { className: 'muted small', text: 'Loading players…' }));
  if (!dialog.open) dialog.showModal();
  try {
    const res = await api(`/api/rooms/${encodeURIComponent(code)}`);
    const body = res.ok ? await res.json().catch(() => null) : null;
    if (kickCode !== code || !dialog.open) return; // closed or reopened for another room meanwhile
    const players = Array.isArray(body?.players) ? body.players : [];
    choices.replaceChildren();
    if (players.length === 0) {
      const text = res.status === 404 ? 'This room no longer exists.'
        : res.ok ? 'No players listed; enter a player id.' : 'The player list is not available; enter a player id.';
      choices.append(el('p', { className: 'muted small', text }));
      $('#kick-id').focus();
      return;
    }
    for (const p of players) {
      const id = String(p.id ?? '');
      const notes = [];
      if (id === body.drawer) notes.push('drawing');
      if (id === body.host) notes.push('host');
      if (p.spectator) notes.push('spectating');
      if (p.connected === false) notes.push('offline');
      choices.append(el('label', { className: 'kick-option' },
        el('input', { type: 'radio', name: 'kick-player', value: id, on: { change: () => { $('#kick-id').value = id; } } }),
        avatarNode(p.avatar, p.name, { size: 24 }),
        el('span', { text: p.name || '?' }),
        notes.length ? el('span', { className: 'muted small', text: `(${notes.join(', ')})` }) : null,
        el('code', { text: id }),
      ));
    }
    $('#kick-id-label').textContent = 'Player id (or pick above)';
    choices.querySelector('input')?.focus();
  } catch (err) {
    if (dialog.open) dialog.close();
    handleError(err);
  }
}

async function doKick() {
  const code = kickCode;
  const id = $('#kick-id').value.trim();
  if (!code || !id) return false;
  try {
    const res = await api(`/api/rooms/${encodeURIComponent(code)}/kick/${encodeURIComponent(id)}`, { method: 'POST' });
    if (res.ok) {
      const who = state.cards.get(code)?.detail?.players?.find((p) => String(p.id) === id)?.name;
      toast(who ? `${who} (${id}) was removed from ${code}.` : `Player ${id} was removed from ${code}.`, 'success');
      refresh();
      return true;
    }
    const reason = await res.json().then((b) => b?.error?.message).catch(() => null);
    $('#kick-error').textContent = res.status === 404
      ? (reason === 'no such room' ? 'That room no longer exists.' : 'No such player in that room.')
      : `Kick failed: HTTP ${res.status}${reason ? ` (${reason})` : ''}`;
  } catch (err) {
    handleError(err);
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- boot

function boot() {
  $('#login-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const token = $('#token-input').value.trim();
    if (!token) {
      $('#login-error').textContent = 'Enter the token.';
      return;
    }
    state.token = token;
    try {
      const res = await api('/api/rooms');
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      sessionStorage.setItem(TOKEN_KEY, token);
      $('#login-error').textContent = '';
      signedIn();
      refresh();
    } catch (err) {
      if (err instanceof Unauthorized) signOut('That token was rejected.');
      else $('#login-error').textContent = `Cannot reach the server (${err.message}).`;
    }
  });
  $('#mod-refresh').addEventListener('click', refresh);
  $('#mod-signout').addEventListener('click', () => signOut());
  $('#kick-form').addEventListener('submit', async (ev) => {
    const submitter = ev.submitter;
    if (!submitter || submitter.value !== 'kick') return; // cancel closes the dialog
    ev.preventDefault();
    const id = $('#kick-id').value.trim();
    if (!id) {
      $('#kick-error').textContent = 'Pick or enter a player id.';
      return;
    }
    if (!confirm(`Kick player ${id} from room ${kickCode}? They cannot rejoin it for 10 minutes.`)) return;
    if (await doKick()) $('#kick-dialog').close();
  });
  if (state.token) {
    signedIn();
    refresh();
  } else {
    signOut();
  }
}

boot();
