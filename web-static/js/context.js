// The player client's long-lived services, shared by its modules: the connection, the
// sounds, the turn countdown, and the board and chat log (made at boot, once the DOM is
// there).

import { toast } from './dom.js';
import { Connection } from './connection.js';
import { Sounds } from './sounds.js';
import { Countdown } from './util.js';
import { t } from './i18n.js';

export const conn = new Connection();
export const sounds = new Sounds();
export const countdown = new Countdown();
/** The countdown to the next game between games (room.nextGameMs). */
export const nextGame = new Countdown();

/** Set by boot(): the Board, the ChatLog and the AvatarBuilder. */
export const ui = { board: null, chat: null, builder: null };

/** Send a message; a toast says so when there is no connection. */
export function send(obj) {
  if (!conn.send(obj)) {
    toast(t('notice.notConnected'), 'error');
    return false;
  }
  return true;
}

export function requestRooms() {
  if (conn.isOpen) conn.send({ t: 'rooms' });
}
