import { ledgerSync, type LedgerDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

/** The signed-in member's own ledger entries (docs/architecture.md, Ledger). Pull only. */
export const ledgerCollection = defineServerCollection<LedgerDoc>({
  declaration: ledgerSync,
  async pull(db, actor, afterSeq, limit) {
    const rows = await db
      .selectFrom('ledger')
      .selectAll()
      .where('user_id', '=', actor.id)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row): MasterDocument<LedgerDoc> => ({
      id: row.id,
      user_id: row.user_id,
      kind: row.kind,
      amount_cents: Number(row.amount_cents),
      date: row.date,
      description: row.description,
      event_id: row.event_id,
      attendee_id: row.attendee_id,
      reverses_id: row.reverses_id,
      created_at: row.created_at,
      seq: Number(row.seq),
      _deleted: toBool(row.deleted),
    }));
  },
});
