import type { LedgerKind } from '@fankurve/shared';
import {
  ACCOUNTS_KIND_COLUMN,
  ACCOUNTS_KINDS,
  accountsColumnOf,
  accountsPeriod,
  addToFigures,
  checkAccountsSeason,
  noFigures,
  type AccountsBalance,
  type AccountsColumn,
  type AccountsEvent,
  type AccountsFigures,
  type AccountsKind,
  type SeasonAccounts,
} from '@fankurve/shared/rules/seasonAccounts';
import { requireAdmin, type Actor } from '../actor.js';
import { badInput } from '../errors.js';
import { chunks, type Db } from './ledgerEntries.js';

/*
 * The season's accounts (docs/architecture.md, Ledger, "Season accounts"; docs/product.md, Tickets
 * and money): the treasurer's cash report for the annual meeting, read from the ledger. The season
 * runs 1 July to 30 June and takes every live entry whose day lies in it (the entry's own day: a
 * reversal counts in the season it was booked in, whenever the entry it reverses was). The entries
 * are added up in SQL by event, kind and the kind a reversal reverses; the columns they go to and
 * the signs are the shared rule's (rules/seasonAccounts.ts).
 */

/** The season's entries added up: one group per event (or none), kind and the kind a reversal reverses. */
export interface AccountsGroup {
  event_id: string | null;
  kind: LedgerKind;
  reversed_kind: LedgerKind | null;
  /** The signed sum of the group's entries. */
  cents: number;
  entries: number;
}

/** The kind of money of a column: the one `other` line it adds to. */
const KIND_OF_COLUMN = Object.fromEntries(ACCOUNTS_KINDS.map((kind) => [ACCOUNTS_KIND_COLUMN[kind], kind])) as Record<
  AccountsColumn,
  AccountsKind
>;

const byName = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '', 'de', { sensitivity: 'base' });

/**
 * The report from the season's groups (pure):
 * - `events`: every event with an entry in the season (its title and date, also when it was
 *   archived or deleted since: the money stays), by date, then title; its columns from its entries —
 *   its tickets and the charges booked to it (a bulk charge to the event or a transport option of
 *   it), the payments of its tickets marked paid, and their reversals;
 * - `other`: the entries tied to no event by kind (charge, payment, credit, refund; always all four),
 *   each with its entries (reversals included) and its amount, positive;
 * - `totals`: the events and the other kinds together; its `open` is how much what members owe
 *   changed in the season;
 * - `balances`: every member's balance at the season's end (every entry up to its last day, earlier
 *   seasons included) other than 0, the largest debt first, credit last, then by name.
 */
export function accountsOf(
  year: number,
  groups: readonly AccountsGroup[],
  events: ReadonlyMap<string, { title: string; date: string }>,
  balances: readonly { user_id: string; cents: number }[],
  names: ReadonlyMap<string, string>,
): SeasonAccounts {
  const byEvent = new Map<string, AccountsFigures>();
  const other = new Map<AccountsKind, { figures: AccountsFigures; entries: number }>(
    ACCOUNTS_KINDS.map((kind) => [kind, { figures: noFigures(), entries: 0 }]),
  );
  const totals = noFigures();
  for (const group of groups) {
    const column = accountsColumnOf(group.kind, group.reversed_kind, group.cents);
    addToFigures(totals, column, group.cents);
    if (group.event_id !== null) {
      const figures = byEvent.get(group.event_id) ?? noFigures();
      addToFigures(figures, column, group.cents);
      byEvent.set(group.event_id, figures);
    } else {
      const line = other.get(KIND_OF_COLUMN[column])!;
      addToFigures(line.figures, column, group.cents);
      line.entries += group.entries;
    }
  }
  const eventLines: AccountsEvent[] = [...byEvent]
    .map(([eventId, figures]) => ({
      event_id: eventId,
      title: events.get(eventId)?.title ?? '',
      date: events.get(eventId)?.date ?? '',
      ...figures,
    }))
    .sort((a, b) => a.date.localeCompare(b.date) || byName(a.title, b.title) || a.event_id.localeCompare(b.event_id));
  const balanceLines: AccountsBalance[] = balances
    .filter((balance) => balance.cents !== 0)
    .map((balance) => ({ user_id: balance.user_id, username: names.get(balance.user_id) ?? null, open: balance.cents }))
    .sort((a, b) => b.open - a.open || byName(a.username, b.username) || a.user_id.localeCompare(b.user_id));
  return {
    ...accountsPeriod(year),
    events: eventLines,
    other: ACCOUNTS_KINDS.map((kind) => {
      const line = other.get(kind)!;
      return { kind, entries: line.entries, amount: line.figures[ACCOUNTS_KIND_COLUMN[kind]] };
    }),
    totals,
    balances: balanceLines,
  };
}

/**
 * GET /api/ledger/accounts (admin): the report of the season starting in July of `season` (`YYYY`),
 * or of the season of `today` (the club's day) when none is given; 400 'ledgerSeasonInvalid' for
 * anything else. Reads only.
 */
export async function seasonAccounts(db: Db, actor: Actor, season: string | undefined, today: string): Promise<SeasonAccounts> {
  requireAdmin(actor);
  const checked = checkAccountsSeason(season, today);
  if (!checked.ok) throw badInput(checked.code);
  const { from, to } = accountsPeriod(checked.value);

  const [groupRows, balanceRows] = await Promise.all([
    db
      .selectFrom('ledger as l')
      .leftJoin('ledger as r', 'r.id', 'l.reverses_id')
      .select((eb) => [
        'l.event_id as event_id',
        'l.kind as kind',
        'r.kind as reversed_kind',
        eb.fn.sum<number | string>('l.amount_cents').as('cents'),
        eb.fn.countAll<number | string>().as('entries'),
      ])
      .where('l.deleted', '=', 0)
      .where('l.date', '>=', from)
      .where('l.date', '<=', to)
      .groupBy(['l.event_id', 'l.kind', 'r.kind'])
      .execute(),
    db
      .selectFrom('ledger')
      .select((eb) => ['user_id', eb.fn.sum<number | string>('amount_cents').as('cents')])
      .where('deleted', '=', 0)
      .where('date', '<=', to)
      .groupBy('user_id')
      .execute(),
  ]);
  const groups: AccountsGroup[] = groupRows.map((row) => ({
    event_id: row.event_id,
    kind: row.kind,
    reversed_kind: row.reversed_kind,
    cents: Number(row.cents),
    entries: Number(row.entries),
  }));
  const balances = balanceRows.map((row) => ({ user_id: row.user_id, cents: Number(row.cents) }));

  const eventIds = [...new Set(groups.flatMap((group) => (group.event_id === null ? [] : [group.event_id])))];
  const events = new Map<string, { title: string; date: string }>();
  for (const part of chunks(eventIds))
    for (const event of await db.selectFrom('events').select(['id', 'title', 'date']).where('id', 'in', part).execute())
      events.set(event.id, { title: event.title, date: event.date });
  const userIds = balances.filter((balance) => balance.cents !== 0).map((balance) => balance.user_id);
  const names = new Map<string, string>();
  for (const part of chunks(userIds))
    for (const user of await db.selectFrom('users').select(['id', 'username']).where('id', 'in', part).execute())
      names.set(user.id, user.username);

  return accountsOf(checked.value, groups, events, balances, names);
}
