// Which screen shows (nickname, lobby, room) and the way back to the lobby.

import { $, $$, show, toast } from './dom.js';
import { leaveRoom } from './store.js';
import { countdown, ui, requestRooms } from './context.js';
import { closePlayerMenu } from './player-menu.js';
import { renderStreamer } from './streamer.js';

export function showScreen(which) {
  for (const id of ['name', 'lobby', 'room']) show($(`#screen-${id}`), id === which);
  document.body.dataset.screen = which;
  show($('#change-name'), which === 'lobby');
  // from a room the gallery opens in a new tab, so a click never drops a seated player
  // out of a game; `opener` keeps this tab's session token for "My games" there
  const gallery = $('#gallery-link');
  if (which === 'room') {
    gallery.target = '_blank';
    gallery.rel = 'opener';
  } else {
    gallery.removeAttribute('target');
    gallery.removeAttribute('rel');
  }
}

export function currentScreen() {
  return document.body.dataset.screen;
}

export function closeOverlays() {
  for (const o of $$('.overlay')) o.hidden = true;
}

/** Out of the room: the lobby with its room list, and `notice` as a toast. */
export function enterLobby(notice) {
  leaveRoom();
  countdown.stop();
  ui.board.setEnabled(false);
  ui.board.reset();
  closeOverlays();
  closePlayerMenu();
  renderStreamer(); // out of a streamer's room: the own id shows again
  showScreen('lobby');
  if (notice) toast(notice, 'info', 6000);
  requestRooms();
}
