import { NOTICE_ACTIONS } from '@fankurve/shared';
import { describe, expect, it } from 'vitest';
import de from '../src/i18n/de.json';
import en from '../src/i18n/en.json';
import { englishAreas, GERMAN_AREAS, withAreas } from '../src/i18n/areas.js';

/*
 * The refusal texts (app/Refusals.tsx): every action a collection declares as refusable has its
 * words in both languages, in de.json and en.json (`refusals.actions`) or in the collection's own
 * texts (`refusalActions` in collections/<name>/de.json and en.json, merged by i18n/areas.ts).
 */
const camel = (action: string) => action.replace(/\.(\w)/g, (_, first: string) => first.toUpperCase());

describe('refusal action texts', () => {
  it('every declared refusal action and "other" have a text in German and English', async () => {
    const languages = { de: withAreas(de, GERMAN_AREAS), en: withAreas(en, await englishAreas()) };
    for (const [language, texts] of Object.entries(languages)) {
      const actions = (texts.refusals as { actions: Record<string, string> }).actions;
      for (const key of [...NOTICE_ACTIONS.map(camel), 'other']) {
        expect(actions[key], `${language}: refusals.actions.${key}`).toEqual(expect.any(String));
        expect(actions[key], `${language}: refusals.actions.${key}`).not.toBe('');
      }
      // The file's own texts stay beside the collections'; the merged list is no area of its own.
      expect(actions.attendanceSet).toBe((language === 'de' ? de : en).refusals.actions.attendanceSet);
      expect(texts).not.toHaveProperty('refusalActions');
    }
  });

  it("a collection's own refusal actions join refusals.actions (the rides')", async () => {
    expect(NOTICE_ACTIONS).toEqual(expect.arrayContaining(['ride.offer', 'ride.change', 'ride.cancel']));
    const german = withAreas(de, GERMAN_AREAS).refusals as { actions: Record<string, string> };
    const english = withAreas(en, await englishAreas()).refusals as { actions: Record<string, string> };
    expect(german.actions.rideOffer).toBe('Deine angebotene Mitfahrgelegenheit');
    expect(english.actions.rideCancel).toBe('Cancelling your ride');
    expect(GERMAN_AREAS.rides).not.toHaveProperty('refusalActions');
  });
});
