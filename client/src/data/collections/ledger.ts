import {
  balanceOf,
  owedFiguresOf,
  statementOf,
  type LedgerDoc,
  type LedgerKind,
  type OwedFigures,
  type TicketPriceFields,
} from '@fankurve/shared';
import { map, type Observable } from 'rxjs';
import type { DocStore } from '../docStore.js';
import { useStoreQuery } from '../query.js';

/*
 * The member's ledger on the device (docs/product.md, Tickets and money), offline too: their own
 * entries, pulled from the server (never written here), summed and ordered by the shared rules
 * (rules/ledger.ts), so /my-tickets shows the same balance and statement as GET /api/ledger/my.
 */

/** One line of the statement: the entry and the balance after it (cents, positive: owed). */
export interface StatementLine {
  id: string;
  date: string;
  kind: LedgerKind;
  amount_cents: number;
  description: string;
  event_id: string | null;
  balance_after_cents: number;
  reversed: boolean;
  /** For a reversal: the entry it undoes. */
  reverses_id: string | null;
}

export interface MyLedger {
  /** What the member owes (positive) or has in credit (negative). */
  balanceCents: number;
  /** Oldest first, as the balance runs. */
  lines: StatementLine[];
}

/** The balance and the statement from the member's entries (a pure function of the device's documents). */
export function buildMyLedger(entries: readonly LedgerDoc[], userId: string): MyLedger {
  const own = entries.filter((entry) => entry.user_id === userId);
  return {
    balanceCents: balanceOf(own),
    lines: statementOf(own).map((line) => ({
      id: line.id,
      date: line.date,
      kind: line.kind,
      amount_cents: line.amount_cents,
      description: line.description,
      event_id: line.event_id,
      balance_after_cents: line.balance_after,
      reversed: line.reversed,
      reverses_id: line.reverses_id,
    })),
  };
}

/**
 * What the member owes on the device, by the one rule the server's views use (`owedFiguresOf`;
 * docs/architecture.md, Ledger, "One figure"): the pulled ledger's balance and the device's unpaid
 * tickets. /my-tickets' "Offene Schulden" and the GiroCode read it, offline too.
 */
export function myOwedFigures(
  ledger: Pick<MyLedger, 'balanceCents'>,
  unpaid: readonly (TicketPriceFields & { id: string; event_date: string | null })[],
): OwedFigures {
  return owedFiguresOf(
    ledger.balanceCents,
    unpaid.map((ticket) => ({ ...ticket, event_date: ticket.event_date ?? '', created_at: '' })),
  );
}

export function myLedger$(docs: DocStore, userId: string): Observable<MyLedger> {
  return docs
    .live(() => docs.table('ledger').filter((entry) => entry.user_id === userId).toArray())
    .pipe(map((entries) => buildMyLedger(entries, userId)));
}

/** The member's balance and statement as they change on the device; undefined while loading. */
export function useMyLedger(userId: string): MyLedger | undefined {
  return useStoreQuery((docs) => myLedger$(docs, userId), [userId]);
}
