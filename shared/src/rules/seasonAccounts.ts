import { EVENT_YEAR_MAX, EVENT_YEAR_MIN, seasonOf } from '../dates.js';
import type { LedgerKind } from '../docs/ledger.js';
import { csvAmount, toCsv, type CsvCell } from './csv.js';
import type { RuleResult } from './result.js';

/*
 * The season's accounts (docs/architecture.md, Ledger, "Season accounts"; docs/product.md, Tickets
 * and money): the cash report the treasurer presents at the annual meeting, read from the ledger.
 * The server adds the season's entries up (server/src/domain/money/seasonAccounts.ts); what is shared
 * here is the season a report may name, which column an entry counts in, the shapes of the report
 * and its CSV, which the admin's page builds from the same answer.
 *
 * All amounts are integer cents. A column is the money of one kind as a positive figure: `charged`
 * (tickets and charges), `collected` (payments), `credited` (credits), `refunded` (refunds paid out);
 * `open` is charged − collected − credited + refunded, the sum of the signed entries behind it. A
 * reversal counts against the column of the entry it reverses (a reversed charge lowers `charged`,
 * a reversed payment lowers `collected`), in the season of its own day.
 */

/** The seasons a report may name, by the year they start in (July): the years an event or a booking may have. */
export const ACCOUNTS_SEASON_MIN = EVENT_YEAR_MIN;
export const ACCOUNTS_SEASON_MAX = EVENT_YEAR_MAX;

/** The kinds of money the report lists apart from the events (entries not tied to an event), in this order. */
export const ACCOUNTS_KINDS = ['charge', 'payment', 'credit', 'refund'] as const;
export type AccountsKind = (typeof ACCOUNTS_KINDS)[number];

/** The report's columns of money. */
export type AccountsColumn = 'charged' | 'collected' | 'credited' | 'refunded';

/** The column each kind of money counts in. */
export const ACCOUNTS_KIND_COLUMN: Record<AccountsKind, AccountsColumn> = {
  charge: 'charged',
  payment: 'collected',
  credit: 'credited',
  refund: 'refunded',
};

/** The figures of an event, of the season, or of the whole club (cents). */
export interface AccountsFigures {
  charged: number;
  collected: number;
  credited: number;
  refunded: number;
  /** charged − collected − credited + refunded. */
  open: number;
}

/** One event with money booked to it in the season. */
export interface AccountsEvent extends AccountsFigures {
  event_id: string;
  title: string;
  /** The event's date as stored (`YYYY-MM-DD HH:MM:SS`, the club's wall-clock time). */
  date: string;
}

/** One kind of money not tied to an event. */
export interface AccountsOther {
  kind: AccountsKind;
  /** The ledger entries behind the amount, reversals included. */
  entries: number;
  /** The money of that kind, positive (a reversal booked in the season lowers it). */
  amount: number;
}

/** A member's balance at the season's end: positive owed, negative credit. */
export interface AccountsBalance {
  user_id: string;
  username: string | null;
  open: number;
}

/** GET /api/ledger/accounts: the report of one season. */
export interface SeasonAccounts {
  /** `2025/26`, as `seasonOf` names it. */
  season: string;
  /** The season's first and last day (`YYYY-07-01`, `YYYY+1-06-30`), both counted. */
  from: string;
  to: string;
  events: AccountsEvent[];
  other: AccountsOther[];
  totals: AccountsFigures;
  balances: AccountsBalance[];
}

/** The year a report names (`YYYY`, ACCOUNTS_SEASON_MIN to ACCOUNTS_SEASON_MAX), else null. */
export function parseAccountsSeason(text: string): number | null {
  if (!/^\d{4}$/.test(text)) return null;
  const year = Number(text);
  return year >= ACCOUNTS_SEASON_MIN && year <= ACCOUNTS_SEASON_MAX ? year : null;
}

/**
 * The season a report asks for (GET /api/ledger/accounts?season=YYYY): the year it starts in, else
 * 'ledgerSeasonInvalid'; none given is the season of `today` (the club's day).
 */
export function checkAccountsSeason(input: string | null | undefined, today: string): RuleResult<number> {
  if (input === undefined || input === null) return { ok: true, value: Number(seasonOf(today).slice(0, 4)) };
  const year = parseAccountsSeason(input);
  return year === null ? { ok: false, code: 'ledgerSeasonInvalid' } : { ok: true, value: year };
}

/** The season starting in July of `year`: its name and its first and last day. */
export function accountsPeriod(year: number): { season: string; from: string; to: string } {
  const from = `${year}-07-01`;
  return { season: seasonOf(from), from, to: `${year + 1}-06-30` };
}

/**
 * The column an entry counts in: its kind's (a ticket is charged), a reversal's the kind of the entry
 * it reverses. A reversal whose entry is unknown (never written so) goes by its sign: taking back
 * money paid in (positive) lowers `collected`, taking back a charge (negative) lowers `charged`.
 */
export function accountsColumnOf(kind: LedgerKind, reversedKind: LedgerKind | null, cents: number): AccountsColumn {
  const counted = kind === 'reversal' ? reversedKind : kind;
  switch (counted) {
    case 'ticket':
    case 'charge':
      return 'charged';
    case 'payment':
      return 'collected';
    case 'credit':
      return 'credited';
    case 'refund':
      return 'refunded';
    default:
      return cents > 0 ? 'collected' : 'charged';
  }
}

/** Figures of nothing yet. */
export const noFigures = (): AccountsFigures => ({ charged: 0, collected: 0, credited: 0, refunded: 0, open: 0 });

/**
 * Adds signed cents of entries to figures in their column: what raises the debt (charged, refunded)
 * counts as it is, what lowers it (collected, credited) negated, so every column reads positive.
 */
export function addToFigures(figures: AccountsFigures, column: AccountsColumn, signedCents: number): void {
  figures[column] += column === 'collected' || column === 'credited' ? -signedCents : signedCents;
  figures.open += signedCents;
}

/** The signed effect on what members owe of an amount of `kind` (a payment lowers it). */
export const accountsSignedCents = (kind: AccountsKind, amount: number): number =>
  kind === 'payment' || kind === 'credit' ? -amount : amount;

/** The CSV's column names and words, in the admin's language. */
export interface SeasonAccountsCsvTexts {
  /** Part, item, day, entries, charged, collected, credited, refunded, open. */
  header: readonly [string, string, string, string, string, string, string, string, string];
  /** The first cell of each part: an event, another kind of money, the totals, a member's balance. */
  event: string;
  other: string;
  total: string;
  balance: string;
  kinds: Record<AccountsKind, string>;
  /** A member whose account is gone. */
  unknownMember: string;
}

/**
 * The season's accounts as one CSV table (the shared writer: semicolons, BOM, decimal comma,
 * formula guard): a line per event (its day, its columns), a line per other kind of money (its
 * entries, its amount in its column, its effect as open), the totals (the season in the item), and a
 * line per member's balance at the season's end (the last day, the balance as open). The open column
 * of the events and other kinds adds up to the totals' open.
 */
export function seasonAccountsCsv(texts: SeasonAccountsCsvTexts, accounts: SeasonAccounts): string {
  const figures = (f: AccountsFigures): CsvCell[] => [
    csvAmount(f.charged),
    csvAmount(f.collected),
    csvAmount(f.credited),
    csvAmount(f.refunded),
    csvAmount(f.open),
  ];
  const rows: CsvCell[][] = [
    ...accounts.events.map((event) => [texts.event, event.title, event.date.slice(0, 10), null, ...figures(event)]),
    ...accounts.other.map((other) => {
      const line = noFigures();
      addToFigures(line, ACCOUNTS_KIND_COLUMN[other.kind], accountsSignedCents(other.kind, other.amount));
      const column = ACCOUNTS_KIND_COLUMN[other.kind];
      const cells: CsvCell[] = (['charged', 'collected', 'credited', 'refunded'] as const).map((name) =>
        name === column ? csvAmount(line[name]) : null,
      );
      return [texts.other, texts.kinds[other.kind], null, other.entries, ...cells, csvAmount(line.open)];
    }),
    [texts.total, accounts.season, null, null, ...figures(accounts.totals)],
    ...accounts.balances.map((balance) => [
      texts.balance,
      balance.username ?? texts.unknownMember,
      accounts.to,
      null,
      null,
      null,
      null,
      null,
      csvAmount(balance.open),
    ]),
  ];
  return toCsv(texts.header, rows);
}
