import { paymentCodeOf } from '@fankurve/shared';
import { describe, expect, it } from 'vitest';
import { matchLine, nameNames, type MatchDirectory, type MatchMember } from '../src/domain/money/statementMatching.js';

/*
 * Matching a statement's credit to a member (docs/architecture.md, "Bank statements"): the payment
 * code first, then an IBAN learned from earlier payments, then a name with the open balance; never
 * a guess between two members.
 */

const coco: MatchMember = { id: '01a1b2c3-0000-7000-8000-000000000001', username: 'coco', owedCents: 2340 };
const juergen: MatchMember = { id: '01a1b2c3-0000-7000-8000-000000000002', username: 'jmueller', owedCents: 1200 };
const kim: MatchMember = { id: '01a1b2c3-0000-7000-8000-000000000003', username: 'Kim', owedCents: 1200 };
const directory: MatchDirectory = {
  members: [coco, juergen, kim],
  learnedIbans: new Map([
    ['DE02120300000000202051', [juergen.id]],
    ['DE44500105175407324931', [coco.id, kim.id]],
  ]),
};
const line = (o: Partial<{ name: string; iban: string; purpose: string; amount_cents: number }>) => ({
  name: '',
  iban: '',
  purpose: '',
  amount_cents: 1000,
  ...o,
});

describe('matching a credit to a member', () => {
  it('by the payment code in the purpose, wherever the bank put it, whatever the name and amount', () => {
    const code = paymentCodeOf(coco.id);
    const spaced = `${code.slice(0, 4)} ${code.slice(4)}`.toLowerCase();
    expect(
      matchLine(line({ purpose: `SVWZ+${spaced} coco: Union - Bayern`, name: 'Someone Else', amount_cents: 1 }), directory),
    ).toEqual({
      user_id: coco.id,
      username: 'coco',
      reason: 'reference',
    });
  });

  it('not by a mistyped code: the next rule decides', () => {
    const code = paymentCodeOf(coco.id);
    const typo = code.slice(0, 4) + (code[4] === 'A' ? 'B' : 'A') + code.slice(5);
    expect(matchLine(line({ purpose: typo, iban: 'DE02 1203 0000 0000 2020 51'.replace(/ /g, '') }), directory)).toEqual({
      user_id: juergen.id,
      username: 'jmueller',
      reason: 'iban',
    });
  });

  it('not by two codes of two members in one purpose', () => {
    const both = `${paymentCodeOf(coco.id)} ${paymentCodeOf(kim.id)}`;
    expect(matchLine(line({ purpose: both }), directory)).toBeNull();
  });

  it('by an IBAN learned from one member, never one that paid for two', () => {
    expect(matchLine(line({ iban: 'DE02120300000000202051', purpose: 'Tickets' }), directory)?.reason).toBe('iban');
    expect(matchLine(line({ iban: 'DE44500105175407324931', purpose: 'Tickets' }), directory)).toBeNull();
  });

  it('by a name and the exact open balance, as a suggestion', () => {
    expect(matchLine(line({ name: 'J. Müller', amount_cents: 1200 }), directory)).toEqual({
      user_id: juergen.id,
      username: 'jmueller',
      reason: 'name_amount',
    });
    expect(matchLine(line({ name: 'Coco Schmidt', amount_cents: 2340 }), directory)?.user_id).toBe(coco.id);
    // The right name but another amount: no suggestion.
    expect(matchLine(line({ name: 'Coco Schmidt', amount_cents: 2000 }), directory)).toBeNull();
  });

  it('not by a name when two members owe that amount and the name names both', () => {
    const twins: MatchDirectory = {
      members: [
        { id: 'a', username: 'kim', owedCents: 500 },
        { id: 'b', username: 'kimberly', owedCents: 500 },
      ],
      learnedIbans: new Map(),
    };
    expect(matchLine(line({ name: 'Kim Kimberly', amount_cents: 500 }), twins)).toBeNull();
  });

  it('leaves a credit that no rule names open', () => {
    expect(matchLine(line({ name: 'Stadtwerke', purpose: 'Gutschrift', iban: 'DE89370400440532013000' }), directory)).toBeNull();
  });
});

describe('a payer name naming a username', () => {
  it.each([
    ['Kim', 'kim', true],
    ['Kim Öztürk', 'kim', true],
    ['Jürgen Müller', 'juergenmueller', true],
    ['MUELLER, JUERGEN', 'mueller', true],
    ['Coco Schmidt', 'coco', true],
    ['Marco Cocozza', 'coco', true],
    ['Al Bundy', 'al', true],
    ['Alfred Bundy', 'al', false],
    ['Stadtwerke', 'kim', false],
    ['', 'kim', false],
  ])('%j names %j: %s', (payer, username, expected) => {
    expect(nameNames(payer, username)).toBe(expected);
  });
});
