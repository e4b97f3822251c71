import { describe, expect, it } from 'vitest';
import {
  checkRetentionYears,
  erasureProblem,
  formerMemberName,
  formerMemberNumber,
  retentionEnd,
  retentionOver,
  shownMemberName,
} from '../src/rules/erasure.js';
import { checkUsername, isFormerMemberForm } from '../src/rules/usernames.js';

/* Erasure with retention (docs/product.md, Data protection): the rules both sides call. */

describe('the pseudonym', () => {
  it('is stored in German and shown in the reader’s language; any other name is shown as it is', () => {
    expect(formerMemberName(7)).toBe('Ehemaliges Mitglied 7');
    expect(formerMemberNumber('Ehemaliges Mitglied 7')).toBe(7);
    expect(shownMemberName('Ehemaliges Mitglied 7', 'en')).toBe('Former member 7');
    expect(shownMemberName('Ehemaliges Mitglied 7', 'de')).toBe('Ehemaliges Mitglied 7');
    for (const name of ['Ehemaliges Mitglied', 'Ehemaliges Mitglied 7b', 'ehemaliges mitglied 7', 'Former member 7', 'anna'])
      expect(formerMemberNumber(name), name).toBeNull();
    expect(shownMemberName('anna', 'en')).toBe('anna');
  });

  it('has a form nobody may register, in either language, any case or width', () => {
    for (const name of ['Ehemaliges Mitglied 1', 'former member 22', 'FORMER MEMBER３', 'ehemaliges mitglied   4'])
      expect(checkUsername(name), name).toEqual({ ok: false, code: 'usernameReserved' });
    for (const name of ['Ehemaliges Mitglied', 'Former member of the Ultras', 'Mitglied 7']) {
      expect(isFormerMemberForm(name), name).toBe(false);
      expect(checkUsername(name).ok, name).toBe(true);
    }
  });
});

describe('the retention', () => {
  it('ends with the year the given number of years after the year of the day', () => {
    expect(retentionEnd('2026-03-14', 10)).toBe('2036-12-31');
    expect(retentionEnd('2026-12-31T23:00:00.000Z', 8)).toBe('2034-12-31');
    expect(retentionOver('2026-03-14', 10, '2036-12-31')).toBe(false);
    expect(retentionOver('2026-03-14', 10, '2037-01-01')).toBe(true);
  });

  it('is 8 to 30 whole years, as a number or as typed', () => {
    expect(checkRetentionYears(10)).toEqual({ ok: true, value: 10 });
    expect(checkRetentionYears(' 30 ')).toEqual({ ok: true, value: 30 });
    for (const bad of [7, 31, 9.5, '', 'zehn', null, undefined, '8 years'])
      expect(checkRetentionYears(bad), String(bad)).toEqual({ ok: false, code: 'retentionYearsInvalid' });
  });
});

describe('what keeps erasure waiting', () => {
  it('is a balance other than zero, then an open ticket price', () => {
    expect(erasureProblem({ balanceCents: 0, openPriceCount: 0 })).toBeNull();
    expect(erasureProblem({ balanceCents: 750, openPriceCount: 0 })).toBe('erasureBalanceOpen');
    expect(erasureProblem({ balanceCents: -250, openPriceCount: 1 })).toBe('erasureBalanceOpen');
    expect(erasureProblem({ balanceCents: 0, openPriceCount: 1 })).toBe('erasureTicketPriceOpen');
  });
});
