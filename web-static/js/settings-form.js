// Room settings fields shared by the "create room" form and the host's editor.

import { el } from './dom.js';
import { SETTING_LIMITS, buildSettings } from './util.js';

const NUMERIC = [
  ['rounds', 'Rounds', 1],
  ['drawTimeSec', 'Draw time (s)', 10],
  ['maxPlayers', 'Max players', 1],
  ['wordChoices', 'Word choices', 1],
  ['hints', 'Hints', 1],
];

let uid = 0;

/** Fill `container` with settings inputs. */
export function buildSettingsFields(container) {
  const prefix = `s${++uid}`;
  container.replaceChildren();
  const grid = el('div', { className: 'settings-grid' });
  for (const [key, label, step] of NUMERIC) {
    const [min, max, def] = SETTING_LIMITS[key];
    const id = `${prefix}-${key}`;
    grid.append(
      el('div', { className: 'field' },
        el('label', { attrs: { for: id }, text: label }),
        el('input', { id, type: 'number', min, max, step, value: def, dataset: { key }, attrs: { inputmode: 'numeric' } }),
      ),
    );
  }
  container.append(grid);
  const wordsId = `${prefix}-customWords`;
  container.append(
    el('div', { className: 'field' },
      el('label', { attrs: { for: wordsId }, text: 'Custom words (one per line or comma-separated)' }),
      el('textarea', { id: wordsId, rows: 3, dataset: { key: 'customWords' }, attrs: { spellcheck: 'false', placeholder: 'giraffe, hot air balloon, pizza' } }),
    ),
    el('label', { className: 'check' },
      el('input', { type: 'checkbox', dataset: { key: 'customOnly' } }),
      ' Use only the custom words',
    ),
  );
}

/** Read the settings object (clamped to the protocol ranges). */
export function readSettings(container) {
  const raw = {};
  for (const input of container.querySelectorAll('[data-key]')) {
    raw[input.dataset.key] = input.type === 'checkbox' ? input.checked : input.value;
  }
  return buildSettings(raw);
}

/** Show a settings object from the server. */
export function fillSettings(container, settings = {}) {
  for (const input of container.querySelectorAll('[data-key]')) {
    const key = input.dataset.key;
    const value = settings[key];
    if (value === undefined || value === null) continue;
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else if (key === 'customWords') {
      // Only the host is sent the words themselves; everyone else gets their count.
      const words = Array.isArray(value) ? value : [];
      const count = Number(settings.customWordCount ?? words.length) || 0;
      input.value = words.join('\n');
      input.placeholder = words.length === 0 && count > 0
        ? `${count} custom word${count === 1 ? '' : 's'} (only the host sees them)`
        : 'giraffe, hot air balloon, pizza';
    }
    else input.value = String(value);
  }
}

export function setSettingsDisabled(container, disabled) {
  for (const input of container.querySelectorAll('[data-key]')) input.disabled = disabled;
}
