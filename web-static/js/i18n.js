// Interface translations: one dictionary per language (js/locales/*.js), the browser's
// locale as the default, a remembered choice, and right-to-left layout for Arabic.
// Markup opts in with data-i18n="key" (text) and data-i18n-attr="attr:key;attr:key".

import en from './locales/en.js';
import de from './locales/de.js';
import fr from './locales/fr.js';
import es from './locales/es.js';
import pt from './locales/pt.js';
import it from './locales/it.js';
import ru from './locales/ru.js';
import ar from './locales/ar.js';

export const LOCALE_KEY = 'drawserver.locale';

/** Interface languages, in picker order; `dir` is the text direction. */
export const LOCALES = Object.freeze([
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'pt', name: 'Português', dir: 'ltr' },
  { code: 'it', name: 'Italiano', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
]);

export const DICTIONARIES = Object.freeze({ en, de, fr, es, pt, it, ru, ar });

let current = 'en';
const listeners = new Set();

/** The first supported language of a list of BCP 47 tags ("de-AT" -> "de"), else "en". */
export function pickLocale(tags) {
  for (const tag of Array.isArray(tags) ? tags : [tags]) {
    const base = String(tag || '').toLowerCase().split(/[-_]/)[0];
    if (DICTIONARIES[base]) return base;
  }
  return 'en';
}

/** Replace {name} placeholders; unknown ones stay visible so a missing parameter shows. */
export function format(template, params = {}) {
  return String(template).replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? m : String(params[k])));
}

/** Translate `key` into the current language (English, then the key itself, as fallbacks). */
export function t(key, params) {
  const text = DICTIONARIES[current]?.[key] ?? en[key] ?? key;
  return format(text, params);
}

/**
 * `t` as parts: [{text}, {text, param}], so a view can isolate each parameter (a name
 * in another script, in <bdi>) instead of mixing it into one string.
 */
export function tParts(key, params = {}) {
  const text = String(DICTIONARIES[current]?.[key] ?? en[key] ?? key);
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    const v = params?.[m[1]];
    parts.push(v === undefined || v === null ? { text: m[0] } : { text: String(v), param: m[1] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

export function locale() {
  return current;
}

export function localeInfo(code = current) {
  return LOCALES.find((l) => l.code === code) || LOCALES[0];
}

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The remembered choice, else the browser's languages. */
export function initialLocale() {
  const saved = storage()?.getItem(LOCALE_KEY);
  if (saved && DICTIONARIES[saved]) return saved;
  return pickLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/** Switch the interface language: <html lang/dir>, every marked node, then the listeners. */
export function setLocale(code, { remember = true } = {}) {
  if (!DICTIONARIES[code]) code = 'en';
  current = code;
  if (remember) storage()?.setItem(LOCALE_KEY, code);
  const root = document.documentElement;
  root.lang = code;
  root.dir = localeInfo(code).dir;
  applyTranslations(document);
  for (const fn of listeners) fn(code);
}

/** Called after every language switch (to re-render what code wrote). */
export function onLocaleChange(fn) {
  listeners.add(fn);
}

export function applyTranslations(root) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of node.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':').map((s) => s.trim());
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
}
