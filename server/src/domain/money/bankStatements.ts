import { createHash } from 'node:crypto';
import { newId, whatPaymentPays } from '@fankurve/shared';
import type { WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { badInput, conflict, notFound } from '../errors.js';
import { bookEntry } from './ledgerBookings.js';
import { chargeOf, owedFiguresByMember, unpaidTicketsOfMembers, type Db, type UnpaidTicket } from './ledgerEntries.js';
import { matchLine, type MatchDirectory, type MatchedLine } from './statementMatching.js';

/*
 * A bank statement's credits, kept a day for booking, and their booking as payments
 * (docs/architecture.md, "Bank statements"). A credit's bank reference (or, without one, a hash of
 * its date, amount, IBAN and purpose) is booked at most once: `bank_payments` holds it under a
 * unique key, and the write lock every write takes serialises two admins booking the same line.
 */

/** How long a parsed statement is kept for booking. */
const STATEMENT_KEEP_MS = 24 * 60 * 60 * 1000;
/** The text of a booked payment's ledger entry, at most (the ledger's note limit). */
const PAYMENT_NOTE_MAX = 200;

/** One incoming credit of a statement, as the parsers (server/src/bankStatements) give it. */
export interface CreditLine {
  /** The day the bank booked it, `YYYY-MM-DD`. */
  booked_on: string;
  /** Whole cents, above zero. */
  amount_cents: number;
  currency: string;
  /** The payer as the bank names them, '' when it does not. */
  name: string;
  /** The payer's IBAN in electronic format, '' when the bank does not give it. */
  iban: string;
  /** The transfer's purpose (unstructured remittance), lines joined by spaces. */
  purpose: string;
  /** AcctSvcrRef, else the EndToEndId, else '' (`lineKey` then derives one). */
  bank_ref: string;
}

/** A kept line: its number in the statement and its key against booking twice. */
interface KeptLine extends CreditLine {
  line_id: string;
  key: string;
}

/** What booking a line for its match pays: tickets in full, and the cents left as credit. */
export interface LinePays {
  tickets: { event_title: string; event_date: string; guest_name: string | null }[];
  credit_cents: number;
}

export type StatementLineView = Omit<KeptLine, 'key'> & { duplicate: boolean; match: MatchedLine | null; pays: LinePays | null };

/** The key against booking twice: the bank's reference, else a hash of what the line says. */
export function lineKey(line: CreditLine): string {
  if (line.bank_ref) return line.bank_ref;
  const said = [line.booked_on, line.amount_cents, line.iban, line.purpose].join('\n');
  return `H:${createHash('sha256').update(said).digest('hex').slice(0, 40)}`;
}

/** The members that can pay (active accounts) with what they owe, and the IBANs learned from their booked payments. */
async function directoryOf(db: Db): Promise<MatchDirectory> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('status', '=', 'active')
    .where('deleted', '=', 0)
    .execute();
  const owed = await owedFiguresByMember(db);
  const learned = new Map<string, string[]>();
  for (const row of await db.selectFrom('bank_payments').select(['iban', 'user_id']).where('iban', '!=', '').execute()) {
    const ids = learned.get(row.iban) ?? [];
    if (!ids.includes(row.user_id)) learned.set(row.iban, [...ids, row.user_id]);
  }
  return {
    members: users.map((user) => ({ id: user.id, username: user.username, owedCents: owed.get(user.id)?.owedCents ?? 0 })),
    learnedIbans: learned,
  };
}

/** The keys among `keys` that were booked before. */
async function bookedKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  const booked = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const part = keys.slice(i, i + 500);
    for (const row of await db.selectFrom('bank_payments').select('bank_ref').where('bank_ref', 'in', part).execute()) {
      booked.add(row.bank_ref);
    }
  }
  return booked;
}

/** The `settings` key of the CSV column mapping the treasurer chose last (JSON). */
const CSV_MAPPING_KEY = 'statement_csv_mapping';

/** The CSV column mapping the club kept (as stored, the bank statements' reader checks it), null when none. */
export async function keptCsvMapping(db: Db): Promise<unknown> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', CSV_MAPPING_KEY).executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(row.value) as unknown;
  } catch {
    return null;
  }
}

/** Keeps the mapping a statement was read by: the next file of that layout is read by it without asking. */
async function keepCsvMapping(w: WriteContext, mapping: Readonly<Record<string, string>>): Promise<void> {
  const value = JSON.stringify(mapping);
  await w.db
    .insertInto('settings')
    .values({ key: CSV_MAPPING_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * POST /api/ledger/statements (admin): keeps a parsed statement's credits for a day and answers each
 * with whether it was booked before, whom it matches and what it would pay; a CSV column mapping the
 * treasurer chose for it is kept for the next file. Statements older than a day are dropped.
 */
export async function keepStatement(
  w: WriteContext,
  actor: Actor,
  statement: { format: string; lines: readonly CreditLine[] },
  options: { csvMapping?: Readonly<Record<string, string>> } = {},
): Promise<{ id: string; format: string; lines: StatementLineView[] }> {
  requireAdmin(actor);
  if (options.csvMapping) await keepCsvMapping(w, options.csvMapping);
  await w.db.deleteFrom('bank_statements').where('expires_at', '<', w.now).execute();
  const kept: KeptLine[] = statement.lines.map((line, i) => ({ ...line, line_id: String(i + 1), key: lineKey(line) }));
  const id = newId();
  await w.db
    .insertInto('bank_statements')
    .values({
      id,
      format: statement.format,
      lines: JSON.stringify(kept),
      created_by: actor.id,
      created_at: w.now,
      expires_at: new Date(Date.parse(w.now) + STATEMENT_KEEP_MS).toISOString(),
    })
    .execute();
  return { id, format: statement.format, lines: await viewsOf(w.db, kept) };
}

async function viewsOf(db: Db, lines: readonly KeptLine[]): Promise<StatementLineView[]> {
  const directory = await directoryOf(db);
  const booked = await bookedKeys(
    db,
    lines.map((line) => line.key),
  );
  // Two lines of one statement with one key: the first counts, the second is its duplicate.
  const seen = new Set<string>();
  const views = lines.map(({ key, ...line }) => {
    const duplicate = booked.has(key) || seen.has(key);
    seen.add(key);
    return { ...line, duplicate, match: matchLine(line, directory), pays: null };
  });
  return withWhatEachPays(db, views);
}

/**
 * What each matched line would pay, in the statement's order: a member's second line pays after
 * their first (the payment rule: oldest tickets first, the rest credit).
 */
async function withWhatEachPays(db: Db, views: StatementLineView[]): Promise<StatementLineView[]> {
  const payable = (view: StatementLineView) => view.match !== null && !view.duplicate && view.currency === 'EUR';
  const userIds = [...new Set(views.filter(payable).map((view) => view.match!.user_id))];
  const [balances, unpaid] = await Promise.all([owedFiguresByMember(db, userIds), unpaidTicketsOfMembers(db, userIds)]);
  const accounts = new Map<string, { balance: number; tickets: UnpaidTicket[] }>();
  for (const userId of userIds) {
    accounts.set(userId, { balance: balances.get(userId)?.balanceCents ?? 0, tickets: unpaid.get(userId) ?? [] });
  }
  return views.map((view) => {
    if (!payable(view)) return view;
    const account = accounts.get(view.match!.user_id)!;
    const charges = account.tickets.map((ticket) => ({ ...ticket, charge_cents: chargeOf(ticket) }));
    const paid = whatPaymentPays(account.balance, charges, view.amount_cents);
    account.balance -= view.amount_cents;
    const byId = new Map(account.tickets.map((ticket) => [ticket.id, ticket]));
    return {
      ...view,
      pays: {
        tickets: paid.ticketIds.map((id) => {
          const { event_title, event_date, guest_name } = byId.get(id)!;
          return { event_title, event_date, guest_name };
        }),
        credit_cents: paid.creditCents,
      },
    };
  });
}

/**
 * POST /api/ledger/statements/{id}/book (admin): books each chosen line as a payment of the chosen
 * member (the payment rule then pays their oldest tickets first). A line booked before (by this or
 * another statement, or by another admin a moment ago) is counted as a duplicate and not booked.
 * 404 for a statement that is unknown or older than a day; 400 for a line it does not have or one
 * named twice; 409 for a line in another currency.
 */
export async function bookStatementLines(
  w: WriteContext,
  actor: Actor,
  statementId: string,
  picks: readonly { line_id: string; user_id: string }[],
): Promise<{ booked: number; duplicates: number }> {
  requireAdmin(actor);
  const row = await w.db
    .selectFrom('bank_statements')
    .select(['lines', 'expires_at'])
    .where('id', '=', statementId)
    .executeTakeFirst();
  if (!row || row.expires_at < w.now) throw notFound('statementNotFound');
  const lines = new Map((JSON.parse(row.lines) as KeptLine[]).map((line) => [line.line_id, line]));
  const chosen = picks.map((pick) => {
    const line = lines.get(pick.line_id);
    if (!line) throw badInput('statementLineUnknown');
    if (line.currency !== 'EUR') throw conflict('statementForeignCurrency');
    return { line, userId: pick.user_id };
  });
  if (new Set(picks.map((pick) => pick.line_id)).size !== picks.length) throw badInput('statementLineTwice');
  const booked = await bookedKeys(
    w.db,
    chosen.map(({ line }) => line.key),
  );
  let bookedCount = 0;
  let duplicates = 0;
  for (const { line, userId } of chosen) {
    if (booked.has(line.key)) {
      duplicates += 1;
      continue;
    }
    const entry = await bookEntry(w, actor, {
      user_id: userId,
      kind: 'payment',
      amount: line.amount_cents / 100,
      date: line.booked_on,
      note: noteOf(line),
    });
    await w.db
      .insertInto('bank_payments')
      .values({
        bank_ref: line.key,
        user_id: userId,
        iban: line.iban,
        ledger_id: entry.id,
        statement_id: statementId,
        booked_at: w.now,
      })
      .execute();
    booked.add(line.key);
    bookedCount += 1;
  }
  return { booked: bookedCount, duplicates };
}

/** The payment's text in the member's statement: the payer and the purpose, as the bank said them. */
function noteOf(line: CreditLine): string {
  const text = [line.name, line.purpose].filter(Boolean).join(': ').replace(/\s+/g, ' ').trim();
  return [...text].slice(0, PAYMENT_NOTE_MAX).join('');
}
