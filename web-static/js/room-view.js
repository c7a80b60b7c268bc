// Rendering of the room screen from the store: header (title, round, word, timer,
// ratings), the lobby panel, the stage and its overlays.

import { $, el, show } from './dom.js';
import { t } from './i18n.js';
import { maskLengths, formatSeconds } from './util.js';
import { fillSettings, setSettingsDisabled } from './settings-form.js';
import { fitRoom } from './layout.js';
import { state, me, playerName, isHost, isDrawer, inGame, setLastTick, setMyRating } from './store.js';
import { conn, countdown, sounds, ui, send } from './context.js';
import { showScreen, currentScreen } from './screens.js';
import { phaseLabel } from './lobby.js';
import { renderPlayers } from './players-view.js';

const URGENT_S = 10; // the timer turns red and ticks for the last seconds of a turn

export function renderRoom() {
  const room = state.room;
  if (!room) return;
  if (currentScreen() !== 'room') showScreen('room');
  document.body.dataset.phase = state.phase || 'lobby';
  // a room name in another script than the page keeps its own direction, at the page's side
  $('#room-title').replaceChildren(el('bdi', { text: room.name || room.code || t('room.room') }));
  $('#room-code').textContent = room.code || '';
  $('#room-visibility').textContent = room.public === false ? t('room.private') : t('room.public');
  $('#room-round').textContent = inGame() && state.round
    ? t('room.roundOf', { round: state.round, rounds: state.rounds || room.rounds || room.settings?.rounds || '?' })
    : phaseLabel(state.phase);
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
  chatInput.placeholder = state.phase === 'drawing' && !isDrawer() && !m?.guessed && !spect ? t('chat.guessPlaceholder') : t('chat.placeholder');
  tick(); // the timer at once, not up to 250 ms later
  fitBoard();
}

/** The word box: the drawer's word, the guessers' mask, or who is choosing. */
export function renderWord() {
  const label = $('#word-label');
  const word = $('#turn-word');
  const lengths = $('#word-lengths');
  word.removeAttribute('data-word');
  // the mask runs in the word's script direction, whatever the interface's
  word.dir = state.room?.settings?.language === 'ar' ? 'rtl' : 'ltr';
  let labelText = '';
  let wordText = '';
  let lengthsText = '';
  let known = false;
  if (state.phase === 'drawing' || (state.phase === 'choosing' && state.word)) {
    if (isDrawer() && state.word) {
      labelText = t('room.drawThis');
      wordText = state.word;
      known = true;
    } else {
      labelText = t('room.guessWord');
      wordText = state.mask || '';
      const ls = maskLengths(state.mask);
      lengthsText = ls.length ? `(${ls.join(', ')})` : '';
    }
  } else if (state.phase === 'choosing') {
    labelText = isDrawer() ? t('room.pickWord') : t('room.isChoosing', { name: playerName(state.drawer) });
  }
  label.textContent = labelText;
  word.textContent = wordText;
  word.classList.toggle('is-word', known);
  if (known) word.dataset.word = wordText;
  lengths.textContent = lengthsText;
  show($('.word-box'), labelText !== '');
}

export function renderLobbyPanel() {
  const inLobby = state.phase === 'lobby' && !state.gameEndOpen;
  show($('#lobby-panel'), inLobby);
  if (!inLobby) return;
  const m = me();
  const players = (state.room.players || []).filter((p) => !p.spectator);
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
  if (!state.settingsDirty || !isHost()) fillSettings(box, state.room.settings || {});
}

export function renderStage() {
  const inLobby = state.phase === 'lobby' && !state.gameEndOpen; // the podium stays until dismissed
  show($('#board-wrap'), !inLobby);
  const drawer = isDrawer() && state.phase === 'drawing';
  show($('#toolbar'), drawer);
  ui.board.setEnabled(drawer && conn.isOpen && !me()?.spectator);
  show($('#overlay-choose'), state.phase === 'choosing' && isDrawer() && Array.isArray(state.chooseWords));
  show($('#overlay-choosing'), state.phase === 'choosing' && !isDrawer());
  $('#choosing-text').textContent = state.drawer ? t('room.choosingWord', { name: playerName(state.drawer) }) : t('room.nextChoosing');
  show($('#overlay-turnend'), state.turnEndOpen && state.phase === 'turnEnd');
  show($('#overlay-gameend'), state.gameEndOpen);
}

/** Like/dislike toggles for guessers, live counts for everyone (the drawer only sees them). */
export function renderRatings() {
  const on = Boolean(state.room) && (state.phase === 'drawing' || state.phase === 'turnEnd');
  show($('#rating-bar'), on);
  if (!on) return;
  const canRate = !isDrawer() && !me()?.spectator;
  for (const [value, id, count] of [['like', '#rate-like', '#likes'], ['dislike', '#rate-dislike', '#dislikes']]) {
    const b = $(id);
    b.disabled = !canRate;
    b.setAttribute('aria-pressed', String(state.myRating === value));
    $(count).textContent = String(value === 'like' ? state.ratings.likes : state.ratings.dislikes);
  }
  $('#rating-bar').setAttribute('aria-label', t('rate.counts', state.ratings));
}

export function rate(value) {
  if (isDrawer() || me()?.spectator) return;
  const next = state.myRating === value ? 'none' : value;
  if (send({ t: 'rate', value: next })) {
    setMyRating(next);
    renderRatings();
  }
}

export function fitBoard() {
  if (currentScreen() === 'room') fitRoom(ui.board.model.w / ui.board.model.h);
}

/** The turn timer, every 250 ms. */
export function tick() {
  const timer = $('#timer');
  const running = countdown.running && state.room && (state.phase === 'drawing' || state.phase === 'choosing');
  show(timer, Boolean(running));
  if (!running) {
    setLastTick(null);
    return;
  }
  const s = countdown.seconds();
  $('#timer-value').textContent = formatSeconds(s);
  timer.classList.toggle('urgent', state.phase === 'drawing' && s <= URGENT_S);
  $('#choose-auto').textContent = t('room.autoPick', { s });
  // a tick for each of the last seconds of a drawing turn
  if (state.phase === 'drawing' && s >= 1 && s <= URGENT_S && state.lastTick !== s) sounds.play('tick');
  setLastTick(s);
}
