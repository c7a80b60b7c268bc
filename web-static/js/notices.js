// `notice` messages (issue 39 additions, docs/PROTOCOL.md): short feedback the server
// gives, shown translated as a chat line or a toast.

import { toast } from './dom.js';
import { t } from './i18n.js';
import { settingLabelKey } from './settings-form.js';
import { ui } from './context.js';

const MS_PER_S = 1000;

/** "Rounds → 10, Hints → 5" from a settings_adjusted notice's {field: value}. */
export function describeFields(fields) {
  return Object.entries(fields && typeof fields === 'object' ? fields : {})
    .map(([field, value]) => {
      const key = settingLabelKey(field);
      return `${key ? t(key) : field} → ${value}`;
    })
    .join(', ');
}

export function showSettingsAdjusted(fields) {
  const text = describeFields(fields);
  if (text) toast(t('notice.settings_adjusted', { fields: text }), 'info', 7000);
}

const NOTICES = Object.freeze({
  bot_passed: (msg) => ui.chat.system('notice.bot_passed', { name: String(msg.name ?? t('player.someone')) }, 'system', {
    context: { kind: 'passed', playerId: String(msg.playerId ?? '') },
  }),
  slow_down: (msg) => toast(t('notice.slow_down', { s: Math.max(1, Math.ceil((Number(msg.retryMs) || 0) / MS_PER_S)) }), 'info', 3000),
  settings_adjusted: (msg) => showSettingsAdjusted(msg.fields),
});

export function onNotice(msg) {
  const show = Object.hasOwn(NOTICES, msg?.code) ? NOTICES[msg.code] : null;
  show?.(msg);
}
