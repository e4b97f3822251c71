import { checkReversal, eurosToCents, signedCents, type LedgerEntryInput } from '@fankurve/shared';
import { toBool, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { conflict, notFound } from '../errors.js';
import { type LedgerEntry, insertEntry, reverse, toEntry } from './ledgerEntries.js';
import { unsettle } from './ledgerTickets.js';
import { audit } from '../club/auditLog.js';

/* An admin's bookings (docs/architecture.md, "Ledger", "Manual entries"): a payment, charge, credit or refund, and a reversal. */

/**
 * POST /api/ledger/entries (admin): a payment, charge, credit or refund for one member. The member
 * must be an active account, or a former one whose balance is still in the ledger; else 404. The
 * before-commit step then settles the member (a payment pays their oldest tickets).
 */
export async function bookEntry(w: WriteContext, actor: Actor, input: LedgerEntryInput): Promise<LedgerEntry> {
  requireAdmin(actor);
  const user = await w.db
    .selectFrom('users')
    .select(['id', 'status', 'deleted'])
    .where('id', '=', input.user_id)
    .executeTakeFirst();
  const member = user !== undefined && !toBool(user.deleted) && user.status === 'active';
  const hasEntries =
    user !== undefined &&
    (await w.db.selectFrom('ledger').select('id').where('user_id', '=', user.id).executeTakeFirst()) !== undefined;
  if (!user || (!member && !hasEntries)) throw notFound('userNotFound');
  const entry = await insertEntry(w, {
    user_id: user.id,
    kind: input.kind,
    amount_cents: signedCents(input.kind, eurosToCents(input.amount)),
    date: input.date ?? w.today(),
    description: input.note ?? '',
    event_id: null,
    attendee_id: null,
    reverses_id: null,
    created_by: actor.id,
  });
  w.record({ type: 'ledger.booked', entryId: entry.id, userId: entry.user_id, kind: entry.kind, actorId: actor.id });
  await audit(w, actor, {
    kind: 'money',
    action: 'ledger.entry',
    userId: entry.user_id,
    entityId: entry.id,
    after: auditedEntry(entry),
  });
  return entry;
}

/**
 * POST /api/ledger/entries/{id}/reverse (admin): books the reversal of a manual entry. 404 for an
 * unknown id; 409 when it is already reversed, is a reversal itself, or follows a ticket (its charge
 * and its paid payment are corrected in the attendee table).
 */
export async function reverseEntry(w: WriteContext, actor: Actor, id: string): Promise<LedgerEntry> {
  requireAdmin(actor);
  const row = await w.db.selectFrom('ledger').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('ledgerEntryNotFound');
  const entry = toEntry(row);
  const reversals = await w.db.selectFrom('ledger').select('reverses_id').where('reverses_id', '=', entry.id).execute();
  const rule = checkReversal(entry, reversals);
  if (!rule.ok) throw conflict(rule.code);
  const reversal = await reverse(w, entry, actor);
  w.record({ type: 'ledger.booked', entryId: reversal.id, userId: reversal.user_id, kind: reversal.kind, actorId: actor.id });
  await audit(w, actor, {
    kind: 'money',
    action: 'ledger.reversal',
    userId: entry.user_id,
    eventId: entry.event_id,
    entityId: reversal.id,
    before: auditedEntry(entry),
    after: auditedEntry(reversal),
  });
  // Money taken back takes back what it paid.
  if (entry.amount_cents < 0) await unsettle(w, entry.user_id);
  return reversal;
}

/** What the audit log keeps of an entry. */
const auditedEntry = (entry: LedgerEntry) => ({
  id: entry.id,
  kind: entry.kind,
  amount_cents: entry.amount_cents,
  date: entry.date,
  description: entry.description,
});
