import {
  eurosToCents,
  type LedgerEntryAnswer,
  type LedgerChargeAnswer,
  type LedgerChargeInput,
  type LedgerEntryInput,
  type LedgerMembersAnswer,
  type LedgerStatementAnswer,
  type StatementBookAnswer,
  type StatementImportAnswer,
} from '@fankurve/shared';
import { api } from './client.js';

/*
 * The ledger's admin routes (docs/architecture.md, Ledger), online only: balances, a member's
 * statement, booking and reversing. The REST edge speaks euros; here they become cents. The
 * member's own statement reaches the device through the ledger sync collection.
 */

const id = (value: string) => encodeURIComponent(value);

export interface MemberBalance {
  user_id: string;
  username: string | null;
  balanceCents: number;
  unpaid_count: number;
  /** Unpaid tickets whose price is open: no charge in the balance yet. */
  open_price_count: number;
}

export async function fetchBalances(signal?: AbortSignal): Promise<MemberBalance[]> {
  const answer = await api<LedgerMembersAnswer>('/api/ledger', { signal });
  return answer.members.map(({ balance, ...member }) => ({ ...member, balanceCents: eurosToCents(balance) }));
}

export interface MemberStatementLine {
  id: string;
  date: string;
  kind: LedgerStatementAnswer['entries'][number]['kind'];
  amount_cents: number;
  description: string;
  balance_after_cents: number;
  attendee_id: string | null;
  reverses_id: string | null;
  reversed: boolean;
}

export async function fetchMemberStatement(
  userId: string,
  signal?: AbortSignal,
): Promise<{ balanceCents: number; lines: MemberStatementLine[] }> {
  const answer = await api<LedgerStatementAnswer>(`/api/ledger/members/${id(userId)}`, { signal });
  return {
    balanceCents: eurosToCents(answer.balance),
    lines: answer.entries.map((entry) => ({
      id: entry.id,
      date: entry.date,
      kind: entry.kind,
      amount_cents: eurosToCents(entry.amount),
      description: entry.description,
      balance_after_cents: eurosToCents(entry.balance_after),
      attendee_id: entry.attendee_id,
      reverses_id: entry.reverses_id,
      reversed: entry.reversed,
    })),
  };
}

/** Books an entry; `idempotencyKey` (one per booking the admin makes) makes a repeated submit book nothing more. */
export const bookLedgerEntry = (body: LedgerEntryInput, idempotencyKey: string) =>
  api<LedgerEntryAnswer>('/api/ledger/entries', { method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } });

export const reverseLedgerEntry = (entryId: string) =>
  api<LedgerEntryAnswer>(`/api/ledger/entries/${id(entryId)}/reverse`, { method: 'POST' });

/** A credit of an imported statement, in cents (docs/architecture.md, Bank statements). */
export type ImportedLine = Omit<StatementImportAnswer['statement']['lines'][number], 'amount'> & { amount_cents: number };

/** POST /api/ledger/statements: the statement's credits with whether each was booked before and whom it matches. */
export async function importStatement(file: File): Promise<{ id: string; format: string; lines: ImportedLine[] }> {
  const form = new FormData();
  form.append('file', file);
  const { statement } = await api<StatementImportAnswer>('/api/ledger/statements', { method: 'POST', body: form });
  return { ...statement, lines: statement.lines.map(({ amount, ...line }) => ({ ...line, amount_cents: eurosToCents(amount) })) };
}

/** POST /api/ledger/statements/{id}/book: the chosen lines as payments of the chosen members. */
export const bookStatement = (statementId: string, lines: { line_id: string; user_id: string }[]) =>
  api<StatementBookAnswer>(`/api/ledger/statements/${id(statementId)}/book`, { method: 'POST', body: { lines } });

/** POST /api/ledger/charges: one charge to many members (docs/architecture.md, Ledger, "Bulk charges"). */
export const chargeInBulk = (body: LedgerChargeInput) => api<LedgerChargeAnswer>('/api/ledger/charges', { method: 'POST', body });
