// Player client: screens, room state, game flow. Entry point of index.html.

import { $, $$, el, show, toast, copyText } from './dom.js';
import { Connection, loadToken } from './connection.js';
import { Board } from './board.js';
import { icon, hydrateIcons } from './icons.js';
import {
  buildSettingsFields, readSettings, fillSettings, setSettingsDisabled, setWordLanguages, retranslateSettings,
} from './settings-form.js';
import {
  normalizeCode, isValidCode, cleanName, maskLengths, Countdown, formatSeconds, withPlaces, CHAT_MAX,
} from './util.js';
import { t, initialLocale, setLocale } from './i18n.js';
import { initPrefs } from './prefs.js';
import { avatarNode } from './avatar.js';
import { AvatarBuilder } from './avatar-builder.js';
import { Sounds } from './sounds.js';
import { turnKey } from './chat-history.js';
import { ChatLog } from './chat-log.js';
import { openPlayerMenu, closePlayerMenu, initPlayerMenu, refreshPlayerMenu } from './player-menu.js';
import { fitRoom } from './layout.js';
import { drawingCard, reportMenu, galleryListed, rememberGalleryListed, isDrawingId } from './drawing-card.js';

const NAME_KEY = 'drawserver.name';

const PALETTE = [
  '#000000', '#4b5563', '#9ca3af', '#ffffff', '#7f1d1d', '#ef4444', '#f97316', '#facc15',
  '#84cc16', '#16a34a', '#14b8a6', '#0ea5e9', '#2563eb', '#1e3a8a', '#7c3aed', '#db2777',
  '#f9a8d4', '#92400e', '#d6a77a', '#fde68a',
];
const WIDTHS = [2, 4, 8, 16, 32, 48];

// server error codes with an interface text (js/locales: error.<code>)
const KNOWN_ERRORS = new Set([
  'room_not_found', 'room_full', 'already_in_room', 'banned', 'not_host', 'not_drawer', 'not_guesser',
  'wrong_phase', 'not_enough_players', 'rate_limited', 'too_large', 'not_online', 'bad_name', 'not_in_room',
  'too_many_bots', 'not_a_bot',
  'report_limited', 'unknown_target',
]);
const BOT_LEVELS = new Set(['easy', 'normal', 'hard']);
const RATINGS = new Set(['like', 'dislike', 'none']);

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
  turnEndMsg: null, // the last turnEnd / gameEnd, re-rendered on a language switch
  gameEndMsg: null,
  gameDrawings: [], // this game's drawings so far: {id, word, drawer, likes, dislikes}
  gameEndDrawings: [], // the finished game's, for the podium's gallery
  gameGalleryOpen: false, // the game-over dialog shows the drawings instead of the podium
  avatar: null, // my avatar (the builder's choice, then the server's copy from welcome)
  ratings: { likes: 0, dislikes: 0 },
  myRating: 'none',
  announcedTurn: null, // turnKey of the last "X is drawing now." line (resumes resend `turn`)
  lastTick: null, // last countdown second a tick sounded for
  lastStatus: null, // the last connection status, re-rendered on a language switch
  rooms: [], // the last public room list
};

const countdown = new Countdown();
const conn = new Connection();
const sounds = new Sounds();
let board;
let chat; // ChatLog of #chat-log

// ---------------------------------------------------------------- helpers

function me() {
  return S.room?.players?.find((p) => p.id === S.meId) || null;
}
function player(id) {
  return S.room?.players?.find((q) => q.id === id) || null;
}
function playerName(id) {
  return player(id)?.name || t('player.someone');
}
function isHost() {
  return S.room && S.room.host === S.meId;
}
function isDrawer() {
  return S.drawer !== null && S.drawer === S.meId;
}
function send(obj) {
  if (!conn.send(obj)) {
    toast(t('notice.notConnected'), 'error');
    return false;
  }
  return true;
}
function errorText(msg) {
  // A refused drawing frame: the server's text says why (a full canvas, say), and the
  // `canvas` that follows sets the board back to what everyone else sees.
  if (msg.ref === 'binary' && msg.message) return msg.message;
  return KNOWN_ERRORS.has(msg.code) ? t(`error.${msg.code}`) : msg.message || msg.code || t('error.generic');
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
  S.announcedTurn = null;
  resetRatings();
  countdown.stop();
  board.setEnabled(false);
  board.reset();
  closeOverlays();
  closePlayerMenu();
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
      $('#name-error').textContent = t('name.invalid');
      input.focus();
      return;
    }
    $('#name-error').textContent = '';
    localStorage.setItem(NAME_KEY, name);
    S.name = name;
    sounds.unlock();
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
  S.rooms = Array.isArray(rooms) ? rooms : [];
  const list = $('#room-list');
  list.replaceChildren();
  const items = S.rooms.slice().sort((a, b) => (b.players || 0) - (a.players || 0));
  for (const r of items) {
    const full = Number(r.players) >= Number(r.maxPlayers);
    const join = el('button', {
      type: 'button',
      className: 'btn btn-sm',
      text: full ? t('lobby.full') : t('lobby.join'),
      disabled: full,
      attrs: { 'aria-label': t('lobby.joinRoom', { name: r.name || r.code }) },
      on: { click: () => joinRoom(r.code) },
    });
    list.append(
      el('li', { className: 'room-item', dataset: { code: String(r.code || '') } },
        el('div', { className: 'room-item-main' },
          el('span', { className: 'room-item-name', text: r.name || r.code || '' }),
          el('span', { className: 'muted small', text: `${r.code || ''} · ${phaseLabel(r.phase)}` }),
        ),
        el('span', { className: 'pill', attrs: { dir: 'ltr' }, text: `${r.players ?? '?'}/${r.maxPlayers ?? '?'}` }),
        join,
      ),
    );
  }
  show($('#room-list-empty'), items.length === 0);
}

function phaseLabel(phase) {
  const key = { lobby: 'waiting', choosing: 'playing', drawing: 'playing', turnEnd: 'playing', gameEnd: 'finished' }[phase];
  return key ? t(`phase.${key}`) : phase || '';
}

function joinRoom(code) {
  const c = normalizeCode(code);
  if (!isValidCode(c)) {
    $('#join-error').textContent = t('lobby.codeInvalid');
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
    $('#join-error').textContent = v.length === 6 && !isValidCode(v) ? t('lobby.codeAlphabet') : '';
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
  document.body.dataset.phase = S.phase || 'lobby';
  // a room name in another script than the page keeps its own direction, at the page's side
  $('#room-title').replaceChildren(el('bdi', { text: room.name || room.code || t('room.room') }));
  $('#room-code').textContent = room.code || '';
  $('#room-visibility').textContent = room.public === false ? t('room.private') : t('room.public');
  const inGame = S.phase && S.phase !== 'lobby';
  $('#room-round').textContent = inGame && S.round
    ? t('room.roundOf', { round: S.round, rounds: S.rounds || room.rounds || room.settings?.rounds || '?' })
    : phaseLabel(S.phase);
  renderWord();
  renderPlayers();
  renderLobbyPanel();
  renderStage();
  renderRatings();
  const m = me();
  const spect = Boolean(m?.spectator);
  $('#spectate-toggle').setAttribute('aria-pressed', String(spect));
  $('#spectate-toggle').textContent = spect ? t('room.playAgain') : t('room.spectate');
  const chatInput = $('#chat-input');
  chatInput.placeholder = S.phase === 'drawing' && !isDrawer() && !m?.guessed && !spect ? t('chat.guessPlaceholder') : t('chat.placeholder');
  tick(); // the timer at once, not up to 250 ms later
  fitBoard();
}

function renderWord() {
  const label = $('#word-label');
  const word = $('#turn-word');
  const lengths = $('#word-lengths');
  word.removeAttribute('data-word');
  // the mask runs in the word's script direction, whatever the interface's
  word.dir = S.room?.settings?.language === 'ar' ? 'rtl' : 'ltr';
  if (S.phase === 'drawing' || (S.phase === 'choosing' && S.word)) {
    if (isDrawer() && S.word) {
      label.textContent = t('room.drawThis');
      word.textContent = S.word;
      word.dataset.word = S.word;
      word.classList.add('is-word');
      lengths.textContent = '';
    } else {
      label.textContent = t('room.guessWord');
      word.textContent = S.mask || '';
      word.classList.remove('is-word');
      const ls = maskLengths(S.mask);
      lengths.textContent = ls.length ? `(${ls.join(', ')})` : '';
    }
  } else if (S.phase === 'choosing') {
    label.textContent = isDrawer() ? t('room.pickWord') : t('room.isChoosing', { name: playerName(S.drawer) });
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
  refreshPlayerMenu((id) => $$('.player-list .player').find((li) => li.dataset.id === String(id))?.querySelector('.player-menu-btn') || null);
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
  if (S.room?.host === p.id) marks.append(el('span', { className: 'mark mark-host', title: t('player.host') }, icon('crown', t('player.host'))));
  if (drawing) marks.append(el('span', { className: 'mark mark-drawing', title: t('player.drawing') }, icon('pencil', t('player.drawing'))));
  if (guessed) marks.append(el('span', { className: 'mark mark-guessed', title: t('player.guessed') }, icon('check', t('player.guessed'))));
  if (p.bot) marks.append(botBadge());
  if (S.phase === 'lobby' && p.ready) marks.append(el('span', { className: 'mark mark-ready', text: t('player.ready') }));
  if (p.connected === false) marks.append(el('span', { className: 'mark mark-offline', text: t('player.offline') }));
  const pts = S.phase === 'drawing' ? S.guessedPoints[p.id] : undefined;
  li.append(
    avatarNode(p.avatar, p.name, { size: 34 }),
    el('span', { className: 'player-main' },
      el('span', { className: 'player-name' }, el('bdi', { text: p.name || '?' }), isMe ? el('span', { className: 'muted small', text: ` ${t('player.you')}` }) : null),
      el('span', { className: 'player-score', text: p.spectator ? t('player.spectating') : t('player.points', { n: p.score || 0 }) }, pts ? el('span', { className: 'gain', text: ` +${pts}` }) : null),
    ),
    marks,
  );
  const items = playerActions(p);
  if (items.length) {
    const btn = el('button', {
      type: 'button',
      className: 'btn btn-ghost btn-xs player-menu-btn',
      attrs: { 'aria-label': t('player.actions', { name: p.name }), 'aria-haspopup': 'menu', 'aria-expanded': 'false' },
    }, icon('more'));
    btn.addEventListener('click', () => openPlayerMenu(btn, p.id, () => playerActions(player(p.id) || p)));
    li.append(btn);
  }
  return li;
}

/** The badge a bot carries wherever players are shown. */
function botBadge() {
  return el('span', { className: 'mark mark-bot', title: t('player.botTitle'), text: t('player.bot') });
}

/** The actions that apply to another player now: vote kick in a game, kick for the host. */
function playerActions(p) {
  if (p.id === S.meId || !S.room) return [];
  const items = [];
  if (S.phase && S.phase !== 'lobby' && !me()?.spectator) {
    const vk = S.votekicks[p.id];
    items.push({
      id: 'votekick',
      label: vk ? t('player.votekickCount', { votes: vk.votes, needed: vk.needed }) : t('player.votekick'),
      action: () => { if (confirm(t('player.votekickConfirm', { name: p.name }))) send({ t: 'votekick', playerId: p.id }); },
    });
  }
  if (isHost() && p.bot) {
    // A bot is taken out of its seat, not kicked (no ban, no notice).
    items.push({ id: 'removeBot', label: t('player.removeBot'), danger: true, action: () => send({ t: 'removeBot', playerId: p.id }) });
    return items;
  }
  if (isHost()) {
    items.push({
      id: 'kick',
      label: t('player.kick'),
      danger: true,
      action: () => { if (confirm(t('player.kickConfirm', { name: p.name }))) send({ t: 'kick', playerId: p.id }); },
    });
  }
  return items;
}

function renderLobbyPanel() {
  const inLobby = S.phase === 'lobby' && !S.gameEndOpen;
  show($('#lobby-panel'), inLobby);
  if (!inLobby) return;
  const m = me();
  const players = (S.room.players || []).filter((p) => !p.spectator);
  const ready = players.filter((p) => p.ready).length;
  $('#lobby-status').textContent = players.length < 2
    ? t('room.inviteMore')
    : t(isHost() ? 'room.readyCountHost' : 'room.readyCount', { ready, total: players.length });
  const rt = $('#ready-toggle');
  rt.setAttribute('aria-pressed', String(Boolean(m?.ready)));
  rt.textContent = m?.ready ? t('room.readyOn') : t('room.ready');
  rt.classList.toggle('btn-success', Boolean(m?.ready));
  show($('#start-game'), isHost());
  show($('#bot-controls'), isHost());
  const box = $('[data-settings="room"]');
  setSettingsDisabled(box, !isHost());
  show($('#settings-save'), isHost());
  $('#settings-note').textContent = isHost() ? t('room.youHost') : t('room.hostCan');
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
  $('#choosing-text').textContent = S.drawer ? t('room.choosingWord', { name: playerName(S.drawer) }) : t('room.nextChoosing');
  show($('#overlay-turnend'), S.turnEndOpen && S.phase === 'turnEnd');
  show($('#overlay-gameend'), S.gameEndOpen);
}

function closeOverlays() {
  for (const o of $$('.overlay')) o.hidden = true;
}

// ---------------------------------------------------------------- ratings

function resetRatings() {
  S.ratings = { likes: 0, dislikes: 0 };
  S.myRating = 'none';
}

function takeRatings(r) {
  if (r && typeof r === 'object') {
    S.ratings = { likes: Math.max(0, Number(r.likes) || 0), dislikes: Math.max(0, Number(r.dislikes) || 0) };
  }
}

/** Like/dislike toggles for guessers, live counts for everyone (the drawer only sees them). */
function renderRatings() {
  const on = Boolean(S.room) && (S.phase === 'drawing' || S.phase === 'turnEnd');
  show($('#rating-bar'), on);
  if (!on) return;
  const canRate = !isDrawer() && !me()?.spectator;
  for (const [value, id, count] of [['like', '#rate-like', '#likes'], ['dislike', '#rate-dislike', '#dislikes']]) {
    const b = $(id);
    b.disabled = !canRate;
    b.setAttribute('aria-pressed', String(S.myRating === value));
    $(count).textContent = String(value === 'like' ? S.ratings.likes : S.ratings.dislikes);
  }
  $('#rating-bar').setAttribute('aria-label', t('rate.counts', S.ratings));
}

function rate(value) {
  if (isDrawer() || me()?.spectator) return;
  const next = S.myRating === value ? 'none' : value;
  if (send({ t: 'rate', value: next })) {
    S.myRating = next;
    renderRatings();
  }
}

// ---------------------------------------------------------------- layout

function fitBoard() {
  if (currentScreen() === 'room') fitRoom(board.model.w / board.model.h);
}

function tick() {
  const timer = $('#timer');
  const running = countdown.running && S.room && (S.phase === 'drawing' || S.phase === 'choosing');
  show(timer, Boolean(running));
  if (running) {
    const s = countdown.seconds();
    $('#timer-value').textContent = formatSeconds(s);
    timer.classList.toggle('urgent', S.phase === 'drawing' && s <= 10);
    $('#choose-auto').textContent = t('room.autoPick', { s });
    // a tick for each of the last ten seconds of a drawing turn
    if (S.phase === 'drawing' && s >= 1 && s <= 10 && S.lastTick !== s) sounds.play('tick');
    S.lastTick = s;
  } else {
    S.lastTick = null;
  }
}

// ---------------------------------------------------------------- chat

function initChat() {
  $('#chat-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = $('#chat-input');
    const text = input.value.trim();
    if (!text) return;
    if ([...text].length > CHAT_MAX) {
      toast(t('chat.tooLong', { n: CHAT_MAX }), 'error');
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
      toast(t('room.settingsSaved'), 'success', 2000);
    }
  });
  $('#ready-toggle').addEventListener('click', () => send({ t: 'ready', ready: !me()?.ready }));
  $('#start-game').addEventListener('click', () => send({ t: 'start' }));
  $('#add-bot').addEventListener('click', () => {
    const level = $('#bot-level').value;
    send({ t: 'addBot', level: BOT_LEVELS.has(level) ? level : 'normal' });
  });
  $('#leave-room').addEventListener('click', () => {
    if (S.phase && S.phase !== 'lobby' && !confirm(t('room.leaveConfirm'))) return;
    send({ t: 'leave' });
  });
  $('#spectate-toggle').addEventListener('click', () => {
    const on = !me()?.spectator;
    if (send({ t: 'spectate', on })) toast(on ? t('room.spectateOn') : t('room.spectateOff'), 'info');
  });
  $('#copy-invite').addEventListener('click', async () => {
    if (!S.room?.code) return;
    const link = `${location.origin}/?room=${encodeURIComponent(S.room.code)}`;
    toast((await copyText(link)) ? t('room.inviteCopied') : t('room.inviteLink', { link }), 'success');
  });
  $('#copy-id').addEventListener('click', async () => {
    if (!S.meId) return;
    toast((await copyText(S.meId)) ? t('room.idCopied') : t('room.yourId', { id: S.meId }), 'success');
  });
  $('#invite-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const id = $('#invite-id').value.trim();
    if (!id) return;
    if (id === S.meId) {
      toast(t('room.ownId'), 'error');
      return;
    }
    if (send({ t: 'invite', playerId: id })) {
      $('#invite-id').value = '';
      toast(t('room.inviteSent'), 'success', 2000);
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
  $('#rate-like').addEventListener('click', () => rate('like'));
  $('#rate-dislike').addEventListener('click', () => rate('dislike'));
}

function showInvite(msg) {
  S.invite = { code: String(msg.code || ''), from: msg.from && typeof msg.from === 'object' ? msg.from : {} };
  renderInvite();
  show($('#invite-prompt'), true);
  $('#invite-accept').focus();
}

function renderInvite() {
  if (!S.invite) return;
  const name = typeof S.invite.from.name === 'string' && S.invite.from.name ? S.invite.from.name : t('invite.someone');
  $('#invite-avatar').replaceChildren(avatarNode(S.invite.from.avatar, name, { size: 40 }));
  $('#invite-text').textContent = t('invite.text', { name, code: S.invite.code });
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
      dataset: { hex },
      attrs: { 'aria-label': t('tools.colourN', { hex }), 'aria-pressed': String(i === 0) },
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
      title: t('tools.widthN', { n: w }),
      dataset: { width: String(w) },
      attrs: { 'aria-label': t('tools.widthN', { n: w }), 'aria-pressed': String(w === board.width) },
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
    if (confirm(t('tools.skipConfirm'))) send({ t: 'skip' });
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

function retranslateToolbar() {
  for (const b of $$('#palette .swatch')) b.setAttribute('aria-label', t('tools.colourN', { hex: b.dataset.hex }));
  for (const b of $$('#widths .width')) {
    const label = t('tools.widthN', { n: b.dataset.width });
    b.setAttribute('aria-label', label);
    b.title = label;
  }
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
  if (S.phase === 'drawing' || S.phase === 'turnEnd') {
    takeRatings(msg.ratings);
    if (RATINGS.has(msg.myRating)) S.myRating = msg.myRating;
  } else {
    resetRatings();
  }
  if (firstEntry) {
    S.votekicks = {};
    S.announcedTurn = null;
    S.lastRoomCode = msg.code;
    if (S.pendingJoin && S.pendingJoin === msg.code) S.pendingJoin = null;
    chat.clear();
    chat.system('chat.youAreIn', { name: msg.name || t('chat.theRoom'), code: msg.code });
    if (S.phase === 'lobby' || S.phase === 'choosing') board.reset();
  }
  renderRoom();
}

/** Called for every `turn`; a resume resends it (protocol 4), so announce each turn once. */
function announceTurn() {
  const key = turnKey(S.round, S.drawer);
  if (S.announcedTurn === key) return;
  S.announcedTurn = key;
  if (isDrawer()) chat.system('chat.yourTurn', { word: S.word || '' }, 'turn');
  else chat.system('chat.isDrawing', { name: playerName(S.drawer) }, 'turn');
}

function showMe() {
  $('#me-name').textContent = S.name;
  $('#me-id').textContent = S.meId;
  $('#me-avatar').replaceChildren(avatarNode(S.avatar, S.name, { size: 28 }));
}

function onMessage(msg) {
  switch (msg.t) {
    case 'welcome': {
      S.meId = String(msg.playerId ?? '');
      if (typeof msg.name === 'string' && msg.name) S.name = msg.name;
      S.welcomed = true;
      if (msg.avatar && typeof msg.avatar === 'object') S.avatar = msg.avatar;
      showMe();
      show($('#me-box'), true);
      // The server does not keep this setting: send it on every connection.
      if (!galleryListed()) send({ t: 'gallery', listed: false });
      board.reset(); // the server resends the canvas of a resumed turn
      const wasInRoom = Boolean(S.room);
      if (msg.resumed && wasInRoom) {
        // wait for the room message; if none comes, the seat is gone
        clearTimeout(S.resumeTimer);
        S.resumeTimer = setTimeout(() => {
          S.resumeTimer = null;
          enterLobby(t('notice.seatLost'));
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
        enterLobby(wasInRoom ? t('notice.expired') : undefined);
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
      if (!wasThere && p.id !== S.meId) chat.system('chat.joined', { name: p.name || t('invite.someone') }, 'join');
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
      chat.system('chat.left', { name }, 'leave');
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
      const sender = player(msg.from);
      const quiet = S.phase === 'drawing' && sender && (sender.guessed || sender.id === S.drawer);
      chat.player(msg, quiet ? 'quiet' : msg.from === S.meId ? 'mine' : 'msg');
      break;
    }
    case 'chatHistory':
      chat.history(msg.lines, S.meId);
      break;
    case 'ratings':
      takeRatings(msg);
      renderRatings();
      if (S.phase === 'turnEnd' && S.turnEndMsg?.drawing) {
        const last = S.gameDrawings[S.gameDrawings.length - 1];
        if (last && last.id === S.turnEndMsg.drawing.id) Object.assign(last, S.ratings);
      }
      break;
    case 'reported':
      toast(t('report.thanks'), 'success');
      break;
    case 'gallery':
      break;
    case 'choosing':
      if (!S.room) break;
      S.phase = 'choosing';
      S.drawer = msg.drawer ?? S.drawer;
      S.word = null;
      S.chooseWords = null;
      S.mask = '';
      S.turnEndOpen = false;
      S.gameEndOpen = false;
      S.announcedTurn = null;
      countdown.set(msg.remainingMs);
      resetTurnState();
      board.reset();
      renderRoom();
      break;
    case 'choose': {
      if (!S.room) break;
      // a resume during the choice resends `choose`: sound only for a new choice
      if (!(S.phase === 'choosing' && S.drawer === S.meId && S.chooseWords)) sounds.play('yourTurn');
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
      S.announcedTurn = null;
      renderChoices();
      renderRoom();
      $('#choose-words button')?.focus();
      break;
    }
    case 'turn': {
      if (!S.room) break;
      // a new turn's `turn` comes before its `room`; on a resume `room` comes first
      const fresh = S.phase !== 'drawing';
      const newTurn = fresh || S.drawer !== msg.drawer;
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
        resetRatings();
        board.reset();
      }
      if (S.room) S.room.phase = 'drawing';
      renderRoom();
      announceTurn();
      if (fresh) sounds.play('wordChosen');
      break;
    }
    case 'hint':
      if (typeof msg.mask === 'string') S.mask = msg.mask;
      renderWord();
      break;
    case 'close':
      chat.system('chat.close', { text: String(msg.text ?? '') }, 'close');
      sounds.play('close');
      break;
    case 'guessed': {
      const p = S.room?.players.find((q) => q.id === msg.playerId);
      if (p) p.guessed = true;
      S.guessedPoints[msg.playerId] = Number(msg.points) || 0;
      const points = Number(msg.points) || 0;
      if (msg.playerId === S.meId) {
        chat.system('chat.youGuessed', { points }, 'correct');
        toast(t('chat.correct'), 'success', 2500);
        sounds.play('correctMine');
      } else {
        chat.system('chat.guessed', { name: playerName(msg.playerId), points }, 'correct');
        sounds.play('correctOther');
      }
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
      chat.system('chat.votekick', { name: playerName(target), votes: msg.votes ?? '?', needed: msg.needed ?? '?' }, 'system');
      renderPlayers();
      break;
    }
    case 'invited':
      showInvite(msg);
      break;
    case 'kicked':
      enterLobby(t('notice.removed'));
      break;
    case 'closed':
      enterLobby(t('notice.closed'));
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
  S.turnEndMsg = msg;
  takeRatings(msg.ratings);
  const id = msg.drawing?.id;
  if (isDrawingId(id) && !S.gameDrawings.some((d) => d.id === id)) {
    S.gameDrawings.push({ id, word: String(msg.word ?? ''), drawer: playerName(S.drawer), drawerId: S.drawer, ...S.ratings });
  }
  renderTurnEnd();
  chat.system('chat.wordWas', { word: String(msg.word ?? '') }, 'reveal');
  sounds.play('turnEnd');
  renderRoom();
}

function renderTurnEnd() {
  const msg = S.turnEndMsg;
  if (!msg) return;
  $('#turnend-word').textContent = String(msg.word ?? '');
  $('#turnend-word').dir = 'auto';
  $('#turnend-reason').textContent = ['time', 'allGuessed', 'skipped', 'drawerLeft'].includes(msg.reason) ? t(`reason.${msg.reason}`) : String(msg.reason ?? '');
  const ratings = $('#turnend-ratings');
  show(ratings, Boolean(msg.ratings));
  if (msg.ratings) ratings.replaceChildren(icon('like'), ` ${S.ratings.likes}   `, icon('dislike'), ` ${S.ratings.dislikes}`);
  const list = $('#turnend-scores');
  list.replaceChildren();
  const entries = Object.entries(msg.scores || {}).sort((a, b) => Number(b[1]) - Number(a[1]));
  for (const [id, delta] of entries) {
    const d = Number(delta) || 0;
    list.append(el('li', { className: d > 0 ? 'up' : '' },
      el('span', { className: 'who' }, avatarNode(player(id)?.avatar, playerName(id), { size: 22 }), el('span', { text: playerName(id) })),
      el('span', { className: 'delta', attrs: { dir: 'ltr' }, text: d > 0 ? `+${d}` : String(d) }),
    ));
  }
  if (entries.length === 0) list.append(el('li', { className: 'muted', text: t('room.nobodyScored') }));
  const report = $('#turnend-report');
  report.replaceChildren();
  const drawing = msg.drawing?.id;
  if (isDrawingId(drawing) && S.drawer !== S.meId) {
    report.append(reportMenu(t('report.drawing'), (reason) => send({ t: 'report', kind: 'drawing', drawing, reason })));
  }
}

function onGameEnd(msg) {
  if (!S.room) return;
  S.phase = 'gameEnd';
  countdown.stop();
  board.setEnabled(false);
  S.turnEndOpen = false;
  S.gameEndOpen = true;
  S.gameEndMsg = msg;
  S.announcedTurn = null;
  S.gameEndDrawings = S.gameDrawings;
  S.gameDrawings = [];
  S.gameGalleryOpen = false;
  renderGameEnd();
  const mine = withPlaces(msg.ranking).find((r) => r.id === S.meId);
  if (mine) chat.system('chat.gameOver', { place: mine.place, score: mine.score }, 'reveal');
  sounds.play('gameEnd');
  renderRoom();
  $('#gameend-close').focus();
}

function renderGameEnd() {
  const msg = S.gameEndMsg;
  if (!msg) return;
  const ranking = withPlaces(msg.ranking);
  const podium = $('#podium');
  const rest = $('#ranking');
  podium.replaceChildren();
  rest.replaceChildren();
  for (const r of ranking) {
    const name = r.name || playerName(r.id);
    const item = el('li', { className: `place place-${Math.min(r.place, 4)}`, dataset: { place: String(r.place), id: String(r.id ?? '') } },
      avatarNode(r.avatar ?? player(r.id)?.avatar, name, { size: r.place <= 3 ? 48 : 22 }),
      el('span', { className: 'place-no', text: `${r.place}.` }),
      el('span', { className: 'place-name', attrs: { dir: 'auto' }, text: name }),
      r.bot ? botBadge() : null,
      el('span', { className: 'place-score', text: t('player.points', { n: r.score }) }),
    );
    (r.place <= 3 ? podium : rest).append(item);
  }
  renderGameGallery();
}

/** Every turn's drawing of the game that just ended, under the podium. */
function renderGameGallery() {
  const list = $('#game-gallery-list');
  list.replaceChildren();
  for (const d of S.gameEndDrawings) {
    const onReport = d.drawerId === S.meId ? undefined : (reason) => send({ t: 'report', kind: 'drawing', drawing: d.id, reason });
    list.append(drawingCard(d, { onReport, size: 200 }));
  }
  const any = S.gameEndDrawings.length > 0;
  const open = any && S.gameGalleryOpen;
  show($('#game-gallery'), open);
  show($('#podium-view'), !open);
  const toggle = $('#gameend-drawings');
  show(toggle, any);
  toggle.setAttribute('aria-expanded', String(open));
  toggle.textContent = open ? t('gallery.showPodium') : t('gallery.showDrawings', { n: S.gameEndDrawings.length });
  $('#gallery-listed').checked = galleryListed();
}

function onError(msg) {
  if (msg.code === 'bad_name' && !S.welcomed) {
    conn.stop();
    showScreen('name');
    $('#name-error').textContent = t('error.bad_name');
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

function onStatus(status) {
  S.lastStatus = status;
  renderStatus(status);
  if (status.state !== 'open') {
    S.welcomed = false;
    board.setEnabled(false);
    board.batcher.reset();
  } else if (S.room) {
    renderStage();
  }
}

function renderStatus({ state, key, retryInMs }) {
  const dot = $('#conn-state');
  dot.dataset.state = state;
  show(dot, true); // hidden on the nickname screen until the first connection attempt
  const banner = $('#banner');
  const action = $('#banner-action');
  const message = key ? t(key) : '';
  if (state === 'open') {
    $('#conn-text').textContent = t('conn.online');
    show(banner, false);
  } else if (state === 'connecting') {
    $('#conn-text').textContent = t('conn.connecting');
  } else if (state === 'reconnecting') {
    $('#conn-text').textContent = t('conn.reconnecting');
    $('#banner-text').textContent = retryInMs
      ? t('banner.nextTry', { message: message || t('close.lost'), s: Math.ceil(retryInMs / 1000) })
      : message || t('conn.reconnecting');
    action.textContent = t('banner.retry');
    show(action, true);
    show(banner, true);
  } else if (state === 'stopped') {
    $('#conn-text').textContent = t('conn.offline');
    if (message) {
      $('#banner-text').textContent = message;
      action.textContent = t('banner.reconnectHere');
      show(action, true);
      show(banner, true);
    } else {
      show(banner, false);
    }
  }
}

// ---------------------------------------------------------------- language switch

/** Re-render everything code wrote after a language switch (markup is done by i18n.js). */
function retranslate() {
  retranslateToolbar();
  retranslateSettings();
  chat.retranslate();
  builder?.render();
  if (S.lastStatus) renderStatus(S.lastStatus);
  renderRoomList(S.rooms);
  if (S.invite) renderInvite();
  if (S.pendingJoin) $('#name-room-hint').textContent = t('name.joining', { code: S.pendingJoin });
  if (S.room) {
    renderTurnEnd();
    renderGameEnd();
    renderRoom();
  }
  tick();
}

async function loadWordLanguages() {
  try {
    const res = await fetch('/api/languages', { headers: { Accept: 'application/json' } });
    if (res.ok) setWordLanguages(await res.json());
  } catch {
    /* an older server: keep the built-in list */
  }
}

// ---------------------------------------------------------------- boot

let builder = null;

function boot() {
  setLocale(initialLocale(), { remember: false });
  board = new Board($('#board'), (bytes) => conn.sendBinary(bytes));
  chat = new ChatLog($('#chat-log'), player, (line, reason) => send({ t: 'report', kind: 'chat', from: line.from, text: line.text, reason }));
  $('#gameend-drawings').addEventListener('click', () => {
    S.gameGalleryOpen = !S.gameGalleryOpen;
    renderGameGallery();
  });
  $('#gallery-listed').addEventListener('change', (e) => {
    rememberGalleryListed(e.target.checked);
    send({ t: 'gallery', listed: e.target.checked });
  });
  window.drawserverClient = { state: S, board, conn, sounds }; // for debugging and the e2e test

  conn.addEventListener('message', (ev) => onMessage(ev.detail));
  conn.addEventListener('binary', (ev) => { if (S.room) board.applyFrame(ev.detail); });
  conn.addEventListener('status', (ev) => onStatus(ev.detail));
  $('#banner-action').addEventListener('click', () => conn.reconnectNow());

  hydrateIcons();
  initPrefs(sounds, retranslate);
  initPlayerMenu();
  builder = new AvatarBuilder({ preview: $('#avatar-preview'), parts: $('#avatar-parts'), random: $('#avatar-random') }, (a) => {
    S.avatar = a;
    conn.avatar = a;
  });
  initNameScreen();
  initLobby();
  initRoomControls();
  initChat();
  initToolbar();
  setTool('pen');
  setInterval(tick, 250);
  loadWordLanguages();
  window.addEventListener('resize', () => {
    closePlayerMenu();
    fitBoard();
  });

  // invite link /?room=CODE
  const params = new URLSearchParams(location.search);
  if (params.has('room')) {
    const code = normalizeCode(params.get('room'));
    if (isValidCode(code)) {
      S.pendingJoin = code;
      const hint = $('#name-room-hint');
      hint.textContent = t('name.joining', { code });
      show(hint, true);
    } else {
      toast(t('invite.badLink'), 'error');
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
