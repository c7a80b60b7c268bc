// Every interface dictionary has exactly the English keys, with the same placeholders.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const CODES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'ru', 'ar'];
const dicts = {};
for (const c of CODES) dicts[c] = (await import(`../../../web-static/js/locales/${c}.js`)).default;
const placeholders = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

for (const code of CODES.slice(1)) {
  test(`${code}: the same keys as English`, () => {
    assert.deepEqual(Object.keys(dicts[code]).sort(), Object.keys(dicts.en).sort());
  });
  test(`${code}: the same placeholders per key, no empty text`, () => {
    for (const [key, en] of Object.entries(dicts.en)) {
      assert.ok(String(dicts[code][key]).trim() !== '', `${code} ${key} is empty`);
      assert.deepEqual(placeholders(dicts[code][key]), placeholders(en), `${code} ${key}`);
    }
  });
}

test('pickLocale and format (no DOM needed)', async () => {
  globalThis.navigator ??= { languages: ['en'] };
  const { pickLocale, format } = await import('../../../web-static/js/i18n.js');
  assert.equal(pickLocale(['de-AT', 'en']), 'de');
  assert.equal(pickLocale(['xx', 'pt-BR']), 'pt');
  assert.equal(pickLocale(['xx']), 'en');
  assert.equal(pickLocale('ar_EG'), 'ar');
  assert.equal(format('{a} and {b}', { a: 1 }), '1 and {b}');
});
