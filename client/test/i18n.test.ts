import { MESSAGES } from '@fankurve/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/client.js';
import de from '../src/i18n/de.json';
import en from '../src/i18n/en.json';
import { englishAreas, GERMAN_AREAS, withAreas } from '../src/i18n/areas.js';
import { applyLanguage, errorText, i18next, messageText } from '../src/i18n/index.js';

function keys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

describe('translations', () => {
  it('German and English have the same keys, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(de).sort());
    for (const [key, text] of Object.entries({ ...flatten(de), ...flatten(en) })) expect(text, key).not.toBe('');
  });

  it('the areas of their own files: the same in both languages, none empty, no name taken by de.json', async () => {
    const english = await englishAreas();
    expect(keys(english).sort()).toEqual(keys(GERMAN_AREAS).sort());
    for (const [key, text] of Object.entries({ ...flatten(GERMAN_AREAS), ...flatten(english) })) expect(text, key).not.toBe('');
    for (const area of Object.keys(GERMAN_AREAS).filter((key) => key !== 'serverMessages'))
      expect(de, area).not.toHaveProperty(area);
  });

  it("every server message code has a translation in both languages, in de.json or its collection's folder", async () => {
    const german = withAreas(de, GERMAN_AREAS).serverMessages;
    const english = withAreas(en, await englishAreas()).serverMessages;
    for (const code of Object.keys(MESSAGES)) {
      expect(german, code).toHaveProperty(code);
      expect(english, code).toHaveProperty(code);
    }
    expect(Object.keys(MESSAGES)).toContain('announcementSaved');
  });

  it('the English server messages are the server texts', async () => {
    expect(withAreas(en, await englishAreas()).serverMessages).toEqual(MESSAGES);
  });
});

function flatten(value: object): Record<string, string> {
  return Object.fromEntries(
    keys(value).map((key) => [
      key,
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], value) as string,
    ]),
  );
}

describe('errorText', () => {
  beforeAll(async () => {
    await i18next.init({
      resources: { de: { translation: de } },
      lng: 'de',
      fallbackLng: 'de',
      interpolation: { escapeValue: false },
    });
  });

  it('translates a server failure by its code', () => {
    const error = new ApiError({ status: 401, code: 'invalidCredentials', message: MESSAGES.invalidCredentials });
    expect(errorText(error, 'errors.loginFailed')).toBe('Benutzername oder Passwort ist falsch');
  });

  it('keeps the field named after a validation message', () => {
    const error = new ApiError({ status: 400, code: 'invalidInput', message: 'Invalid input: email' });
    expect(errorText(error)).toBe('Ungültige Eingabe: email');
  });

  it('falls back to the server text, then to the fallback key', () => {
    expect(errorText(new ApiError({ status: 400, code: 'somethingNew', message: 'Something new' }))).toBe('Something new');
    expect(errorText(new ApiError({ status: 500, code: null, message: '' }), 'errors.loginFailed')).toBe(
      'Anmeldung fehlgeschlagen',
    );
    expect(errorText(new TypeError('x is undefined'), 'errors.updateAttendanceFailed')).toBe(
      'Teilnahme konnte nicht gespeichert werden',
    );
  });

  it('reads a failure body and an error carrying a code (local rule of the data layer)', () => {
    expect(errorText({ success: false, message: 'Event not found', code: 'eventNotFound' })).toBe('Termin nicht gefunden');
    expect(errorText({ success: false, message: 'Plain text' })).toBe('Plain text');
    expect(errorText(Object.assign(new Error('unpaidDebts'), { code: 'unpaidDebts' }))).toMatch(/^Du hast unbezahlte Tickets/);
  });

  it('says so when the server was not reached', () => {
    expect(errorText(new ApiError({ status: 0, code: null, message: 'Network request failed', offline: true }))).toMatch(
      /^Keine Verbindung/,
    );
  });

  it('switches to English on demand', async () => {
    await applyLanguage('en');
    expect(messageText('unpaidDebts')).toBe(MESSAGES.unpaidDebts);
    await applyLanguage('de');
    expect(messageText('unpaidDebts')).toMatch(/^Du hast/);
  });
});
