// The top bar's preferences: the interface language picker and the sound toggle.
// Both choices are remembered (i18n.js and sounds.js keep them in localStorage).

import { $, el } from './dom.js';
import { icon } from './icons.js';
import { t, LOCALES, locale, setLocale, onLocaleChange } from './i18n.js';

/** `retranslate` re-renders what code wrote after a language switch. */
export function initPrefs(sounds, retranslate) {
  const select = $('#locale-select');
  select.replaceChildren(...LOCALES.map((l) => el('option', { value: l.code, text: l.name, attrs: { lang: l.code } })));
  select.value = locale();
  select.addEventListener('change', () => setLocale(select.value));

  const toggle = $('#sound-toggle');
  const renderSound = () => {
    toggle.replaceChildren(icon(sounds.muted ? 'mute' : 'volume'));
    toggle.setAttribute('aria-pressed', String(sounds.muted));
    const label = sounds.muted ? t('sound.unmute') : t('sound.mute');
    toggle.setAttribute('aria-label', label);
    toggle.title = label;
  };
  toggle.addEventListener('click', () => {
    sounds.setMuted(!sounds.muted);
    sounds.unlock();
    renderSound();
  });
  renderSound();

  onLocaleChange(() => {
    select.value = locale();
    renderSound();
    retranslate();
  });
  // browsers start audio only after a gesture
  const unlock = () => sounds.unlock();
  document.addEventListener('pointerdown', unlock, { passive: true });
  document.addEventListener('keydown', unlock);
}
