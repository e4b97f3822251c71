import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Actor } from '../../domain/actor.js';
import { transportsSync, type TransportDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { defineServerCollection, sameForEveryActor, type MasterDocument } from '../collection.js';

/** Transport options of every event. Pull only: admins write them through REST. */
async function pullTransports(
  db: Kysely<Database>,
  _actor: Actor,
  afterSeq: number,
  limit: number,
): Promise<MasterDocument<TransportDoc>[]> {
  const rows = await db.selectFrom('transports').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
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
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  }));
}

export const transportsCollection = defineServerCollection<TransportDoc>({
  declaration: transportsSync,
  pull: pullTransports,
  shared: sameForEveryActor(pullTransports),
});
