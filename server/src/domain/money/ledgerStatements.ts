import { balanceOf, statementOf, owedFiguresOf } from '@fankurve/shared';
import { epcPayload, isPayableByGiroCode, paymentReference } from '@fankurve/shared/rules/girocode';
import { requireAdmin, type Actor } from '../actor.js';
import { conflict, notFound } from '../errors.js';
import { clubAccount } from '../club/settings.js';
import { type Db, type LedgerEntry, chunks, entriesOf, ledgerBalanceOf, owedFiguresByMember } from './ledgerEntries.js';
import { remindersOfDebts } from './paymentReminders.js';

/* Reading the ledger (docs/architecture.md, "Ledger"): a member's statement, the admin's balances, the GiroCode's payment request. */

/* ── Reading: statements and balances ── */

/** The REST shape of an entry as booked: euros, no seq or tombstone flag. */
export function toRestLedgerEntry(entry: LedgerEntry) {
  return {
    id: entry.id,
    user_id: entry.user_id,
    kind: entry.kind,
    amount: entry.amount_cents / 100,
    date: entry.date,
    description: entry.description,
    event_id: entry.event_id,
    attendee_id: entry.attendee_id,
    reverses_id: entry.reverses_id,
    created_by: entry.created_by,
    created_at: entry.created_at,
  };
}

function statementAnswer(entries: LedgerEntry[]) {
  return {
    balance: balanceOf(entries) / 100,
    entries: statementOf(entries).map((line) => ({
      id: line.id,
      date: line.date,
      kind: line.kind,
      amount: line.amount_cents / 100,
      description: line.description,
      event_id: line.event_id,
      balance_after: line.balance_after / 100,
      attendee_id: line.attendee_id,
      reverses_id: line.reverses_id,
      reversed: line.reversed,
      created_at: line.created_at,
    })),
  };
}

/** GET /api/ledger/my: the actor's balance and statement. */
export async function myStatement(db: Db, actor: Actor) {
  return statementAnswer(await entriesOf(db, actor.id));
}

/**
 * GET /api/ledger/members/{userId} (admin): one member's statement. A deleted account that still
 * has entries is shown too (its balance stays on /debts); an id no account ever had is 404.
 */
export async function memberStatement(db: Db, actor: Actor, userId: string) {
  requireAdmin(actor);
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound('userNotFound');
  return statementAnswer(await entriesOf(db, userId));
}

/**
 * GET /api/ledger (admin): every active member and anyone else with a balance other than 0, largest
 * balance first, with their unpaid bought tickets counted and the reminders to pay of their current debt.
 */
export async function listBalances(db: Db, actor: Actor) {
  requireAdmin(actor);
  const [figures, active, reminders] = await Promise.all([
    owedFiguresByMember(db),
    db.selectFrom('users').select('id').where('deleted', '=', 0).where('status', '=', 'active').execute(),
    remindersOfDebts(db),
  ]);
  const ids = new Set(active.map((user) => user.id));
  for (const [id, owed] of figures) if (owed.balanceCents !== 0) ids.add(id);
  const names = new Map<string, string>();
  for (const part of chunks([...ids])) {
    const users = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', part).execute();
    for (const user of users) names.set(user.id, user.username);
  }
  return [...ids]
    .map((id) => {
      const owed = figures.get(id);
      return {
        user_id: id,
        username: names.get(id) ?? null,
        balance: (owed?.balanceCents ?? 0) / 100,
        unpaid_count: owed?.unpaidCount ?? 0,
        open_price_count: owed?.openPriceCount ?? 0,
        reminder_count: reminders.get(id)?.count ?? 0,
        reminded_at: reminders.get(id)?.lastAt ?? null,
      };
    })
    .sort(
      (a, b) =>
        b.balance - a.balance ||
        (a.username ?? '').localeCompare(b.username ?? '', 'de', { sensitivity: 'base' }) ||
        a.user_id.localeCompare(b.user_id),
    );
}

/**
 * GET /api/ledger/my/payment: what the member transfers (their balance), the reference naming them
 * and their tickets, and the GiroCode's EPC payload for the club's account. 409 when nothing is owed
 * or the club has no account.
 */
export async function paymentRequestOf(db: Db, actor: Actor) {
  const { balanceCents, unpaidTickets } = await ledgerBalanceOf(db, actor.id);
  const owed = owedFiguresOf(balanceCents, []).owedCents;
  if (owed <= 0) throw conflict('ledgerNothingOwed');
  // A GiroCode carries at most 999,999,999.99 € (rules/girocode.ts): more is said, never a 500.
  if (!isPayableByGiroCode(owed)) throw conflict('ledgerAmountTooLarge');
  const account = await clubAccount(db);
  if (!account) throw conflict('ledgerNoClubAccount');
  const reference = paymentReference(actor, unpaidTickets);
  const epc = epcPayload({ bic: account.bic, name: account.holder, iban: account.iban, amountCents: owed, reference });
  return { amountCents: owed, reference, epc };
}
