import { describe, expect, it } from 'vitest';
import {
  accountsColumnOf,
  accountsPeriod,
  addToFigures,
  checkAccountsSeason,
  noFigures,
  seasonAccountsCsv,
  type SeasonAccounts,
  type SeasonAccountsCsvTexts,
} from '../src/rules/seasonAccounts.js';

/* The season's accounts (docs/architecture.md, Ledger, "Season accounts"): the season, the columns and the CSV. */

describe('the season of a report', () => {
  it('runs from 1 July to 30 June and is named as seasonOf names it', () => {
    expect(accountsPeriod(2025)).toEqual({ season: '2025/26', from: '2025-07-01', to: '2026-06-30' });
    expect(accountsPeriod(2099)).toEqual({ season: '2099/00', from: '2099-07-01', to: '2100-06-30' });
  });

  it("takes a four-digit year from 2000 to 2100, or the season of the club's today", () => {
    expect(checkAccountsSeason('2025', '2030-01-01')).toEqual({ ok: true, value: 2025 });
    expect(checkAccountsSeason(undefined, '2026-06-30')).toEqual({ ok: true, value: 2025 });
    expect(checkAccountsSeason(undefined, '2026-07-01')).toEqual({ ok: true, value: 2026 });
    for (const bad of ['', '25', '1999', '2101', '20255', 'abcd', ' 2025', '2025 '])
      expect(checkAccountsSeason(bad, '2026-01-01'), bad).toEqual({ ok: false, code: 'ledgerSeasonInvalid' });
  });
});

describe('the columns', () => {
  it('counts a reversal against the kind it reverses, every column positive', () => {
    expect(accountsColumnOf('ticket', null, 1800)).toBe('charged');
    expect(accountsColumnOf('reversal', 'charge', -500)).toBe('charged');
    expect(accountsColumnOf('reversal', 'payment', 2000)).toBe('collected');
    expect(accountsColumnOf('reversal', 'credit', 300)).toBe('credited');
    expect(accountsColumnOf('reversal', 'refund', -100)).toBe('refunded');
    const figures = noFigures();
    addToFigures(figures, 'charged', 1800);
    addToFigures(figures, 'collected', -2000);
    addToFigures(figures, 'collected', 500);
    addToFigures(figures, 'credited', -300);
    addToFigures(figures, 'refunded', 100);
    expect(figures).toEqual({ charged: 1800, collected: 1500, credited: 300, refunded: 100, open: 100 });
  });
});

describe('the CSV of the accounts', () => {
  const texts: SeasonAccountsCsvTexts = {
    header: ['Teil', 'Posten', 'Tag', 'Buchungen', 'Belastet', 'Eingezahlt', 'Gutgeschrieben', 'Erstattet', 'Offen'],
    event: 'Termin',
    other: 'Sonstiges',
    total: 'Summe',
    balance: 'Kontostand',
    kinds: { charge: 'Belastung', payment: 'Zahlung', credit: 'Gutschrift', refund: 'Erstattung' },
    unknownMember: '—',
  };
  const accounts: SeasonAccounts = {
    season: '2030/31',
    from: '2030-07-01',
    to: '2031-06-30',
    events: [
      {
        event_id: 'e1',
        title: '=Bochum; "Auswärts" (A)',
        date: '2030-09-14 15:30:00',
        charged: 4100,
        collected: 2000,
        credited: 0,
        refunded: 0,
        open: 2100,
      },
    ],
    other: [
      { kind: 'charge', entries: 1, amount: 1200 },
      { kind: 'payment', entries: 3, amount: 1000 },
      { kind: 'credit', entries: 0, amount: 0 },
      { kind: 'refund', entries: 1, amount: 100 },
    ],
    totals: { charged: 5300, collected: 3000, credited: 0, refunded: 100, open: 2400 },
    balances: [
      { user_id: 'u1', username: 'anna', open: 2100 },
      { user_id: 'u2', username: null, open: -550 },
    ],
  };

  it('writes a line per event, per other kind, the totals and a line per balance, open adding up to the totals', () => {
    expect(seasonAccountsCsv(texts, accounts).split('\r\n')).toEqual([
      '\uFEFFTeil;Posten;Tag;Buchungen;Belastet;Eingezahlt;Gutgeschrieben;Erstattet;Offen',
      // A title a spreadsheet would run as a formula is guarded; a separator or quote is quoted.
      `Termin;"'=Bochum; ""Auswärts"" (A)";2030-09-14;;41,00;20,00;0,00;0,00;21,00`,
      'Sonstiges;Belastung;;1;12,00;;;;12,00',
      'Sonstiges;Zahlung;;3;;10,00;;;-10,00',
      'Sonstiges;Gutschrift;;0;;;0,00;;0,00',
      'Sonstiges;Erstattung;;1;;;;1,00;1,00',
      'Summe;2030/31;;;53,00;30,00;0,00;1,00;24,00',
      'Kontostand;anna;2031-06-30;;;;;;21,00',
      'Kontostand;—;2031-06-30;;;;;;-5,50',
      '',
    ]);
  });
});
