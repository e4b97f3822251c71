import {
  balanceOf,
  checkReversal,
  debtorOf,
  eurosToCents,
  reversedIds,
  signedCents,
  statementOf,
  ticketChargeCents,
  ticketEntryDescription,
  ticketsCoveredBy,
  ticketOpenCents,
  owedFiguresOf,
  newId,
  type OwedFigures,
  type LedgerEntryInput,
} from '@fankurve/shared';
import { epcPayload, isPayableByGiroCode, paymentReference } from '@fankurve/shared/rules/girocode';
import type { Kysely } from 'kysely';
import type { AttendeeRow, Database, LedgerRow, LedgerTable } from '../db/schema.js';
import { toBool, type WriteContext, type Written } from '../db/store.js';
import { requireAdmin, SYSTEM_ACTOR, type Actor } from './actor.js';
import { attendeeRef } from './attendeeRows.js';
import { conflict, notFound } from './errors.js';
import { clubAccount } from './settings.js';

/*
 * The club's money in one ledger (docs/architecture.md, "Ledger"; docs/product.md, Tickets and
 * money). Entries are signed cents (positive raises what the member owes) and are never changed or
 * deleted; a correction is a reversal naming the entry. Tickets write their own entries: the
 * before-commit step `followTicketsInLedger` keeps one live 'ticket' entry per bought ticket with a
 * known price and settles the members it touched (their money pays their oldest tickets), and an
 * admin's "paid" in the attendee table books the ticket's payment (`followTicketPaid`). The pure
 * rules (sign, balance, statement, allocation) are shared/src/rules/ledger.ts.
 */

type Db = Kysely<Database>;

/** Rows of one query's `in` list at a time: far below SQLite's and PostgreSQL's limits on parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

const toEntry = (row: LedgerRow) => ({ ...row, amount_cents: Number(row.amount_cents), seq: Number(row.seq) });
export type LedgerEntry = ReturnType<typeof toEntry>;

async function entriesOf(db: Db, userId: string): Promise<LedgerEntry[]> {
  const rows = await db.selectFrom('ledger').selectAll().where('user_id', '=', userId).orderBy('seq').execute();
  return rows.map(toEntry);
}

/** The member's bought, unpaid live tickets with their event, oldest event first. */
function unpaidTicketsOf(db: Db, userId: string) {
  return db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select([
      'a.id as id',
      'a.guest_name as guest_name',
      'a.price_cents as price_cents',
      'a.is_free as is_free',
      'a.is_price_tbd as is_price_tbd',
      'a.created_at as created_at',
      'e.title as event_title',
      'e.date as event_date',
    ])
    .where('a.deleted', '=', 0)
    .where('e.deleted', '=', 0)
    .where('a.bought', '=', 1)
    .where('a.paid', '=', 0)
    .where((eb) => eb.or([eb('a.user_id', '=', userId), eb.and([eb('a.user_id', 'is', null), eb('a.brought_by', '=', userId)])]))
    .orderBy('e.date')
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
}

const ticketRowOfPrice = (row: { price_cents: number | null; is_free: number; is_price_tbd: number }) => ({
  price_cents: row.price_cents === null ? null : Number(row.price_cents),
  is_free: toBool(row.is_free),
  is_price_tbd: toBool(row.is_price_tbd),
});

const chargeOf = (row: { price_cents: number | null; is_free: number; is_price_tbd: number }) =>
  ticketChargeCents({ bought: true, ...ticketRowOfPrice(row) });

/**
 * What a member owes (positive) or has in credit (negative), and their unpaid bought tickets with a
 * known price (for the transfer's reference). Other parts of the server read the balance here.
 */
export async function ledgerBalanceOf(
  db: Db,
  userId: string,
): Promise<{ balanceCents: number; unpaidTickets: { event_title: string; event_date: string; guest_name: string | null }[] }> {
  const [sum, unpaid] = await Promise.all([
    db
      .selectFrom('ledger')
      .select((eb) => eb.fn.sum<number | string | null>('amount_cents').as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    unpaidTicketsOf(db, userId),
  ]);
  return {
    balanceCents: Number(sum?.total ?? 0),
    unpaidTickets: unpaid
      .filter((row) => chargeOf(row) > 0)
      .map((row) => ({ event_title: row.event_title, event_date: row.event_date, guest_name: row.guest_name })),
  };
}

/**
 * What members owe, by the one rule (`owedFiguresOf`; docs/architecture.md, Ledger, "One figure"):
 * each member's ledger balance with their unpaid bought tickets (their own and their guests', archived
 * events' too). Every member with entries or an unpaid ticket has figures; `userIds` narrows the
 * query to those members. /my-tickets, /debts, the debts CSV, the user table, the payment request
 * and the paid requests on /admin/tasks all read them here.
 */
export async function owedFiguresByMember(db: Db, userIds?: readonly string[]): Promise<Map<string, OwedFigures>> {
  if (userIds !== undefined && userIds.length === 0) return new Map();
  const parts = userIds === undefined ? [undefined] : chunks(userIds);
  const balances = new Map<string, number>();
  const unpaid = new Map<
    string,
    { id: string; event_date: string; created_at: string; price_cents: number | null; is_free: boolean; is_price_tbd: boolean }[]
  >();
  for (const part of parts) {
    let sums = db.selectFrom('ledger').select(['user_id', (eb) => eb.fn.sum<number | string>('amount_cents').as('total')]);
    let rows = db
      .selectFrom('attendees as a')
      .innerJoin('events as e', 'e.id', 'a.event_id')
      .select([
        'a.id',
        'a.user_id',
        'a.brought_by',
        'a.price_cents',
        'a.is_free',
        'a.is_price_tbd',
        'a.created_at',
        'e.date as event_date',
      ])
      .where('a.deleted', '=', 0)
      .where('e.deleted', '=', 0)
      .where('a.bought', '=', 1)
      .where('a.paid', '=', 0);
    if (part !== undefined) {
      sums = sums.where('user_id', 'in', part);
      rows = rows.where((eb) =>
        eb.or([eb('a.user_id', 'in', part), eb.and([eb('a.user_id', 'is', null), eb('a.brought_by', 'in', part)])]),
      );
    }
    const [sumRows, ticketRows] = await Promise.all([sums.groupBy('user_id').execute(), rows.execute()]);
    for (const row of sumRows) balances.set(row.user_id, Number(row.total));
    for (const row of ticketRows) {
      const debtor = debtorOf(row);
      if (debtor === null) continue;
      const list = unpaid.get(debtor) ?? [];
      list.push({ id: row.id, event_date: row.event_date, created_at: row.created_at, ...ticketRowOfPrice(row) });
      unpaid.set(debtor, list);
    }
  }
  const figures = new Map<string, OwedFigures>();
  for (const id of new Set([...balances.keys(), ...unpaid.keys()])) {
    figures.set(id, owedFiguresOf(balances.get(id) ?? 0, unpaid.get(id) ?? []));
  }
  return figures;
}

/** One member's figures (nothing owed, no tickets, when they have neither entries nor unpaid tickets). */
export async function owedFiguresOfMember(db: Db, userId: string): Promise<OwedFigures> {
  return (await owedFiguresByMember(db, [userId])).get(userId) ?? owedFiguresOf(0, []);
}

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
 * balance first, with their unpaid bought tickets counted.
 */
export async function listBalances(db: Db, actor: Actor) {
  requireAdmin(actor);
  const [figures, active] = await Promise.all([
    owedFiguresByMember(db),
    db.selectFrom('users').select('id').where('deleted', '=', 0).where('status', '=', 'active').execute(),
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
  const reference = paymentReference(actor.username, unpaidTickets);
  const epc = epcPayload({ bic: account.bic, name: account.holder, iban: account.iban, amountCents: owed, reference });
  return { amountCents: owed, reference, epc };
}

/* ── Writing ── */

type NewEntry = Omit<LedgerTable, 'id' | 'seq' | 'deleted' | 'created_at'>;

async function insertEntry(w: WriteContext, entry: NewEntry): Promise<LedgerEntry> {
  const row = { ...entry, id: newId(), created_at: w.now, seq: await w.nextSeq('ledger'), deleted: 0 };
  await w.db.insertInto('ledger').values(row).execute();
  return toEntry(row);
}

/** The reversal of an entry: the negated amount, today, the same member, text, event and ticket. */
function reverse(w: WriteContext, entry: LedgerEntry, actor: Actor): Promise<LedgerEntry> {
  return insertEntry(w, {
    user_id: entry.user_id,
    kind: 'reversal',
    amount_cents: -entry.amount_cents,
    date: w.today(),
    description: entry.description,
    event_id: entry.event_id,
    attendee_id: entry.attendee_id,
    reverses_id: entry.id,
    created_by: actor.system ? null : actor.id,
  });
}

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
  // Money taken back takes back what it paid.
  if (entry.amount_cents < 0) await unsettle(w, entry.user_id);
  return reversal;
}

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
async function unsettle(w: WriteContext, userId: string): Promise<void> {
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
