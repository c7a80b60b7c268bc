// Rendering of the room screen from the store: header (title, round, word, timer,
// ratings), the lobby panel, the stage and its overlays.

import { $, el, show } from './dom.js';
import { t, tParts } from './i18n.js';
import { maskLengths, formatSeconds } from './util.js';
import { fillSettings, setSettingsDisabled } from './settings-form.js';
import { fitRoom } from './layout.js';
import { state, me, playerName, isHost, isDrawer, inGame, isTelephone, isPhoneDrawing, setLastTick, setMyRating } from './store.js';
import { conn, countdown, nextGame, sounds, ui, send } from './context.js';
import { showScreen, currentScreen } from './screens.js';
import { phaseLabel } from './lobby.js';
import { renderPlayers } from './players-view.js';
import { renderStreamer, shownCode } from './streamer.js';
import { renderTelephone, stepLabel, phoneTick } from './telephone-view.js';

const URGENT_S = 10; // the timer turns red and ticks for the last seconds of a turn

export function renderRoom() {
  const room = state.room;
  if (!room) return;
  if (currentScreen() !== 'room') showScreen('room');
  document.body.dataset.phase = state.phase || 'lobby';
  // a room name in another script than the page keeps its own direction, at the page's side
  $('#room-title').replaceChildren(el('bdi', { text: room.name || shownCode(room.code) || t('room.room') }));
  renderStreamer(); // the code, the invite button, the badge, ids
  $('#room-visibility').textContent = room.public === false ? t('room.private') : t('room.public');
  $('#room-round').textContent = roundText(room);
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

/** The header's pill: the round, the telephone step, the album, or the phase. */
function roundText(room) {
  if (state.phase === 'telephone') return stepLabel();
  if (state.phase === 'album') return t('album.pill');
  return inGame() && state.round
    ? t('room.roundOf', { round: state.round, rounds: state.rounds || room.rounds || room.settings?.rounds || '?' })
    : phaseLabel(state.phase);
}

/** The word box: the drawer's word, the word a guesser found, the mask, or who is choosing. */
export function renderWord() {
  const word = $('#turn-word');
  // the mask runs in the word's script direction, whatever the interface's
  word.dir = state.room?.settings?.language === 'ar' ? 'rtl' : 'ltr';
  let label = null; // [key, params]
  let wordText = '';
  let lengthsText = '';
  let known = false;
  if (state.phase === 'drawing' || (state.phase === 'choosing' && state.word)) {
    if (isDrawer() && state.word) {
      label = ['room.drawThis'];
      wordText = state.word;
      known = true;
    } else if (state.solvedWord) {
      // a guesser who has the word sees it, as skribbl.io shows it (kept after a reload)
      label = ['room.solved'];
      wordText = state.solvedWord;
      known = true;
    } else {
      label = ['room.guessWord'];
      wordText = state.mask || '';
      const ls = maskLengths(state.mask);
      lengthsText = ls.length ? `(${ls.join(', ')})` : '';
    }
  } else if (state.phase === 'choosing') {
    label = isDrawer() ? ['room.pickWord'] : ['room.isChoosing', { name: playerName(state.drawer) }];
  } else if (isPhoneDrawing()) {
    // the telephone prompt where a drawer's word is (an empty text: draw what you like)
    label = ['room.drawThis'];
    wordText = state.phone.prompt || t('phone.draw.emptyPrompt');
    known = Boolean(state.phone.prompt);
  }
  $('#word-label').replaceChildren(...(label ? isolated(...label) : []));
  word.textContent = wordText;
  word.classList.toggle('is-word', known);
  word.classList.toggle('is-solved', known && !isDrawer());
  if (known) word.dataset.word = wordText;
  else word.removeAttribute('data-word');
  $('#word-lengths').textContent = lengthsText;
  show($('.word-box'), label !== null);
}

/** `key` with each parameter (a name) in its own <bdi>. */
function isolated(key, params = {}) {
  return tParts(key, params).map((p) => (p.param ? el('bdi', { text: p.text }) : p.text));
}

/** Between games: the countdown to the next game and "Play again" (= ready). */
function renderNextGame() {
  const running = state.phase === 'lobby' && state.nextGameMs !== null && nextGame.running;
  const m = me();
  const s = running ? nextGame.seconds() : 0;
  show($('#next-game'), running);
  show($('#gameend-next'), running && state.gameEndOpen);
  if (running) {
    $('#next-game-text').textContent = t('room.nextGameIn', { s });
    $('#gameend-next').textContent = t('room.nextGameIn', { s });
  }
  const again = $('#gameend-again');
  show(again, running && state.gameEndOpen && !m?.spectator);
  again.textContent = m?.ready ? t('room.playAgainOn') : t('room.playAgain');
  again.disabled = Boolean(m?.ready);
  return running;
}

export function renderLobbyPanel() {
  const countdownRuns = renderNextGame();
  const inLobby = state.phase === 'lobby' && !state.gameEndOpen;
  show($('#lobby-panel'), inLobby);
  if (!inLobby) return;
  const m = me();
  const players = (state.room.players || []).filter((p) => !p.spectator);
  const ready = players.filter((p) => p.ready).length;
  const phone = isTelephone();
  $('#lobby-status').textContent = players.length < (phone ? 3 : 2)
    ? t(phone ? 'phone.needThree' : 'room.inviteMore')
    : t(isHost() ? 'room.readyCountHost' : 'room.readyCount', { ready, total: players.length });
  const rt = $('#ready-toggle');
  rt.setAttribute('aria-pressed', String(Boolean(m?.ready)));
  if (countdownRuns) rt.textContent = m?.ready ? t('room.playAgainOn') : t('room.playAgain');
  else rt.textContent = m?.ready ? t('room.readyOn') : t('room.ready');
  rt.classList.toggle('btn-success', Boolean(m?.ready));
  show($('#start-game'), isHost());
  show($('#bot-controls'), isHost() && !phone); // bots do not play telephone (PROTOCOL 12.5)
  // No seat a bot may take: the room is full, or bots hold all seats but one (the server
  // keeps that one for a person).
  const seated = state.room.players || [];
  const max = Number(state.room.settings?.maxPlayers) || 0;
  const bots = seated.filter((p) => p.bot).length;
  $('#add-bot').disabled = max > 0 && (seated.length >= max || bots >= max - 1);
  const box = $('[data-settings="room"]');
  setSettingsDisabled(box, !isHost());
  show($('#settings-save'), isHost());
  $('#settings-note').textContent = isHost() ? t('room.youHost') : t('room.hostCan');
  if (!state.settingsDirty || !isHost()) fillSettings(box, state.room.settings || {});
}

export function renderStage() {
  const inLobby = state.phase === 'lobby' && !state.gameEndOpen; // the podium stays until dismissed
  // telephone: the board only in a draw step (the write and describe steps, the album
  // and a watcher's screen are panels of their own)
  const phoneScreen = state.phase === 'telephone' || state.phase === 'album';
  show($('#board-wrap'), !inLobby && (!phoneScreen || isPhoneDrawing()));
  const drawer = (isDrawer() && state.phase === 'drawing') || isPhoneDrawing();
  show($('#toolbar'), drawer);
  show($('#tool-skip'), !isPhoneDrawing()); // a telephone step is not skipped
  renderTelephone();
  ui.board.setEnabled(drawer && conn.isOpen && !me()?.spectator);
  show($('#overlay-choose'), state.phase === 'choosing' && isDrawer() && Array.isArray(state.chooseWords));
  show($('#overlay-choosing'), state.phase === 'choosing' && !isDrawer());
  $('#choosing-text').replaceChildren(...(state.drawer ? isolated('room.choosingWord', { name: playerName(state.drawer) }) : [t('room.nextChoosing')]));
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

/** The turn timer and the next game's countdown, every 250 ms. */
export function tick() {
  if (state.room && state.phase === 'lobby') renderNextGame();
  const timer = $('#timer');
  // a telephone watcher is told no step's clock (only its own join's): no timer for it
  const timed = state.phase === 'drawing' || state.phase === 'choosing' || (state.phase === 'telephone' && state.phone.step !== null);
  const running = countdown.running && state.room && timed;
  show(timer, Boolean(running));
  if (!running) {
    setLastTick(null);
    return;
  }
  const s = countdown.seconds();
  $('#timer-value').textContent = formatSeconds(s);
  // a turn or a telephone step of one's own: red and ticking at its end (not a word choice)
  const urgentKind = state.phase === 'drawing' || state.phase === 'telephone';
  timer.classList.toggle('urgent', urgentKind && s <= URGENT_S);
  $('#choose-auto').textContent = t('room.autoPick', { s });
  // a tick for each of the last seconds of a drawing turn
  if (urgentKind && s >= 1 && s <= URGENT_S && state.lastTick !== s) sounds.play('tick');
  setLastTick(s);
  if (state.phase === 'telephone') phoneTick(countdown.remainingMs());
}
