import { debtorOf, newId, ticketChargeCents, ticketEntryDescription } from '@fankurve/shared';
import type { Kysely } from 'kysely';

/*
 * The ledger (docs/architecture.md, "Ledger"): one replicated table of entries in signed cents,
 * never changed or deleted. Today's tickets are written into it, so every balance starts equal to
 * the debts the app showed before: a 'ticket' entry for every live bought ticket with a known price
 * above 0 (owed by the member, for a guest by the member who brought them) and, when the ticket is
 * paid, a 'payment' entry of the same price linked to it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('attendee_id', 'text')
    .addColumn('reverses_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('ledger_user').on('ledger').column('user_id').execute();
  await db.schema.createIndex('ledger_seq').on('ledger').column('seq').execute();
  await db.schema.createIndex('ledger_attendee').on('ledger').column('attendee_id').execute();

  const rows = await db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select([
      'a.id as id',
      'a.event_id as event_id',
      'a.user_id as user_id',
      'a.brought_by as brought_by',
      'a.guest_name as guest_name',
      'a.price_cents as price_cents',
      'a.is_free as is_free',
      'a.is_price_tbd as is_price_tbd',
      'a.paid as paid',
      'a.created_at as created_at',
      'a.updated_at as updated_at',
      'e.title as event_title',
    ])
    .where('a.deleted', '=', 0)
    .where('e.deleted', '=', 0)
    .where('a.bought', '=', 1)
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
  const now = new Date().toISOString();
  const counter = await db.selectFrom('counters').select('value').where('name', '=', 'seq').executeTakeFirstOrThrow();
  let seq = Number(counter.value);
  for (const row of rows) {
    const debtor = debtorOf(row);
    const charge = ticketChargeCents({
      bought: true,
      price_cents: row.price_cents === null ? null : Number(row.price_cents),
      is_free: Number(row.is_free) === 1,
      is_price_tbd: Number(row.is_price_tbd) === 1,
    });
    if (debtor === null || charge === 0) continue;
    const entry = {
      user_id: debtor,
      description: ticketEntryDescription(row.event_title, row.guest_name),
      event_id: row.event_id,
      attendee_id: row.id,
      reverses_id: null,
      created_by: null,
      created_at: now,
      deleted: 0,
    };
    await db
      .insertInto('ledger')
      .values({
        ...entry,
        id: newId(),
        kind: 'ticket',
        amount_cents: charge,
        date: String(row.created_at).slice(0, 10),
        seq: ++seq,
      })
      .execute();
    if (Number(row.paid) === 1) {
      await db
        .insertInto('ledger')
        .values({
          ...entry,
          id: newId(),
          kind: 'payment',
          amount_cents: -charge,
          date: String(row.updated_at).slice(0, 10),
          seq: ++seq,
        })
        .execute();
    }
  }
  await db.updateTable('counters').set({ value: seq }).where('name', '=', 'seq').execute();
}
