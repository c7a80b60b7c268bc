// Player client: entry point of index.html. Wires the modules together at boot:
//   store.js (state, named updates)  handlers.js (one handler per server message)
//   room-view / players-view / overlays (rendering)  lobby / controls / toolbar (input)
// See docs/CLIENT.md, "Structure".

import { $, show, toast } from './dom.js';
import { loadToken } from './connection.js';
import { Board } from './board.js';
import { hydrateIcons } from './icons.js';
import { setWordLanguages, retranslateSettings } from './settings-form.js';
import { normalizeCode, isValidCode, cleanName } from './util.js';
import { t, initialLocale, setLocale } from './i18n.js';
import { initPrefs } from './prefs.js';
import { AvatarBuilder } from './avatar-builder.js';
import { ChatLog } from './chat-log.js';
import { initPlayerMenu, closePlayerMenu } from './player-menu.js';
import { rememberGalleryListed } from './drawing-card.js';
import { state, player, setName, setAvatar, setPendingJoin, toggleGameGallery } from './store.js';
import { conn, sounds, ui, send } from './context.js';
import { showScreen } from './screens.js';
import { NAME_KEY, initNameScreen, initLobby, renderRoomList } from './lobby.js';
import { renderRoom, tick, fitBoard } from './room-view.js';
import { renderTurnEnd, renderGameEnd, renderGameGallery, renderInvite } from './overlays.js';
import { initRoomControls, initChat } from './controls.js';
import { initToolbar, retranslateToolbar, updateBrushCursor } from './toolbar.js';
import { onMessage } from './handlers.js';
import { onStatus, renderStatus } from './status.js';
import { initConfirmDialog } from './confirm-dialog.js';
import { initStreamer, codeRef } from './streamer.js';
import { initTelephone } from './telephone-view.js';

const TICK_MS = 250;

/** Re-render everything code wrote after a language switch (markup is done by i18n.js). */
function retranslate() {
  // the switch re-lays the page out: a reader of the newest chat line stays there
  const stick = ui.chat.atBottom();
  retranslateToolbar();
  retranslateSettings();
  ui.chat.retranslate();
  ui.builder?.render();
  if (state.lastStatus) renderStatus(state.lastStatus);
  renderRoomList(state.rooms);
  if (state.invite) renderInvite();
  if (state.pendingJoin) $('#name-room-hint').textContent = t('name.joining', { code: state.pendingJoin });
  if (state.room) {
    renderTurnEnd();
    renderGameEnd();
    renderRoom();
  }
  tick();
  if (stick) {
    ui.chat.scrollToEnd();
    requestAnimationFrame(() => ui.chat.scrollToEnd());
  }
}

async function loadWordLanguages() {
  try {
    const res = await fetch('/api/languages', { headers: { Accept: 'application/json' } });
    if (res.ok) setWordLanguages(await res.json());
  } catch {
    /* an older server: keep the built-in list */
  }
}

function initGameEndGallery() {
  $('#gameend-drawings').addEventListener('click', () => {
    toggleGameGallery();
    renderGameGallery();
  });
  $('#gallery-listed').addEventListener('change', (e) => {
    rememberGalleryListed(e.target.checked);
    send({ t: 'gallery', listed: e.target.checked });
  });
}

/** The invite link /?room=CODE: joined once the player has a name and a connection. */
function readInviteLink() {
  const params = new URLSearchParams(location.search);
  if (!params.has('room')) return;
  const code = normalizeCode(params.get('room'));
  if (isValidCode(code)) {
    setPendingJoin(code);
    const hint = $('#name-room-hint');
    hint.textContent = t('name.joining', { code });
    show(hint, true);
  } else {
    toast(t('invite.badLink'), 'error');
  }
  history.replaceState(null, '', location.pathname);
}

function boot() {
  setLocale(initialLocale(), { remember: false });
  ui.board = new Board($('#board'), (bytes) => conn.sendBinary(bytes), {
    preview: $('#board-preview'),
    zoom: { frame: $('#board-wrap'), view: $('#board-view'), button: $('#zoom-fit'), label: $('#zoom-level') },
  });
  ui.chat = new ChatLog($('#chat-log'), player, (line, reason) => send({ t: 'report', kind: 'chat', from: line.from, text: line.text, reason }), codeRef);
  window.drawserverClient = { state, board: ui.board, conn, sounds }; // for debugging and the e2e test

  conn.addEventListener('message', (ev) => onMessage(ev.detail));
  conn.addEventListener('binary', (ev) => { if (state.room) ui.board.applyFrame(ev.detail); });
  conn.addEventListener('status', (ev) => onStatus(ev.detail));
  $('#banner-action').addEventListener('click', () => conn.reconnectNow());

  hydrateIcons();
  initPrefs(sounds, retranslate);
  initPlayerMenu();
  initConfirmDialog();
  ui.builder = new AvatarBuilder({ preview: $('#avatar-preview'), parts: $('#avatar-parts'), random: $('#avatar-random') }, (a) => {
    setAvatar(a);
    conn.avatar = a;
  });
  initNameScreen();
  initLobby();
  initRoomControls();
  initStreamer();
  initChat();
  initToolbar();
  initTelephone(renderRoom);
  initGameEndGallery();
  setInterval(tick, TICK_MS);
  loadWordLanguages();
  window.addEventListener('resize', () => {
    closePlayerMenu();
    fitBoard();
    updateBrushCursor();
  });
  readInviteLink();

  const saved = cleanName(localStorage.getItem(NAME_KEY));
  if (saved && loadToken()) {
    // a reload in the same tab: resume the session straight away
    setName(saved);
    showScreen('lobby');
    conn.start(saved);
  } else {
    showScreen('name');
    $('#name-input').focus();
  }
}

boot();
