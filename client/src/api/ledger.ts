import {
  eurosToCents,
  type LedgerEntryAnswer,
  type LedgerChargeAnswer,
  type LedgerChargeInput,
  type LedgerEntryInput,
  type LedgerMembersAnswer,
  type LedgerStatementAnswer,
  type SeasonAccountsAnswer,
  type StatementBookAnswer,
  type StatementCsvMapping,
  type StatementCsvMappingNeededAnswer,
  type StatementImportAnswer,
} from '@fankurve/shared';
import { api, isApiError } from './client.js';

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
  /** Reminders to pay sent for the current debt, and when the latest went out. */
  reminder_count: number;
  reminded_at: string | null;
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
type AnsweredLine = StatementImportAnswer['statement']['lines'][number];

/** A credit of an imported statement, amounts in cents. */
export type ImportedLine = Omit<AnsweredLine, 'amount' | 'pays'> & {
  amount_cents: number;
  /** What booking it for its match pays: tickets in full, and what is left as credit. */
  pays: { tickets: NonNullable<AnsweredLine['pays']>['tickets']; credit_cents: number } | null;
};

/**
 * POST /api/ledger/statements: the statement's credits with whether each was booked before, whom it
 * matches and what it pays. `mapping`: the CSV columns the treasurer chose (the club keeps them).
 * A CSV layout no mapping fits is refused with `statementCsvMappingNeeded` (`csvMappingNeededOf`).
 */
export async function importStatement(
  file: File,
  mapping?: StatementCsvMapping,
): Promise<{ id: string; format: string; lines: ImportedLine[] }> {
  const form = new FormData();
  form.append('file', file);
  if (mapping) form.append('mapping', JSON.stringify(mapping));
  const { statement } = await api<StatementImportAnswer>('/api/ledger/statements', { method: 'POST', body: form });
  return {
    ...statement,
    lines: statement.lines.map(({ amount, pays, ...line }) => ({
      ...line,
      amount_cents: eurosToCents(amount),
      pays: pays && { tickets: pays.tickets, credit_cents: eurosToCents(pays.credit) },
    })),
  };
}

/** The file's columns and the club's kept mapping, when an import was refused for want of a CSV mapping. */
export function csvMappingNeededOf(error: unknown): { columns: string[]; mapping: StatementCsvMapping | null } | null {
  if (!isApiError(error) || error.code !== 'statementCsvMappingNeeded' || !error.answer) return null;
  const { columns, mapping } = error.answer as Partial<StatementCsvMappingNeededAnswer>;
  return Array.isArray(columns) ? { columns, mapping: mapping ?? null } : null;
}

/** POST /api/ledger/statements/{id}/book: the chosen lines as payments of the chosen members. */
export const bookStatement = (statementId: string, lines: { line_id: string; user_id: string }[]) =>
  api<StatementBookAnswer>(`/api/ledger/statements/${id(statementId)}/book`, { method: 'POST', body: { lines } });

/** POST /api/ledger/charges: one charge to many members (docs/architecture.md, Ledger, "Bulk charges"). */
export const chargeInBulk = (body: LedgerChargeInput) => api<LedgerChargeAnswer>('/api/ledger/charges', { method: 'POST', body });

/** The season's accounts as the report shows them: every amount in cents (docs/architecture.md, Ledger, "Season accounts"). */
export type SeasonAccountsReport = SeasonAccountsAnswer['accounts'];

/** GET /api/ledger/accounts?season=YYYY (admin): `season` is the year the season starts in (July); none: the current season. */
export async function fetchSeasonAccounts(season: number | null, signal?: AbortSignal): Promise<SeasonAccountsReport> {
  const query = season === null ? '' : `?season=${encodeURIComponent(String(season))}`;
  return (await api<SeasonAccountsAnswer>(`/api/ledger/accounts${query}`, { signal })).accounts;
}
