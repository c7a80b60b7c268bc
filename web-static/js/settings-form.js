// Room settings fields shared by the "create room" form and the host's editor.

import { el } from './dom.js';
import { t, locale } from './i18n.js';
import { SETTING_LIMITS, MODES, buildSettings, adjustedSettings } from './util.js';

const NUMERIC = [
  ['rounds', 'settings.rounds', 1],
  ['drawTimeSec', 'settings.drawTime', 10],
  ['writeTimeSec', 'settings.writeTime', 5],
  ['maxPlayers', 'settings.maxPlayers', 1],
  ['wordChoices', 'settings.wordChoices', 1],
  ['hints', 'settings.hints', 1],
];

// Which fields each mode uses (PROTOCOL 12.5): telephone has no rounds, word choices,
// hints or word lists (the players write the words), classic no write time. The others
// stay hidden, not just disabled, so the form says only what the game will do.
const MODE_ONLY = Object.freeze({
  rounds: 'classic', wordChoices: 'classic', hints: 'classic', language: 'classic',
  customWords: 'classic', customOnly: 'classic', writeTimeSec: 'telephone',
});

/** Word lists when the server has no GET /api/languages (an older server). */
export const FALLBACK_WORD_LANGUAGES = Object.freeze([
  { code: 'en', name: 'English' }, { code: 'de', name: 'Deutsch' }, { code: 'fr', name: 'Français' },
  { code: 'es', name: 'Español' }, { code: 'pt', name: 'Português' }, { code: 'it', name: 'Italiano' },
  { code: 'ru', name: 'Русский' }, { code: 'ar', name: 'العربية' },
]);

let wordLanguages = FALLBACK_WORD_LANGUAGES;
let uid = 0;

/** Fill `container` with settings inputs. */
export function buildSettingsFields(container) {
  const prefix = `s${++uid}`;
  container.replaceChildren();
  container.append(modeField(prefix));
  const grid = el('div', { className: 'settings-grid' });
  for (const [key, label, step] of NUMERIC) {
    const [min, max, def] = SETTING_LIMITS[key];
    const id = `${prefix}-${key}`;
    grid.append(
      el('div', { className: 'field' },
        el('label', { attrs: { for: id }, text: t(label), dataset: { i18n: label } }),
        el('input', { id, type: 'number', min, max, step, value: def, dataset: { key }, attrs: { inputmode: 'numeric' } }),
      ),
    );
  }
  const langId = `${prefix}-language`;
  grid.append(
    el('div', { className: 'field field-language' },
      el('label', { attrs: { for: langId }, text: t('settings.language'), dataset: { i18n: 'settings.language' } }),
      el('select', { id: langId, dataset: { key: 'language' } }),
    ),
  );
  container.append(grid);
  fillLanguageSelect(container.querySelector('[data-key=language]'));
  const wordsId = `${prefix}-customWords`;
  container.append(
    el('div', { className: 'field' },
      el('label', { attrs: { for: wordsId }, text: t('settings.customWords'), dataset: { i18n: 'settings.customWords' } }),
      el('textarea', { id: wordsId, rows: 3, dataset: { key: 'customWords' }, attrs: { spellcheck: 'false', placeholder: t('settings.customPlaceholder') } }),
    ),
    el('label', { className: 'check' },
      el('input', { type: 'checkbox', dataset: { key: 'customOnly' } }),
      el('span', { text: t('settings.customOnly'), dataset: { i18n: 'settings.customOnly' } }),
    ),
    streamerField(prefix),
  );
  container.addEventListener('change', (ev) => { if (ev.target.dataset?.key === 'mode') showModeFields(container); });
  showModeFields(container);
}

/** Classic or telephone: a select (one `data-key` input, like every other setting). */
function modeField(prefix) {
  const id = `${prefix}-mode`;
  const hintId = `${prefix}-mode-hint`;
  return el('div', { className: 'field field-mode' },
    el('label', { attrs: { for: id }, text: t('settings.mode'), dataset: { i18n: 'settings.mode' } }),
    el('select', { id, dataset: { key: 'mode' }, attrs: { 'aria-describedby': hintId } },
      ...MODES.map((m) => el('option', { value: m, text: t(`settings.mode.${m}`), dataset: { i18n: `settings.mode.${m}` } }))),
    el('p', { id: hintId, className: 'muted small field-hint mode-hint' }),
  );
}

/** Show the fields of the selected mode only, and say what the mode is. */
export function showModeFields(container) {
  const mode = container.querySelector('[data-key=mode]')?.value || 'classic';
  for (const [key, only] of Object.entries(MODE_ONLY)) {
    const input = container.querySelector(`[data-key="${key}"]`);
    const field = input?.closest('.field, .check');
    if (field) field.hidden = only !== mode;
  }
  const hint = container.querySelector('.mode-hint');
  if (hint) hint.textContent = t(`settings.modeHint.${mode}`);
  container.dataset.mode = mode;
}

/** Streamer mode: the checkbox with a line that says what it does (docs/CLIENT.md). */
function streamerField(prefix) {
  const hintId = `${prefix}-streamer-hint`;
  return el('div', { className: 'field field-streamer' },
    el('label', { className: 'check' },
      el('input', { type: 'checkbox', dataset: { key: 'streamer' }, attrs: { 'aria-describedby': hintId } }),
      el('span', { text: t('settings.streamer'), dataset: { i18n: 'settings.streamer' } }),
    ),
    el('p', { id: hintId, className: 'muted small field-hint', text: t('settings.streamerHint'), dataset: { i18n: 'settings.streamerHint' } }),
  );
}

function fillLanguageSelect(select) {
  if (!select) return;
  const value = select.value || 'en';
  select.replaceChildren(...wordLanguages.map((l) => el('option', {
    value: l.code,
    text: Number.isInteger(l.words) ? t('settings.words', { name: l.name, n: new Intl.NumberFormat(locale()).format(l.words) }) : l.name,
  })));
  select.value = wordLanguages.some((l) => l.code === value) ? value : 'en';
}

/**
 * Adopt the server's word lists (GET /api/languages: [{code, name, words}]); entries
 * that are not {string code, string name} are dropped, an empty result keeps the fallback.
 */
export function setWordLanguages(list) {
  const ok = (Array.isArray(list) ? list : [])
    .filter((l) => l && typeof l.code === 'string' && typeof l.name === 'string' && l.code.length <= 8)
    .map((l) => ({ code: l.code, name: l.name.slice(0, 40), words: Number.isInteger(l.words) ? l.words : undefined }));
  if (ok.length) wordLanguages = ok;
  for (const select of document.querySelectorAll('select[data-key=language]')) fillLanguageSelect(select);
}

function rawSettings(container) {
  const raw = {};
  for (const input of container.querySelectorAll('[data-key]')) {
    raw[input.dataset.key] = input.type === 'checkbox' ? input.checked : input.value;
  }
  return raw;
}

/** The display name of word language `code` ("Deutsch"), or the code itself. */
export function wordLanguageName(code) {
  return wordLanguages.find((l) => l.code === code)?.name || String(code ?? '');
}

/** Read the settings object (clamped to the protocol ranges). */
export function readSettings(container) {
  return buildSettings(rawSettings(container));
}

/**
 * The settings to send and the fields moved into range ({field: value}); the form shows
 * the values sent, so nothing is clamped silently.
 */
export function readSettingsChecked(container) {
  const raw = rawSettings(container);
  const settings = buildSettings(raw);
  const adjusted = adjustedSettings(raw, settings);
  for (const [key, value] of Object.entries(adjusted)) {
    const input = container.querySelector(`[data-key="${key}"]`);
    if (input) input.value = String(value);
  }
  return { settings, adjusted };
}

/** The interface key of a setting's label (`settings.rounds`), or null. */
export function settingLabelKey(field) {
  if (field === 'language') return 'settings.language'; // settings_adjusted may name the word list used
  if (field === 'mode') return 'settings.mode';
  return NUMERIC.find(([key]) => key === field)?.[1] ?? null;
}

/** Show a settings object from the server. */
export function fillSettings(container, settings = {}) {
  for (const input of container.querySelectorAll('[data-key]')) {
    const key = input.dataset.key;
    const value = settings[key];
    if (key === 'customWords') {
      // Only the host is sent the words themselves; everyone else gets their count.
      const words = Array.isArray(value) ? value : [];
      const count = Number(settings.customWordCount ?? words.length) || 0;
      if (value !== undefined && value !== null) input.value = words.join('\n');
      input.placeholder = words.length === 0 && count > 0 ? t('settings.customCount', { n: count }) : t('settings.customPlaceholder');
      continue;
    }
    if (value === undefined || value === null) continue;
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else if (key === 'language' && ![...input.options].some((o) => o.value === value)) {
      input.append(el('option', { value: String(value), text: String(value) }));
      input.value = String(value);
    } else input.value = String(value);
  }
  showModeFields(container);
}

export function setSettingsDisabled(container, disabled) {
  for (const input of container.querySelectorAll('[data-key]')) input.disabled = disabled;
}

/** After a language switch: the option labels carry translated word counts. */
export function retranslateSettings() {
  for (const select of document.querySelectorAll('select[data-key=language]')) fillLanguageSelect(select);
  for (const ta of document.querySelectorAll('textarea[data-key=customWords]')) {
    if (!ta.placeholder || !/\d/.test(ta.placeholder)) ta.placeholder = t('settings.customPlaceholder');
  }
  for (const box of document.querySelectorAll('[data-settings]')) showModeFields(box);
}
