import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Actor } from '../../domain/actor.js';
import { transportsSync, type TransportDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { defineServerCollection, sameForEveryActor, type MasterDocument } from '../collection.js';
import { busPartsOf, busViewOf } from '../../domain/events/transportSeats.js';

/**
 * Transport options of every event, with their seat plan, seats and captains (docs/product.md, Bus).
 * Pull only: admins write them through REST, and so do members who choose their seats.
 */
async function pullTransports(
  db: Kysely<Database>,
  _actor: Actor,
  afterSeq: number,
  limit: number,
): Promise<MasterDocument<TransportDoc>[]> {
  const rows = await db.selectFrom('transports').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  const parts = await busPartsOf(
    db,
    rows.filter((row) => !toBool(row.deleted)).map((row) => row.id),
  );
  return rows.map((row): MasterDocument<TransportDoc> => ({
    id: row.id,
    event_id: row.event_id,
    name: row.name,
    price_per_seat_cents: Number(row.price_per_seat_cents),
    is_free: toBool(row.is_free),
    is_price_tbd: toBool(row.is_price_tbd),
    departure_datetime: row.departure_datetime,
    departure_location: row.departure_location,
    created_at: row.created_at,
    ...busFields(row, parts.get(row.id)),
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  }));
}

function busFields(row: Parameters<typeof busViewOf>[0], parts: Parameters<typeof busViewOf>[1] | undefined) {
  const { id: _id, ...bus } = busViewOf(row, parts ?? { captain_ids: [], seats: [] });
  return bus;
}

export const transportsCollection = defineServerCollection<TransportDoc>({
  declaration: transportsSync,
  pull: pullTransports,
  shared: sameForEveryActor(pullTransports),
});
