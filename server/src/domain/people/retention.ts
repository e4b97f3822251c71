import { checkRetentionYears, DEFAULT_RETENTION_YEARS, retentionEnd } from '@fankurve/shared';
import type { Kysely, Transaction } from 'kysely';
import { scheduleJobBy } from '../../db/jobs.js';
import type { Database } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';

/*
 * The retention of what the books keep of an erased member (docs/architecture.md, "Erasure and
 * retention"): their ledger entries, their ticket rows, the booked bank lines and the audit entries
 * about them stay `retention_years` after the end of the year they belong to; then the retention job
 * removes them. A live member's records are theirs and stay.
 */

export const RETENTION_JOB = 'retention';
export const RETENTION_SETTING_KEY = 'retention_years';

const DAY_MS = 24 * 60 * 60 * 1000;

type Db = Kysely<Database> | Transaction<Database>;

/** The stored setting (as text), its default when unset or unreadable. */
export function retentionYearsOf(stored: string | undefined): number {
  const checked = checkRetentionYears(stored);
  return checked.ok ? checked.value : DEFAULT_RETENTION_YEARS;
}

export async function retentionYears(db: Db): Promise<number> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', RETENTION_SETTING_KEY).executeTakeFirst();
  return retentionYearsOf(row?.value);
}

/** Makes the job look now (a shorter retention may end some at once). */
export async function scheduleRetention(w: WriteContext): Promise<void> {
  await scheduleJobBy(w.db, RETENTION_JOB, w.now);
}

/** The job looks once a day: a retention ends at the turn of a year, in the club's time zone. */
export const nextRetentionDue = (now: Date): Date => new Date(now.getTime() + DAY_MS);

/** What dates before this day is past its retention on the club's day `today`: 1 January of `years` years back. */
export const retentionCutoff = (today: string, years: number): string => `${Number(today.slice(0, 4)) - years}-01-01`;

export interface RemovedRecords {
  ledger: number;
  tickets: number;
  bankPayments: number;
  audit: number;
}

/**
 * Removes what is past its retention. Ledger entries and ticket rows are replicated, so they become
 * tombstones with their content emptied (devices drop them); the rest is deleted.
 */
export async function removeExpiredRecords(w: WriteContext, years: number): Promise<RemovedRecords> {
  const cutoff = retentionCutoff(w.today(), years);
  const erased = w.db.selectFrom('users').select('id').where('erased_at', 'is not', null);
  const ledger = await w.db
    .selectFrom('ledger')
    .select('id')
    .where('deleted', '=', 0)
    .where('user_id', 'in', erased)
    .where('date', '<', cutoff)
    .execute();
  for (const entry of ledger)
    await w.db
      .updateTable('ledger')
      .set({ deleted: 1, amount_cents: 0, description: '', seq: await w.nextSeq('ledger') })
      .where('id', '=', entry.id)
      .execute();
  const tickets = await w.db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select('a.id')
    .where('a.deleted', '=', 0)
    .where((eb) => eb.or([eb('a.user_id', 'in', erased), eb('a.brought_by', 'in', erased)]))
    .where('e.date', '<', cutoff)
    .execute();
  for (const ticket of tickets) {
    await w.db
      .updateTable('attendees')
      .set({ deleted: 1, guest_name: null, updated_at: w.now, seq: await w.nextSeq('attendees') })
      .where('id', '=', ticket.id)
      .execute();
    await w.db.deleteFrom('ticket_requests').where('attendee_id', '=', ticket.id).execute();
  }
  const bankPayments = await w.db
    .deleteFrom('bank_payments')
    .where('user_id', 'in', erased)
    .where('booked_at', '<', cutoff)
    .executeTakeFirst();
  const audit = await w.db.deleteFrom('audit_log').where('user_id', 'in', erased).where('at', '<', cutoff).executeTakeFirst();
  return {
    ledger: ledger.length,
    tickets: tickets.length,
    bankPayments: Number(bankPayments.numDeletedRows),
    audit: Number(audit.numDeletedRows),
  };
}

export interface ErasedAccount {
  id: string;
  name: string;
  former_number: number;
  erased_at: string;
  /** The last day something of the account is kept (`YYYY-MM-DD`); null: nothing is kept. */
  kept_until: string | null;
  ledger_entries: number;
  tickets: number;
}

/** GET /api/auth/users/erased (admin): the erased members, newest first, with what is kept of each and until when. */
export async function listErasedAccounts(db: Kysely<Database>, actor: Actor): Promise<ErasedAccount[]> {
  requireAdmin(actor);
  const [accounts, years] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'username', 'former_number', 'erased_at'])
      .where('former_number', 'is not', null)
      .orderBy('former_number', 'desc')
      .execute(),
    retentionYears(db),
  ]);
  const ids = accounts.map((account) => account.id);
  if (ids.length === 0) return [];
  const [ledger, tickets] = await Promise.all([
    db
      .selectFrom('ledger')
      .select(['user_id'])
      .select((eb) => [eb.fn.max('date').as('last'), eb.fn.countAll<number | string>().as('count')])
      .where('deleted', '=', 0)
      .where('user_id', 'in', ids)
      .groupBy('user_id')
      .execute(),
    db
      .selectFrom('attendees as a')
      .innerJoin('events as e', 'e.id', 'a.event_id')
      .select(['a.user_id', 'a.brought_by', 'e.date'])
      .where('a.deleted', '=', 0)
      .where((eb) => eb.or([eb('a.user_id', 'in', ids), eb('a.brought_by', 'in', ids)]))
      .execute(),
  ]);
  const ledgerOf = new Map(ledger.map((row) => [row.user_id, { last: String(row.last), count: Number(row.count) }]));
  const ticketsOf = new Map<string, string[]>();
  for (const ticket of tickets) {
    const owner = ticket.user_id && ids.includes(ticket.user_id) ? ticket.user_id : ticket.brought_by!;
    ticketsOf.set(owner, [...(ticketsOf.get(owner) ?? []), ticket.date]);
  }
  return accounts.map((account) => {
    const dates = [...(ticketsOf.get(account.id) ?? [])];
    const entries = ledgerOf.get(account.id);
    if (entries) dates.push(entries.last);
    const last = dates.sort().at(-1);
    return {
      id: account.id,
      name: account.username,
      former_number: Number(account.former_number),
      erased_at: account.erased_at!,
      kept_until: last === undefined ? null : retentionEnd(last, years),
      ledger_entries: entries?.count ?? 0,
      tickets: ticketsOf.get(account.id)?.length ?? 0,
    };
  });
}
