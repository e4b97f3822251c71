import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { rememberPlainTexts } from '../src/i18n/plainTexts.js';

/** A fresh instance with German and English texts, remembering plain texts, and a count of i18next's own lookups. */
async function instance() {
  const i18n = i18next.createInstance();
  await i18n.init({
    resources: {
      de: { translation: { title: 'Termine', going: '{{count}} fahren', guest: 'Gast von {{host}}' } },
      en: { translation: { title: 'Events', going: '{{count}} going', guest: 'Guest of {{host}}' } },
    },
    lng: 'de',
    fallbackLng: 'de',
    interpolation: { escapeValue: false },
  });
  rememberPlainTexts(i18n);
  const lookups = vi.spyOn(i18n, 't');
  // The form react-i18next's hook asks for: the current language, one namespace, no prefix.
  // (Untyped keys: these texts are the test's own, not the app's.)
  const getFixedT = i18n.getFixedT as unknown as (...args: unknown[]) => (key: string, options?: object) => string;
  const fixedT = () => getFixedT(i18n.language, 'translation', undefined, { scopeNs: ['translation'] });
  return { i18n, lookups, fixedT };
}

describe('plain texts remembered', () => {
  it('a key without options is looked up once per language and texts, and gives the same text', async () => {
    const { lookups, fixedT } = await instance();
    const t = fixedT();
    expect(t('title')).toBe('Termine');
    expect(t('title')).toBe('Termine');
    expect(fixedT()('title')).toBe('Termine');
    expect(lookups).toHaveBeenCalledTimes(1);
  });

  it('calls with options still interpolate on every call', async () => {
    const { lookups, fixedT } = await instance();
    const t = fixedT();
    expect(t('going', { count: 3 })).toBe('3 fahren');
    expect(t('going', { count: 4 })).toBe('4 fahren');
    expect(t('guest', { host: 'Anna' })).toBe('Gast von Anna');
    expect(lookups).toHaveBeenCalledTimes(3);
  });

  it('a new language and changed texts are looked up again', async () => {
    const { i18n, fixedT } = await instance();
    expect(fixedT()('title')).toBe('Termine');
    await i18n.changeLanguage('en');
    expect(fixedT()('title')).toBe('Events');
    i18n.addResourceBundle('en', 'translation', { title: 'Matches' }, true, true);
    expect(fixedT()('title')).toBe('Matches');
    i18n.removeResourceBundle('en', 'translation');
    // English gone: the fallback language's text.
    expect(fixedT()('title')).toBe('Termine');
  });

  it('a missing key answers as i18next does (the key itself), and a later bundle brings its text', async () => {
    const { i18n, fixedT } = await instance();
    expect(fixedT()('later')).toBe('later');
    i18n.addResource('de', 'translation', 'later', 'Später');
    expect(fixedT()('later')).toBe('Später');
  });
});
