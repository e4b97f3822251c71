import {
  balanceOf,
  debtorOf,
  reversedIds,
  signedCents,
  ticketChargeCents,
  ticketEntryDescription,
  ticketsCoveredBy,
  ticketOpenCents,
} from '@fankurve/shared';
import type { AttendeeRow } from '../../db/schema.js';
import { toBool, type WriteContext, type Written } from '../../db/store.js';
import { SYSTEM_ACTOR, type Actor } from '../actor.js';
import { attendeeRef } from '../attendance/attendeeRows.js';
import {
  type Db,
  type LedgerEntry,
  chargeOf,
  chunks,
  entriesOf,
  insertEntry,
  reverse,
  toEntry,
  unpaidTicketsOf,
} from './ledgerEntries.js';

/*
 * Tickets write their own entries (docs/architecture.md, "Ledger"): the before-commit step
 * `followTicketsInLedger` keeps one live 'ticket' entry per bought ticket with a known price and
 * settles the members it touched (their money pays their oldest tickets), and an admin's "paid" in
 * the attendee table books the ticket's payment (`followTicketPaid`).
 */

/* ── Following the tickets ── */

/** Every entry linked to these tickets (attendee rows), reversals included. */
async function entriesOfTickets(db: Db, attendeeIds: readonly string[]): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  for (const part of chunks(attendeeIds)) {
    const rows = await db.selectFrom('ledger').selectAll().where('attendee_id', 'in', part).orderBy('seq').execute();
    out.push(...rows.map(toEntry));
  }
  return out;
}

/** The entries of `kind` linked to a ticket that no reversal names. */
function liveLinked(entries: readonly LedgerEntry[], attendeeId: string, kind: 'ticket' | 'payment'): LedgerEntry[] {
  const linked = entries.filter((entry) => entry.attendee_id === attendeeId);
  const reversed = reversedIds(linked);
  return linked.filter((entry) => entry.kind === kind && !reversed.has(entry.id));
}

async function eventTitleOf(w: WriteContext, eventId: string): Promise<string> {
  const event = await w.db.selectFrom('events').select('title').where('id', '=', eventId).executeTakeFirst();
  return event?.title ?? '';
}

const ticketCharge = (row: AttendeeRow) =>
  ticketChargeCents({
    bought: toBool(row.bought),
    deleted: toBool(row.deleted),
    price_cents: row.price_cents === null ? null : Number(row.price_cents),
    is_free: toBool(row.is_free),
    is_price_tbd: toBool(row.is_price_tbd),
  });

/**
 * Makes a ticket's charge agree with its row: one live 'ticket' entry for its debtor at its price
 * while it is bought with a known price above 0, none otherwise; a mismatch is reversed and booked
 * anew. Adds every member whose entries changed to `touched`.
 */
async function followTicketCharge(
  w: WriteContext,
  row: AttendeeRow,
  eventTitle: string,
  linked: readonly LedgerEntry[],
  touched: Set<string>,
): Promise<void> {
  const debtor = debtorOf(row);
  const charge = ticketCharge(row);
  const live = liveLinked(linked, row.id, 'ticket');
  const fits = live.length === 1 && live[0]!.user_id === debtor && live[0]!.amount_cents === charge;
  if (fits || (live.length === 0 && (charge === 0 || debtor === null))) return;
  for (const entry of live) {
    touched.add(entry.user_id);
    await reverse(w, entry, SYSTEM_ACTOR);
  }
  if (charge === 0 || debtor === null) return;
  touched.add(debtor);
  await insertEntry(w, {
    user_id: debtor,
    kind: 'ticket',
    amount_cents: signedCents('ticket', charge),
    date: w.today(),
    description: ticketEntryDescription(eventTitle, row.guest_name),
    event_id: row.event_id,
    attendee_id: row.id,
    reverses_id: null,
    created_by: null,
  });
}

/**
 * What is still open on a ticket the admin is marking paid (`ticketOpenCents`): its charge minus the
 * part of the debtor's money not yet used that goes to it, read as if it were still unpaid.
 */
async function openOnTicket(w: WriteContext, debtor: string, row: AttendeeRow, charge: number): Promise<number> {
  const [entries, unpaid] = await Promise.all([entriesOf(w.db, debtor), unpaidTicketsOf(w.db, debtor)]);
  const event = await w.db.selectFrom('events').select('date').where('id', '=', row.event_id).executeTakeFirst();
  const others = unpaid
    .filter((ticket) => ticket.id !== row.id)
    .map((ticket) => ({
      id: ticket.id,
      charge_cents: chargeOf(ticket),
      event_date: ticket.event_date,
      created_at: ticket.created_at,
    }));
  const self = { id: row.id, charge_cents: charge, event_date: event?.date ?? '', created_at: row.created_at };
  return ticketOpenCents(balanceOf(entries), [...others, self], row.id);
}

/**
 * An admin marked a ticket paid or unpaid, or changed a paid ticket (updateTicketStatus, also when
 * accepting a paid request): the ledger books the money. Paid → a 'payment' linked to it, for its
 * debtor, of what is still open on it (`openOnTicket`: a part payment already made counts, so a
 * ticket of 21,50 € with 10,00 € paid books 11,50 €; nothing when the member's money covers it);
 * unpaid again → that payment is reversed (the part payment stays the member's money). A paid ticket
 * whose price changes has its payment moved by the difference, so "paid" stays "paid in full". A
 * ticket that is no longer bought (or no longer costs anything) keeps its payment: the money is in
 * and stays the member's credit. A ticket the member's credit paid (no linked payment) writes nothing.
 */
export async function followTicketPaid(w: WriteContext, actor: Actor, before: AttendeeRow, after: AttendeeRow): Promise<void> {
  const unchanged = toBool(before.paid) === toBool(after.paid) && toBool(before.bought) === toBool(after.bought);
  if (unchanged && ticketCharge(before) === ticketCharge(after)) return;
  const title = await eventTitleOf(w, after.event_id);
  // The charge first, so the statement shows the ticket before the money that pays it.
  await followTicketCharge(w, after, title, await entriesOfTickets(w.db, [after.id]), new Set());
  const linked = liveLinked(await entriesOfTickets(w.db, [after.id]), after.id, 'payment');
  if (!toBool(after.paid)) {
    for (const payment of linked) await reverse(w, payment, actor);
    return;
  }
  const charge = ticketCharge(after);
  const debtor = debtorOf(after);
  if (charge === 0 || debtor === null) return;
  const paidCents = -balanceOf(linked);
  const newlyOwed = !toBool(before.paid) || ticketCharge(before) === 0;
  let amount: number;
  if (newlyOwed) {
    for (const payment of linked) await reverse(w, payment, actor);
    amount = await openOnTicket(w, debtor, after, charge);
  } else {
    // Paid before at another price: only the difference moves; a ticket paid by credit writes nothing.
    if (linked.length === 0) return;
    amount = paidCents + charge - ticketCharge(before);
    if (amount === paidCents) return;
    for (const payment of linked) await reverse(w, payment, actor);
  }
  if (amount <= 0) return;
  await insertEntry(w, {
    user_id: debtor,
    kind: 'payment',
    amount_cents: signedCents('payment', amount),
    date: w.today(),
    description: ticketEntryDescription(title, after.guest_name),
    event_id: after.event_id,
    attendee_id: after.id,
    reverses_id: null,
    created_by: actor.system ? null : actor.id,
  });
}

/**
 * The before-commit step (deps.ts, after the tickets' step and before the events' seqs): every
 * attendee row the transaction wrote gets the charge it owes — one live 'ticket' entry for its
 * debtor at its price while it is bought with a known price above 0, none otherwise (a mismatch is
 * reversed and booked anew). Then every member whose entries or tickets changed is settled.
 */
export async function followTicketsInLedger(w: WriteContext, written: Written): Promise<void> {
  const touched = new Set<string>();
  if (written.collections.has('attendees')) {
    const rows = await w.db
      .selectFrom('attendees as a')
      .innerJoin('events as e', 'e.id', 'a.event_id')
      .selectAll('a')
      .select('e.title as event_title')
      .where('a.seq', '>=', written.firstSeq)
      .orderBy('a.seq')
      .execute();
    const linked = await entriesOfTickets(
      w.db,
      rows.map((row) => row.id),
    );
    for (const row of rows) {
      const debtor = debtorOf(row);
      if (debtor !== null) touched.add(debtor);
      await followTicketCharge(w, row, row.event_title, linked, touched);
    }
  }
  if (written.collections.has('ledger')) {
    const booked = await w.db.selectFrom('ledger').select('user_id').distinct().where('seq', '>=', written.firstSeq).execute();
    for (const row of booked) touched.add(row.user_id);
  }
  for (const userId of [...touched].sort()) await settle(w, userId);
}

/**
 * Marks paid the member's tickets their money covers (`ticketsCoveredBy`: oldest first, each fully),
 * settling any paid request. No payment entry is written: the money is already in the ledger.
 */
async function settle(w: WriteContext, userId: string): Promise<void> {
  const unpaid = await unpaidTicketsOf(w.db, userId);
  if (unpaid.length === 0) return;
  const [entries, linked] = await Promise.all([
    entriesOf(w.db, userId),
    entriesOfTickets(
      w.db,
      unpaid.map((row) => row.id),
    ),
  ]);
  const charges = unpaid.map((row) => ({
    id: row.id,
    charge_cents: balanceOf(liveLinked(linked, row.id, 'ticket').filter((entry) => entry.user_id === userId)),
    event_date: row.event_date,
    created_at: row.created_at,
  }));
  const covered = ticketsCoveredBy(balanceOf(entries), charges);
  for (const id of covered) {
    const row = await w.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await w.db
      .updateTable('attendees')
      .set({ paid: 1, paid_requested: 0, paid_requested_at: null, updated_at: w.now, seq: await w.nextSeq('attendees') })
      .where('id', '=', id)
      .execute();
    w.record({ type: 'ticket.paid', ...attendeeRef(row, SYSTEM_ACTOR) });
  }
}

/**
 * After a payment or credit was reversed: while the member's money no longer covers the tickets it
 * paid (the money not yet used is below 0), the newest ticket paid from their account (paid, with a
 * charge, without a payment of its own) is unpaid again. The before-commit step settles afterwards,
 * so what the remaining money still covers is paid again, oldest first.
 */
export async function unsettle(w: WriteContext, userId: string): Promise<void> {
  const paid = await w.db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .selectAll('a')
    .select('e.date as event_date')
    .where('a.deleted', '=', 0)
    .where('e.deleted', '=', 0)
    .where('a.bought', '=', 1)
    .where('a.paid', '=', 1)
    .where((eb) => eb.or([eb('a.user_id', '=', userId), eb.and([eb('a.user_id', 'is', null), eb('a.brought_by', '=', userId)])]))
    .orderBy('e.date', 'desc')
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  if (paid.length === 0) return;
  const unpaid = await unpaidTicketsOf(w.db, userId);
  const linked = await entriesOfTickets(
    w.db,
    [...paid, ...unpaid].map((row) => row.id),
  );
  const chargeOfRow = (id: string) => balanceOf(liveLinked(linked, id, 'ticket').filter((entry) => entry.user_id === userId));
  const unpaidCharges = unpaid.reduce((sum, row) => sum + chargeOfRow(row.id), 0);
  let unused = unpaidCharges - balanceOf(await entriesOf(w.db, userId));
  for (const row of paid) {
    if (unused >= 0) return;
    const charge = chargeOfRow(row.id);
    if (charge === 0 || liveLinked(linked, row.id, 'payment').length > 0) continue;
    await w.db
      .updateTable('attendees')
      .set({ paid: 0, updated_at: w.now, seq: await w.nextSeq('attendees') })
      .where('id', '=', row.id)
      .execute();
    unused += charge;
  }
}
