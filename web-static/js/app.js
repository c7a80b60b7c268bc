// Player client: screens, room state, game flow. Entry point of index.html.

import { $, $$, el, show, toast, copyText } from './dom.js';
import { Connection, loadToken } from './connection.js';
import { Board } from './board.js';
import { icon, hydrateIcons } from './icons.js';
import { buildSettingsFields, readSettings, fillSettings, setSettingsDisabled } from './settings-form.js';
import {
  normalizeCode, isValidCode, cleanName, maskLengths, Countdown, formatSeconds,
  withPlaces, TURN_END_REASONS, CHAT_MAX,
} from './util.js';

const NAME_KEY = 'drawserver.name';

const PALETTE = [
  '#000000', '#4b5563', '#9ca3af', '#ffffff', '#7f1d1d', '#ef4444', '#f97316', '#facc15',
  '#84cc16', '#16a34a', '#14b8a6', '#0ea5e9', '#2563eb', '#1e3a8a', '#7c3aed', '#db2777',
  '#f9a8d4', '#92400e', '#d6a77a', '#fde68a',
];
const WIDTHS = [2, 4, 8, 16, 32, 48];

const ERROR_TEXT = {
  room_not_found: 'That room does not exist (any more).',
  room_full: 'That room is full.',
  already_in_room: 'You are already in a room.',
  banned: 'You were removed from that room and cannot rejoin yet.',
  not_host: 'Only the host can do that.',
  not_drawer: 'Only the drawer can draw right now.',
  wrong_phase: 'That is not possible right now.',
  not_enough_players: 'At least 2 players are needed to start.',
  rate_limited: 'Slow down a little.',
  too_large: 'That message is too long.',
  not_online: 'That player is not online.',
  bad_name: 'That nickname is not allowed.',
  not_in_room: 'You are not in a room.',
};

// ---------------------------------------------------------------- state

const S = {
  name: '',
  meId: null,
  welcomed: false,
  room: null, // latest room message (players updated by incremental events)
  phase: null,
  word: null, // the drawer's word
  mask: '',
  drawer: null,
  round: 0,
  rounds: 0,
  guessedPoints: {}, // playerId -> points this turn
  votekicks: {}, // playerId -> {votes, needed}
  chooseWords: null,
  pendingJoin: null, // room code from the invite link
  resumeTimer: null,
  invite: null,
  gameEndOpen: false,
  turnEndOpen: false,
  settingsDirty: false,
  lastRoomCode: null,
};

const countdown = new Countdown();
const conn = new Connection();
let board;

// ---------------------------------------------------------------- helpers

function me() {
  return S.room?.players?.find((p) => p.id === S.meId) || null;
}
function playerName(id) {
  const p = S.room?.players?.find((q) => q.id === id);
  return p ? p.name : 'someone';
}
function isHost() {
  return S.room && S.room.host === S.meId;
}
function isDrawer() {
  return S.drawer !== null && S.drawer === S.meId;
}
function send(obj) {
  if (!conn.send(obj)) {
    toast('Not connected — please wait a moment.', 'error');
    return false;
  }
  return true;
}
function errorText(msg) {
  // A refused drawing frame: the server's text says why (a full canvas, say), and the
  // `canvas` that follows sets the board back to what everyone else sees.
  if (msg.ref === 'binary' && msg.message) return msg.message;
  return ERROR_TEXT[msg.code] || msg.message || msg.code || 'Something went wrong.';
}

// ---------------------------------------------------------------- screens

function showScreen(which) {
  for (const id of ['name', 'lobby', 'room']) show($(`#screen-${id}`), id === which);
  document.body.dataset.screen = which;
  show($('#change-name'), which === 'lobby');
}

function currentScreen() {
  return document.body.dataset.screen;
}

function enterLobby(notice) {
  S.room = null;
  S.phase = null;
  S.drawer = null;
  S.word = null;
  S.mask = '';
  S.votekicks = {};
  S.guessedPoints = {};
  S.gameEndOpen = false;
  S.turnEndOpen = false;
  countdown.stop();
  board.setEnabled(false);
  board.reset();
  closeOverlays();
  showScreen('lobby');
  if (notice) toast(notice, 'info', 6000);
  requestRooms();
}

// ---------------------------------------------------------------- nickname

function initNameScreen() {
  const input = $('#name-input');
  input.value = localStorage.getItem(NAME_KEY) || '';
  $('#name-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = cleanName(input.value);
    if (!name) {
      $('#name-error').textContent = 'Use 1 to 24 characters.';
      input.focus();
      return;
    }
    $('#name-error').textContent = '';
    localStorage.setItem(NAME_KEY, name);
    S.name = name;
    conn.start(name);
  });
  $('#change-name').addEventListener('click', () => {
    conn.stop();
    showScreen('name');
    input.value = S.name;
    input.focus();
    input.select();
  });
}

// ---------------------------------------------------------------- lobby

function requestRooms() {
  if (conn.isOpen) conn.send({ t: 'rooms' });
}

function renderRoomList(rooms) {
  const list = $('#room-list');
  list.replaceChildren();
  const items = (Array.isArray(rooms) ? rooms : []).slice().sort((a, b) => (b.players || 0) - (a.players || 0));
  for (const r of items) {
    const full = Number(r.players) >= Number(r.maxPlayers);
    const join = el('button', {
      type: 'button',
      className: 'btn btn-sm',
      text: full ? 'Full' : 'Join',
      disabled: full,
      attrs: { 'aria-label': `Join room ${r.name || r.code}` },
      on: { click: () => joinRoom(r.code) },
    });
    list.append(
      el('li', { className: 'room-item', dataset: { code: String(r.code || '') } },
        el('div', { className: 'room-item-main' },
          el('span', { className: 'room-item-name', text: r.name || r.code || '' }),
          el('span', { className: 'muted small', text: `${r.code || ''} · ${phaseLabel(r.phase)}` }),
        ),
        el('span', { className: 'pill', text: `${r.players ?? '?'}/${r.maxPlayers ?? '?'}` }),
        join,
      ),
    );
  }
  show($('#room-list-empty'), items.length === 0);
}

function phaseLabel(phase) {
  return { lobby: 'waiting', choosing: 'playing', drawing: 'playing', turnEnd: 'playing', gameEnd: 'finished' }[phase] || phase || '';
}

function joinRoom(code) {
  const c = normalizeCode(code);
  if (!isValidCode(c)) {
    $('#join-error').textContent = 'A room code has 6 characters (letters and digits 2–9, no I, O, 0 or 1).';
    return;
  }
  $('#join-error').textContent = '';
  send({ t: 'join', code: c });
}

function initLobby() {
  buildSettingsFields($('[data-settings="create"]'));
  $('#join-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    joinRoom($('#join-code').value);
  });
  $('#join-code').addEventListener('input', (ev) => {
    const v = normalizeCode(ev.target.value);
    ev.target.value = v;
    $('#join-error').textContent = v.length === 6 && !isValidCode(v) ? 'Codes use only ABCDEFGHJKLMNPQRSTUVWXYZ23456789.' : '';
  });
  $('#create-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const msg = { t: 'create', public: $('#create-form').elements.visibility.value !== 'private', settings: readSettings($('[data-settings="create"]')) };
    const name = $('#create-name').value.trim();
    if (name) msg.name = name.slice(0, 40);
    send(msg);
  });
  $('#quickplay').addEventListener('click', () => send({ t: 'quickplay' }));
  $('#rooms-refresh').addEventListener('click', requestRooms);
  setInterval(() => {
    if (currentScreen() === 'lobby' && !document.hidden) requestRooms();
  }, 4000);
}

// ---------------------------------------------------------------- room rendering

function renderRoom() {
  const room = S.room;
  if (!room) return;
  if (currentScreen() !== 'room') showScreen('room');
  $('#room-title').textContent = room.name || room.code || 'Room';
  $('#room-code').textContent = room.code || '';
  $('#room-visibility').textContent = room.public === false ? 'Private' : 'Public';
  const inGame = S.phase && S.phase !== 'lobby';
  $('#room-round').textContent = inGame && S.round ? `Round ${S.round} of ${S.rounds || room.rounds || room.settings?.rounds || '?'}` : phaseLabel(S.phase);
  renderWord();
  renderPlayers();
  renderLobbyPanel();
  renderStage();
  const m = me();
  const spect = Boolean(m?.spectator);
  $('#spectate-toggle').setAttribute('aria-pressed', String(spect));
  $('#spectate-toggle').textContent = spect ? 'Play again' : 'Spectate';
  const chat = $('#chat-input');
  chat.placeholder = S.phase === 'drawing' && !isDrawer() && !m?.guessed && !spect ? 'Type your guess…' : 'Chat…';
}

function renderWord() {
  const label = $('#word-label');
  const word = $('#turn-word');
  const lengths = $('#word-lengths');
  word.removeAttribute('data-word');
  if (S.phase === 'drawing' || (S.phase === 'choosing' && S.word)) {
    if (isDrawer() && S.word) {
      label.textContent = 'Draw this:';
      word.textContent = S.word;
      word.dataset.word = S.word;
      word.classList.add('is-word');
      lengths.textContent = '';
    } else {
      label.textContent = 'Guess the word';
      word.textContent = S.mask || '';
      word.classList.remove('is-word');
      const ls = maskLengths(S.mask);
      lengths.textContent = ls.length ? `(${ls.join(', ')})` : '';
    }
  } else if (S.phase === 'choosing') {
    label.textContent = isDrawer() ? 'Pick a word' : `${playerName(S.drawer)} is choosing…`;
    word.textContent = '';
    lengths.textContent = '';
  } else {
    label.textContent = '';
    word.textContent = '';
    lengths.textContent = '';
  }
  show($('.word-box'), label.textContent !== '');
}

function renderPlayers() {
  const list = $('#player-list');
  const specList = $('#spectator-list');
  list.replaceChildren();
  specList.replaceChildren();
  const players = S.room?.players || [];
  const seated = players.filter((p) => !p.spectator).sort((a, b) => (b.score || 0) - (a.score || 0));
  const spectators = players.filter((p) => p.spectator);
  for (const p of seated) list.append(playerRow(p));
  for (const p of spectators) specList.append(playerRow(p));
  show($('#spectators-box'), spectators.length > 0);
}

function playerRow(p) {
  const isMe = p.id === S.meId;
  const drawing = p.id === S.drawer && (S.phase === 'drawing' || S.phase === 'choosing');
  const guessed = Boolean(p.guessed) || S.guessedPoints[p.id] !== undefined;
  const li = el('li', {
    className: ['player', isMe && 'me', p.connected === false && 'disconnected', drawing && 'drawing', guessed && 'guessed', p.spectator && 'spectator'].filter(Boolean).join(' '),
    dataset: { id: String(p.id) },
  });
  const marks = el('span', { className: 'marks' });
  if (S.room?.host === p.id) marks.append(el('span', { className: 'mark mark-host', title: 'Host' }, icon('crown', 'host')));
  if (drawing) marks.append(el('span', { className: 'mark mark-drawing', title: 'Drawing' }, icon('pencil', 'drawing')));
  if (guessed) marks.append(el('span', { className: 'mark mark-guessed', title: 'Guessed the word' }, icon('check', 'guessed the word')));
  if (S.phase === 'lobby' && p.ready) marks.append(el('span', { className: 'mark mark-ready', text: 'ready', attrs: { 'aria-label': 'ready' } }));
  if (p.connected === false) marks.append(el('span', { className: 'mark mark-offline', text: 'offline' }));
  const pts = S.phase === 'drawing' ? S.guessedPoints[p.id] : undefined;
  li.append(
    el('span', { className: 'avatar', text: (p.name || '?').slice(0, 1).toUpperCase(), attrs: { 'aria-hidden': 'true' } }),
    el('span', { className: 'player-main' },
      el('span', { className: 'player-name', text: p.name || '?' }, isMe ? el('span', { className: 'muted small', text: ' (you)' }) : null),
      el('span', { className: 'player-score', text: p.spectator ? 'spectating' : `${p.score || 0} pts` }, pts ? el('span', { className: 'gain', text: ` +${pts}` }) : null),
    ),
    marks,
  );
  if (!isMe) {
    const actions = el('span', { className: 'player-actions' });
    const vk = S.votekicks[p.id];
    actions.append(el('button', {
      type: 'button',
      className: 'btn btn-ghost btn-xs',
      text: vk ? `Vote kick ${vk.votes}/${vk.needed}` : 'Vote kick',
      attrs: { 'aria-label': `Vote to kick ${p.name}` },
      on: { click: () => { if (confirm(`Vote to kick ${p.name}?`)) send({ t: 'votekick', playerId: p.id }); } },
    }));
    if (isHost()) {
      actions.append(el('button', {
        type: 'button',
        className: 'btn btn-danger btn-xs',
        text: 'Kick',
        attrs: { 'aria-label': `Kick ${p.name}` },
        on: { click: () => { if (confirm(`Kick ${p.name} from the room?`)) send({ t: 'kick', playerId: p.id }); } },
      }));
    }
    li.append(actions);
  }
  return li;
}

function renderLobbyPanel() {
  const inLobby = S.phase === 'lobby' && !S.gameEndOpen;
  show($('#lobby-panel'), inLobby);
  if (!inLobby) return;
  const m = me();
  const players = (S.room.players || []).filter((p) => !p.spectator);
  const ready = players.filter((p) => p.ready).length;
  $('#lobby-status').textContent = players.length < 2
    ? 'Invite at least one more player (copy the invite link above).'
    : `${ready} of ${players.length} ready — the game starts when everyone is ready${isHost() ? ' or when you start it' : ''}.`;
  const rt = $('#ready-toggle');
  rt.setAttribute('aria-pressed', String(Boolean(m?.ready)));
  rt.textContent = m?.ready ? 'Ready ✓ (click to unready)' : "I'm ready";
  rt.classList.toggle('btn-success', Boolean(m?.ready));
  show($('#start-game'), isHost());
  const box = $('[data-settings="room"]');
  setSettingsDisabled(box, !isHost());
  show($('#settings-save'), isHost());
  $('#settings-note').textContent = isHost() ? '(you are the host)' : '(the host can change these)';
  if (!S.settingsDirty || !isHost()) fillSettings(box, S.room.settings || {});
}

function renderStage() {
  const inLobby = S.phase === 'lobby' && !S.gameEndOpen; // the podium stays until dismissed
  show($('#board-wrap'), !inLobby);
  const drawer = isDrawer() && S.phase === 'drawing';
  show($('#toolbar'), drawer);
  board.setEnabled(drawer && conn.isOpen && !me()?.spectator);
  // overlays
  show($('#overlay-choose'), S.phase === 'choosing' && isDrawer() && Array.isArray(S.chooseWords));
  show($('#overlay-choosing'), S.phase === 'choosing' && !isDrawer());
  $('#choosing-text').textContent = S.drawer ? `${playerName(S.drawer)} is choosing a word…` : 'The next drawer is choosing a word…';
  show($('#overlay-turnend'), S.turnEndOpen && S.phase === 'turnEnd');
  show($('#overlay-gameend'), S.gameEndOpen);
}

function closeOverlays() {
  for (const o of $$('.overlay')) o.hidden = true;
}

function tick() {
  const t = $('#timer');
  const running = countdown.running && S.room && (S.phase === 'drawing' || S.phase === 'choosing');
  show(t, Boolean(running));
  if (running) {
    const s = countdown.seconds();
    $('#timer-value').textContent = formatSeconds(s);
    t.classList.toggle('urgent', S.phase === 'drawing' && s <= 10);
    $('#choose-timer').textContent = String(s);
  }
}

// ---------------------------------------------------------------- chat

function addChat(parts, kind = 'msg') {
  const log = $('#chat-log');
  const li = el('li', { className: `chat-line chat-${kind}` });
  for (const p of parts) li.append(p);
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  log.append(li);
  while (log.children.length > 300) log.firstElementChild.remove();
  if (atBottom) log.scrollTop = log.scrollHeight;
}

function systemChat(text, kind = 'system') {
  addChat([el('span', { className: 'chat-text', text })], kind);
}

function initChat() {
  $('#chat-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = $('#chat-input');
    const text = input.value.trim();
    if (!text) return;
    if ([...text].length > CHAT_MAX) {
      toast(`Messages are limited to ${CHAT_MAX} characters.`, 'error');
      return;
    }
    if (send({ t: 'chat', text })) input.value = '';
  });
}

// ---------------------------------------------------------------- room controls

function initRoomControls() {
  buildSettingsFields($('[data-settings="room"]'));
  const box = $('[data-settings="room"]');
  box.addEventListener('input', () => { S.settingsDirty = true; });
  $('#settings-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!isHost()) return;
    if (send({ t: 'settings', settings: readSettings(box) })) {
      S.settingsDirty = false;
      toast('Settings saved.', 'success', 2000);
    }
  });
  $('#ready-toggle').addEventListener('click', () => send({ t: 'ready', ready: !me()?.ready }));
  $('#start-game').addEventListener('click', () => send({ t: 'start' }));
  $('#leave-room').addEventListener('click', () => {
    if (S.phase && S.phase !== 'lobby' && !confirm('Leave the game in progress?')) return;
    send({ t: 'leave' });
  });
  $('#spectate-toggle').addEventListener('click', () => {
    const on = !me()?.spectator;
    if (send({ t: 'spectate', on })) toast(on ? 'You will watch from the next turn.' : 'You will play again when a seat is free.', 'info');
  });
  $('#copy-invite').addEventListener('click', async () => {
    if (!S.room?.code) return;
    const link = `${location.origin}/?room=${encodeURIComponent(S.room.code)}`;
    toast((await copyText(link)) ? 'Invite link copied.' : `Invite link: ${link}`, 'success');
  });
  $('#copy-id').addEventListener('click', async () => {
    if (!S.meId) return;
    toast((await copyText(S.meId)) ? 'Player id copied.' : `Your id: ${S.meId}`, 'success');
  });
  $('#invite-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const id = $('#invite-id').value.trim();
    if (!id) return;
    if (id === S.meId) {
      toast('That is your own id.', 'error');
      return;
    }
    if (send({ t: 'invite', playerId: id })) {
      $('#invite-id').value = '';
      toast('Invitation sent.', 'success', 2000);
    }
  });
  $('#gameend-close').addEventListener('click', () => {
    S.gameEndOpen = false;
    renderRoom();
  });
  $('#invite-accept').addEventListener('click', () => {
    const inv = S.invite;
    hideInvite();
    if (!inv) return;
    if (S.room && S.room.code === inv.code) return;
    if (S.room) send({ t: 'leave' });
    send({ t: 'join', code: inv.code });
  });
  $('#invite-decline').addEventListener('click', hideInvite);
}

function showInvite(msg) {
  S.invite = { code: String(msg.code || ''), from: msg.from || {} };
  $('#invite-text').textContent = `${msg.from?.name || 'Someone'} invites you to room ${S.invite.code}.`;
  show($('#invite-prompt'), true);
  $('#invite-accept').focus();
}

function hideInvite() {
  S.invite = null;
  show($('#invite-prompt'), false);
}

// ---------------------------------------------------------------- drawing tools

function hexToRgb(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  const n = m ? parseInt(m[1], 16) : 0;
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function initToolbar() {
  const palette = $('#palette');
  const selectColor = (hex, btn) => {
    board.color = hexToRgb(hex);
    for (const b of $$('button', palette)) b.setAttribute('aria-pressed', String(b === btn));
    if (board.tool === 'eraser') setTool('pen');
  };
  PALETTE.forEach((hex, i) => {
    const b = el('button', {
      type: 'button',
      className: 'swatch',
      title: hex,
      attrs: { 'aria-label': `Colour ${hex}`, 'aria-pressed': String(i === 0) },
      on: { click: () => selectColor(hex, b) },
    });
    b.style.setProperty('--swatch', hex);
    palette.append(b);
  });
  $('#custom-color').addEventListener('input', (ev) => selectColor(ev.target.value, null));
  const widths = $('#widths');
  WIDTHS.forEach((w) => {
    const b = el('button', {
      type: 'button',
      className: 'tool width',
      title: `Width ${w}`,
      attrs: { 'aria-label': `Width ${w}`, 'aria-pressed': String(w === board.width) },
      on: { click: () => {
        board.width = w;
        for (const x of $$('button', widths)) x.setAttribute('aria-pressed', String(x === b));
      } },
    }, el('span', { className: 'width-dot', attrs: { 'aria-hidden': 'true' } }));
    b.style.setProperty('--w', `${Math.max(3, Math.min(26, w * 0.6))}px`);
    widths.append(b);
  });
  for (const b of $$('[data-tool]')) b.addEventListener('click', () => setTool(b.dataset.tool));
  $('#tool-undo').addEventListener('click', () => board.undo());
  $('#tool-clear').addEventListener('click', () => board.clear());
  $('#tool-skip').addEventListener('click', () => {
    if (confirm('Skip your turn? The word will be revealed.')) send({ t: 'skip' });
  });
  document.addEventListener('keydown', (ev) => {
    if (!board.enabled) return;
    const tag = ev.target?.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 'z') {
      ev.preventDefault();
      board.undo();
    } else if (!ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      const t = { b: 'pen', p: 'pen', e: 'eraser', f: 'fill' }[ev.key.toLowerCase()];
      if (t) setTool(t);
    }
  });
}

function setTool(tool) {
  board.tool = tool;
  for (const b of $$('[data-tool]')) b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
  board.canvas.dataset.activeTool = tool;
}

// ---------------------------------------------------------------- server messages

function resetTurnState() {
  S.guessedPoints = {};
  S.votekicks = S.votekicks || {};
  for (const p of S.room?.players || []) p.guessed = false;
}

function onRoom(msg) {
  const firstEntry = !S.room || S.room.code !== msg.code;
  clearTimeout(S.resumeTimer);
  S.resumeTimer = null;
  const prevPhase = S.phase;
  S.room = msg;
  if (!Array.isArray(S.room.players)) S.room.players = [];
  S.phase = msg.phase || 'lobby';
  S.drawer = msg.drawer ?? null;
  if (typeof msg.mask === 'string') S.mask = msg.mask;
  if (Number.isInteger(msg.round)) S.round = msg.round;
  S.rounds = msg.rounds || msg.settings?.rounds || S.rounds;
  if (typeof msg.word === 'string' && msg.word) S.word = msg.word;
  else if (S.phase !== 'turnEnd') S.word = null;
  if (typeof msg.remainingMs === 'number') countdown.set(msg.remainingMs);
  if (msg.canvas) board.ensureSize(msg.canvas.w, msg.canvas.h);
  if (S.phase === 'lobby') {
    S.turnEndOpen = false;
    S.guessedPoints = {};
    if (prevPhase !== 'lobby') S.settingsDirty = false;
  }
  if (S.phase !== 'choosing') S.chooseWords = null;
  if (S.phase !== 'turnEnd') S.turnEndOpen = false;
  if (firstEntry) {
    S.votekicks = {};
    S.lastRoomCode = msg.code;
    if (S.pendingJoin && S.pendingJoin === msg.code) S.pendingJoin = null;
    $('#chat-log').replaceChildren();
    systemChat(`You are in ${msg.name || 'the room'} (${msg.code}).`);
    if (S.phase === 'lobby' || S.phase === 'choosing') board.reset();
  }
  renderRoom();
}

function onMessage(msg) {
  switch (msg.t) {
    case 'welcome': {
      S.meId = String(msg.playerId ?? '');
      if (typeof msg.name === 'string' && msg.name) S.name = msg.name;
      S.welcomed = true;
      $('#me-name').textContent = S.name;
      $('#me-id').textContent = S.meId;
      show($('#me-box'), true);
      board.reset(); // the server resends the canvas of a resumed turn
      const wasInRoom = Boolean(S.room);
      if (msg.resumed && wasInRoom) {
        // wait for the room message; if none comes, the seat is gone
        clearTimeout(S.resumeTimer);
        S.resumeTimer = setTimeout(() => {
          S.resumeTimer = null;
          enterLobby('Your seat in the room was not kept.');
          joinPending();
        }, 2500);
        renderRoom();
      } else if (msg.resumed) {
        // a reload: the room (if any) follows right away; show the lobby meanwhile
        if (currentScreen() !== 'room') enterLobby();
        clearTimeout(S.resumeTimer);
        S.resumeTimer = setTimeout(() => {
          S.resumeTimer = null;
          joinPending();
        }, 600);
      } else {
        enterLobby(wasInRoom ? 'Your previous session expired.' : undefined);
        joinPending();
      }
      break;
    }
    case 'rooms':
      renderRoomList(msg.rooms);
      break;
    case 'room':
      onRoom(msg);
      break;
    case 'joined': {
      if (!S.room || !msg.player) break;
      const p = msg.player;
      const list = S.room.players;
      const i = list.findIndex((q) => q.id === p.id);
      const wasThere = i >= 0;
      if (wasThere) list[i] = { ...list[i], ...p };
      else list.push({ score: 0, ready: false, connected: true, guessed: false, spectator: false, ...p });
      if (!wasThere && p.id !== S.meId) systemChat(`${p.name || 'Someone'} joined.`, 'join');
      renderRoom();
      break;
    }
    case 'left': {
      if (msg.playerId === S.meId) {
        enterLobby();
        break;
      }
      if (!S.room) break;
      const name = playerName(msg.playerId);
      S.room.players = S.room.players.filter((p) => p.id !== msg.playerId);
      delete S.votekicks[msg.playerId];
      systemChat(`${name} left.`, 'leave');
      renderRoom();
      break;
    }
    case 'ready': {
      const p = S.room?.players.find((q) => q.id === msg.playerId);
      if (p) {
        p.ready = Boolean(msg.ready);
        renderRoom();
      }
      break;
    }
    case 'chat': {
      const sender = S.room?.players.find((q) => q.id === msg.from);
      const quiet = S.phase === 'drawing' && sender && (sender.guessed || sender.id === S.drawer);
      addChat([
        el('span', { className: 'chat-name', text: `${msg.name || sender?.name || '?'}: ` }),
        el('span', { className: 'chat-text', text: String(msg.text ?? '') }),
      ], quiet ? 'quiet' : msg.from === S.meId ? 'mine' : 'msg');
      break;
    }
    case 'choosing':
      if (!S.room) break;
      S.phase = 'choosing';
      S.drawer = msg.drawer ?? S.drawer;
      S.word = null;
      S.chooseWords = null;
      S.mask = '';
      S.turnEndOpen = false;
      S.gameEndOpen = false;
      countdown.set(msg.remainingMs);
      resetTurnState();
      board.reset();
      renderRoom();
      break;
    case 'choose':
      if (!S.room) break;
      S.phase = 'choosing';
      S.drawer = S.meId;
      S.word = null;
      S.mask = '';
      S.turnEndOpen = false;
      S.gameEndOpen = false;
      S.chooseWords = Array.isArray(msg.words) ? msg.words.map(String) : [];
      countdown.set(msg.remainingMs);
      resetTurnState();
      board.reset();
      renderChoices();
      renderRoom();
      $('#choose-words button')?.focus();
      break;
    case 'turn': {
      if (!S.room) break;
      const newTurn = S.phase !== 'drawing' || S.drawer !== msg.drawer;
      S.phase = 'drawing';
      S.drawer = msg.drawer ?? S.drawer;
      if (Number.isInteger(msg.round)) S.round = msg.round;
      S.mask = typeof msg.mask === 'string' ? msg.mask : '';
      S.word = typeof msg.word === 'string' ? msg.word : null;
      S.chooseWords = null;
      S.turnEndOpen = false;
      S.gameEndOpen = false;
      countdown.set(msg.remainingMs);
      if (newTurn) {
        resetTurnState();
        board.reset();
      }
      if (S.room) S.room.phase = 'drawing';
      renderRoom();
      if (isDrawer()) systemChat(`Your turn! Draw “${S.word || ''}”.`, 'turn');
      else systemChat(`${playerName(S.drawer)} is drawing now.`, 'turn');
      break;
    }
    case 'hint':
      if (typeof msg.mask === 'string') S.mask = msg.mask;
      renderWord();
      break;
    case 'close':
      systemChat(`“${String(msg.text ?? '')}” is close!`, 'close');
      break;
    case 'guessed': {
      const p = S.room?.players.find((q) => q.id === msg.playerId);
      if (p) p.guessed = true;
      S.guessedPoints[msg.playerId] = Number(msg.points) || 0;
      const who = msg.playerId === S.meId ? 'You' : playerName(msg.playerId);
      systemChat(`${who} guessed the word! (+${Number(msg.points) || 0})`, 'correct');
      if (msg.playerId === S.meId) toast('Correct!', 'success', 2500);
      renderRoom();
      break;
    }
    case 'turnEnd':
      onTurnEnd(msg);
      break;
    case 'gameEnd':
      onGameEnd(msg);
      break;
    case 'votekick': {
      const target = msg.target ?? msg.playerId;
      if (target) S.votekicks[target] = { votes: Number(msg.votes) || 0, needed: Number(msg.needed) || 0 };
      systemChat(`Vote to kick ${playerName(target)}: ${msg.votes ?? '?'}/${msg.needed ?? '?'}`, 'system');
      renderPlayers();
      break;
    }
    case 'invited':
      showInvite(msg);
      break;
    case 'kicked':
      enterLobby('You were removed from the room.');
      break;
    case 'closed':
      enterLobby('The room was closed by a moderator.');
      break;
    case 'canvas':
      board.reset(msg.w, msg.h);
      break;
    case 'error':
      onError(msg);
      break;
    default:
      break;
  }
}

function renderChoices() {
  const box = $('#choose-words');
  box.replaceChildren();
  (S.chooseWords || []).forEach((w, i) => {
    box.append(el('button', {
      type: 'button',
      className: 'btn btn-choice word-choice',
      text: w,
      dataset: { index: String(i) },
      on: { click: () => {
        if (send({ t: 'choose', index: i })) {
          S.chooseWords = null;
          renderStage();
        }
      } },
    }));
  });
}

function onTurnEnd(msg) {
  if (!S.room) return;
  S.phase = 'turnEnd';
  countdown.stop();
  board.setEnabled(false);
  S.turnEndOpen = true;
  $('#turnend-word').textContent = String(msg.word ?? '');
  $('#turnend-reason').textContent = TURN_END_REASONS[msg.reason] || String(msg.reason ?? '');
  const list = $('#turnend-scores');
  list.replaceChildren();
  const entries = Object.entries(msg.scores || {}).sort((a, b) => Number(b[1]) - Number(a[1]));
  for (const [id, delta] of entries) {
    const d = Number(delta) || 0;
    list.append(el('li', { className: d > 0 ? 'up' : '' },
      el('span', { text: playerName(id) }),
      el('span', { className: 'delta', text: d > 0 ? `+${d}` : String(d) }),
    ));
  }
  if (entries.length === 0) list.append(el('li', { className: 'muted', text: 'Nobody scored.' }));
  systemChat(`The word was “${String(msg.word ?? '')}”.`, 'reveal');
  renderRoom();
}

function onGameEnd(msg) {
  if (!S.room) return;
  S.phase = 'gameEnd';
  countdown.stop();
  board.setEnabled(false);
  S.turnEndOpen = false;
  S.gameEndOpen = true;
  const ranking = withPlaces(msg.ranking);
  const podium = $('#podium');
  const rest = $('#ranking');
  podium.replaceChildren();
  rest.replaceChildren();
  for (const r of ranking) {
    const item = el('li', { className: `place place-${Math.min(r.place, 4)}`, dataset: { place: String(r.place) } },
      el('span', { className: 'place-no', text: `${r.place}.` }),
      el('span', { className: 'place-name', text: r.name || playerName(r.id) }),
      el('span', { className: 'place-score', text: `${r.score} pts` }),
    );
    (r.place <= 3 ? podium : rest).append(item);
  }
  const mine = ranking.find((r) => r.id === S.meId);
  if (mine) systemChat(`Game over — you finished #${mine.place} with ${mine.score} points.`, 'reveal');
  renderRoom();
  $('#gameend-close').focus();
}

function onError(msg) {
  if (msg.code === 'bad_name' && !S.welcomed) {
    conn.stop();
    showScreen('name');
    $('#name-error').textContent = msg.message || ERROR_TEXT.bad_name;
    return;
  }
  if (['room_not_found', 'room_full', 'banned'].includes(msg.code) && currentScreen() !== 'room') {
    $('#join-error').textContent = errorText(msg);
    S.pendingJoin = null;
  }
  toast(errorText(msg), msg.code === 'rate_limited' ? 'info' : 'error');
}

function joinPending() {
  if (S.pendingJoin && !S.room) {
    const code = S.pendingJoin;
    S.pendingJoin = null;
    send({ t: 'join', code });
  }
}

// ---------------------------------------------------------------- connection status

function onStatus({ state, message, retryInMs }) {
  const dot = $('#conn-state');
  dot.dataset.state = state;
  show(dot, true); // hidden on the nickname screen until the first connection attempt
  const banner = $('#banner');
  const action = $('#banner-action');
  if (state === 'open') {
    $('#conn-text').textContent = 'Online';
    show(banner, false);
  } else if (state === 'connecting') {
    $('#conn-text').textContent = 'Connecting…';
  } else if (state === 'reconnecting') {
    $('#conn-text').textContent = 'Reconnecting…';
    $('#banner-text').textContent = retryInMs ? `${message || 'Connection lost.'} (next try in ${Math.ceil(retryInMs / 1000)} s)` : message || 'Reconnecting…';
    action.textContent = 'Retry now';
    show(action, true);
    show(banner, true);
  } else if (state === 'stopped') {
    $('#conn-text').textContent = 'Offline';
    if (message) {
      $('#banner-text').textContent = message;
      action.textContent = 'Reconnect here';
      show(action, true);
      show(banner, true);
    } else {
      show(banner, false);
    }
  }
  if (state !== 'open') {
    S.welcomed = false;
    board.setEnabled(false);
    board.batcher.reset();
  } else if (S.room) {
    renderStage();
  }
}

// ---------------------------------------------------------------- boot

function boot() {
  board = new Board($('#board'), (bytes) => conn.sendBinary(bytes));
  window.drawserverClient = { state: S, board, conn }; // for debugging and the e2e test

  conn.addEventListener('message', (ev) => onMessage(ev.detail));
  conn.addEventListener('binary', (ev) => { if (S.room) board.applyFrame(ev.detail); });
  conn.addEventListener('status', (ev) => onStatus(ev.detail));
  $('#banner-action').addEventListener('click', () => conn.reconnectNow());

  hydrateIcons();
  initNameScreen();
  initLobby();
  initRoomControls();
  initChat();
  initToolbar();
  setTool('pen');
  setInterval(tick, 250);

  // invite link /?room=CODE
  const params = new URLSearchParams(location.search);
  if (params.has('room')) {
    const code = normalizeCode(params.get('room'));
    if (isValidCode(code)) {
      S.pendingJoin = code;
      const hint = $('#name-room-hint');
      hint.textContent = `You are joining room ${code}.`;
      show(hint, true);
    } else {
      toast('The invite link has an invalid room code.', 'error');
    }
    history.replaceState(null, '', location.pathname);
  }

  const saved = cleanName(localStorage.getItem(NAME_KEY));
  if (saved && loadToken()) {
    // a reload in the same tab: resume the session straight away
    S.name = saved;
    showScreen('lobby');
    conn.start(saved);
  } else {
    showScreen('name');
    $('#name-input').focus();
  }
}

boot();
