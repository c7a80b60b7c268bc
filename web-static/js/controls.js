// The room's buttons and forms: chat, ready/start, bots, settings, leave, spectate,
// invites, the game-over dialog and ratings.

import { $, toast, copyText } from './dom.js';
import { t } from './i18n.js';
import { CHAT_MAX } from './util.js';
import { buildSettingsFields, readSettingsChecked } from './settings-form.js';
import { showSettingsAdjusted } from './notices.js';
import { state, me, isHost, streamerMode, markSettingsDirty, closeGameEnd } from './store.js';
import { useShareSheet } from './streamer.js';
import { send } from './context.js';
import { renderRoom, rate } from './room-view.js';
import { hideInvite } from './overlays.js';
import { ask } from './confirm-dialog.js';

const BOT_LEVELS = new Set(['easy', 'normal', 'hard']);
const ROOM_NAME_MAX = 40;

export function initChat() {
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

function initLobbyControls() {
  buildSettingsFields($('[data-settings="room"]'));
  const box = $('[data-settings="room"]');
  box.addEventListener('input', () => markSettingsDirty(true));
  $('#settings-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!isHost()) return;
    const { settings, adjusted } = readSettingsChecked(box);
    if (send({ t: 'settings', settings })) {
      markSettingsDirty(false);
      if (Object.keys(adjusted).length) showSettingsAdjusted(adjusted);
      else toast(t('room.settingsSaved'), 'success', 2000);
    }
  });
  $('#ready-toggle').addEventListener('click', () => send({ t: 'ready', ready: !me()?.ready }));
  $('#start-game').addEventListener('click', () => send({ t: 'start' }));
  $('#add-bot').addEventListener('click', () => {
    const level = $('#bot-level').value;
    send({ t: 'addBot', level: BOT_LEVELS.has(level) ? level : 'normal' });
  });
}

function initInviteControls() {
  // phones (and browsers with a share sheet) share the link, the others copy it; in
  // streamer mode only the host copies it, and it is never printed (renderStreamer())
  $('#copy-invite').addEventListener('click', async () => {
    if (!state.room?.code) return;
    if (streamerMode() && !isHost()) return;
    const code = state.room.code;
    const link = `${location.origin}/?room=${encodeURIComponent(code)}`;
    if (useShareSheet()) {
      try {
        await navigator.share({ title: document.title, text: t('room.shareText', { code }), url: link });
        return;
      } catch (err) {
        if (err?.name === 'AbortError') return; // the player closed the sheet
      }
    }
    if (await copyText(link)) toast(t('room.inviteCopied'), 'success');
    else if (streamerMode()) toast(t('streamer.copyFailed'), 'error');
    else toast(t('room.inviteLink', { link }), 'success');
  });
  $('#copy-id').addEventListener('click', async () => {
    if (!state.meId) return;
    if (await copyText(state.meId)) toast(t('room.idCopied'), 'success');
    else if (streamerMode()) toast(t('streamer.copyFailed'), 'error');
    else toast(t('room.yourId', { id: state.meId }), 'success');
  });
  $('#invite-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const id = $('#invite-id').value.trim();
    if (!id) return;
    if (id === state.meId) {
      toast(t('room.ownId'), 'error');
      return;
    }
    if (send({ t: 'invite', playerId: id })) {
      $('#invite-id').value = '';
      toast(t('room.inviteSent'), 'success', 2000);
    }
  });
  $('#invite-accept').addEventListener('click', () => {
    const inv = state.invite;
    hideInvite();
    if (!inv) return;
    if (state.room && state.room.code === inv.code) return;
    if (state.room) send({ t: 'leave' });
    send({ t: 'join', code: inv.code });
  });
  $('#invite-decline').addEventListener('click', hideInvite);
}

/** The account menu in the top bar: the player id (for invites by id) and Copy ID. */
function initAccountMenu() {
  const btn = $('#me-menu-btn');
  const menu = $('#me-menu');
  const setOpen = (open) => {
    menu.hidden = !open;
    btn.setAttribute('aria-expanded', String(open));
  };
  btn.addEventListener('click', () => setOpen(menu.hidden));
  document.addEventListener('click', (ev) => {
    if (!menu.hidden && !ev.target.closest('.me-menu-wrap')) setOpen(false);
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && !menu.hidden) {
      setOpen(false);
      btn.focus();
    }
  });
}

export function initRoomControls() {
  initAccountMenu();
  initLobbyControls();
  initInviteControls();
  $('#leave-room').addEventListener('click', async () => {
    if (state.phase && state.phase !== 'lobby' && !(await ask('room.leaveConfirm', {}, { danger: true }))) return;
    send({ t: 'leave' });
  });
  $('#spectate-toggle').addEventListener('click', () => {
    const on = !me()?.spectator;
    if (send({ t: 'spectate', on })) toast(on ? t('room.spectateOn') : t('room.spectateOff'), 'info');
  });
  $('#gameend-again').addEventListener('click', () => send({ t: 'ready', ready: true }));
  $('#gameend-close').addEventListener('click', () => {
    closeGameEnd();
    renderRoom();
  });
  $('#rate-like').addEventListener('click', () => rate('like'));
  $('#rate-dislike').addEventListener('click', () => rate('dislike'));
}
