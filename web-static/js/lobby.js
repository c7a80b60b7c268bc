// The nickname screen and the lobby: public room list, join by code, create, quick play.

import { $, el, show } from './dom.js';
import { t } from './i18n.js';
import { normalizeCode, isValidCode, cleanName } from './util.js';
import { buildSettingsFields, readSettingsChecked, wordLanguageName } from './settings-form.js';
import { showSettingsAdjusted } from './notices.js';
import { state, setName, setRooms, setRoomQuery } from './store.js';
import { peopleAndBots, roomMatches, isPlaying } from './room-summary.js';
import { conn, sounds, send, requestRooms } from './context.js';
import { showScreen, currentScreen } from './screens.js';

export const NAME_KEY = 'drawserver.name';
const ROOMS_POLL_MS = 4000;

export function initNameScreen() {
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
    setName(name);
    sounds.unlock();
    conn.start(name);
  });
  $('#change-name').addEventListener('click', () => {
    conn.stop();
    showScreen('name');
    input.value = state.name;
    input.focus();
    input.select();
  });
}

export function phaseLabel(phase) {
  const key = { lobby: 'waiting', choosing: 'playing', drawing: 'playing', turnEnd: 'playing', gameEnd: 'finished', telephone: 'playing', album: 'playing' }[phase];
  return key ? t(`phase.${key}`) : phase || '';
}

/** The room's second line: code, word language, phase (with the round while playing). */
function roomMeta(r) {
  const parts = [r.code || ''];
  if (r.language) parts.push(wordLanguageName(r.language));
  const playing = isPlaying(r.phase);
  parts.push(playing && Number(r.round) > 0 && Number(r.rounds) > 0 ? t('room.roundOf', { round: r.round, rounds: r.rounds }) : phaseLabel(r.phase));
  const mix = peopleAndBots(r, t);
  if (mix) parts.push(mix);
  return parts.join(' · ');
}

function roomItem(r) {
  const full = Number(r.players) >= Number(r.maxPlayers);
  const join = el('button', {
    type: 'button',
    className: 'btn btn-sm',
    text: full ? t('lobby.full') : t('lobby.join'),
    disabled: full,
    attrs: { 'aria-label': t('lobby.joinRoom', { name: r.name || r.code }) },
    on: { click: () => joinRoom(r.code) },
  });
  return el('li', { className: 'room-item', dataset: { code: String(r.code || '') } },
    el('div', { className: 'room-item-main' },
      el('span', { className: 'room-item-name', text: r.name || r.code || '' }),
      el('span', { className: 'muted small room-item-meta', text: roomMeta(r) }),
    ),
    el('span', { className: 'pill', attrs: { dir: 'ltr' }, text: `${r.players ?? '?'}/${r.maxPlayers ?? '?'}` }),
    join,
  );
}

export function renderRoomList(rooms) {
  setRooms(rooms);
  const list = $('#room-list');
  const items = state.rooms.filter((r) => roomMatches(r, state.roomQuery, wordLanguageName)).sort((a, b) => (b.players || 0) - (a.players || 0));
  list.replaceChildren(...items.map(roomItem));
  show($('#room-list-empty'), state.rooms.length === 0);
  const noMatch = $('#room-list-nomatch');
  noMatch.textContent = t('lobby.noMatch', { q: state.roomQuery.trim() });
  show(noMatch, state.rooms.length > 0 && items.length === 0);
}

export function joinRoom(code) {
  const c = normalizeCode(code);
  if (!isValidCode(c)) {
    $('#join-error').textContent = t('lobby.codeInvalid');
    return;
  }
  $('#join-error').textContent = '';
  send({ t: 'join', code: c });
}

export function initLobby() {
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
    const { settings, adjusted } = readSettingsChecked($('[data-settings="create"]'));
    const msg = { t: 'create', public: $('#create-form').elements.visibility.value !== 'private', settings };
    if (Object.keys(adjusted).length) showSettingsAdjusted(adjusted);
    const name = $('#create-name').value.trim();
    if (name) msg.name = name.slice(0, 40);
    send(msg);
  });
  $('#quickplay').addEventListener('click', () => send({ t: 'quickplay' }));
  $('#rooms-refresh').addEventListener('click', requestRooms);
  $('#room-search').addEventListener('input', (ev) => {
    setRoomQuery(ev.target.value);
    renderRoomList(state.rooms);
  });
  setInterval(() => {
    if (currentScreen() === 'lobby' && !document.hidden) requestRooms();
  }, ROOMS_POLL_MS);
}
