// The connection status dot in the top bar and the reconnect banner.

import { $, show } from './dom.js';
import { t } from './i18n.js';
import { state, setStatus, setDisconnected } from './store.js';
import { ui } from './context.js';
import { renderStage } from './room-view.js';

export function onStatus(status) {
  setStatus(status);
  renderStatus(status);
  if (status.state !== 'open') {
    setDisconnected();
    ui.board.setEnabled(false);
    ui.board.batcher.reset();
  } else if (state.room) {
    renderStage();
  }
}

function showBanner(text, actionText) {
  $('#banner-text').textContent = text;
  const action = $('#banner-action');
  action.textContent = actionText;
  show(action, true);
  show($('#banner'), true);
}

export function renderStatus({ state: connState, key, retryInMs }) {
  const dot = $('#conn-state');
  dot.dataset.state = connState;
  show(dot, true); // hidden on the nickname screen until the first connection attempt
  const message = key ? t(key) : '';
  if (connState === 'open') {
    $('#conn-text').textContent = t('conn.online');
    show($('#banner'), false);
  } else if (connState === 'connecting') {
    $('#conn-text').textContent = t('conn.connecting');
  } else if (connState === 'reconnecting') {
    $('#conn-text').textContent = t('conn.reconnecting');
    showBanner(retryInMs
      ? t('banner.nextTry', { message: message || t('close.lost'), s: Math.ceil(retryInMs / 1000) })
      : message || t('conn.reconnecting'), t('banner.retry'));
  } else if (connState === 'stopped') {
    $('#conn-text').textContent = t('conn.offline');
    if (message) showBanner(message, t('banner.reconnectHere'));
    else show($('#banner'), false);
  }
}
