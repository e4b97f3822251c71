import { boardingsSync, type BoardingDoc } from '@fankurve/shared/collections/boardings/collection';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import type { Actor } from '../../domain/actor.js';
import { badInput, forbidden } from '../../domain/errors.js';
import { defineServerCollection, sameForEveryActor, type MasterDocument, type PushedChange } from '../../sync/collection.js';
import { tickBoarding, type BoardingRow } from './domain.js';

type BoardingSource = BoardingRow & {
  event_deleted: number | null;
  event_archived: number | null;
  transport_deleted: number | null;
};

/** A tick of an archived or deleted event, or of a deleted option, is gone for the device too. */
function toBoardingDoc(row: BoardingSource): MasterDocument<BoardingDoc> {
  return {
    id: row.id,
    event_id: row.event_id,
    transport_id: row.transport_id,
    attendee_id: row.attendee_id,
    on_board: toBool(row.on_board),
    by: row.by_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    seq: Number(row.seq),
    _deleted:
      toBool(row.deleted) || toBool(row.event_deleted) || toBool(row.event_archived) || toBool(row.transport_deleted ?? 1),
  };
}

const boardingsWithParents = (db: Kysely<Database>) =>
  db
    .selectFrom('boardings as b')
    .leftJoin('events as e', 'e.id', 'b.event_id')
    .leftJoin('transports as t', 't.id', 'b.transport_id')
    .selectAll('b')
    .select(['e.deleted as event_deleted', 'e.archived as event_archived', 't.deleted as transport_deleted']);

/** Every tick, for every member: a club has few, and a captain named later needs the ticks before. */
async function pullBoardings(
  db: Kysely<Database>,
  _actor: Actor,
  afterSeq: number,
  limit: number,
): Promise<MasterDocument<BoardingDoc>[]> {
  const rows = await boardingsWithParents(db).where('b.seq', '>', afterSeq).orderBy('b.seq').limit(limit).execute();
  return rows.map(toBoardingDoc);
}

const text = (value: unknown): string => {
  if (typeof value !== 'string' || value.length === 0) throw badInput();
  return value;
};

/**
 * Ticks as a captain's device made them (offline too), by the same domain call as the REST route. Two
 * captains ticking one passenger create the same document: the later push changes the first's tick.
 * Not a captain of the option (or no longer): refused with a notice, the device gets the server's state.
 */
export const boardingsCollection = defineServerCollection<BoardingDoc>({
  declaration: boardingsSync,
  pull: pullBoardings,
  shared: sameForEveryActor(pullBoardings),
  push: {
    async find(db, _actor, id) {
      const row = await boardingsWithParents(db).where('b.id', '=', id).executeTakeFirst();
      return row ? toBoardingDoc(row) : undefined;
    },
    async apply(w, actor, change: PushedChange<BoardingDoc>) {
      if (change.kind === 'delete') throw forbidden();
      const onBoard = change.fields.on_board;
      if (typeof onBoard !== 'boolean') throw badInput();
      if (change.kind === 'create') {
        const createdAt = typeof change.sent.created_at === 'string' ? change.sent.created_at : undefined;
        await tickBoarding(w, actor, text(change.sent.transport_id), text(change.sent.attendee_id), onBoard, {
          id: change.id,
          eventId: text(change.sent.event_id),
          createdAt,
        });
        return;
      }
      const master = change.master!;
      await tickBoarding(w, actor, master.transport_id, master.attendee_id, onBoard);
    },
    describe: (change) => ({
      eventId: change.master?.event_id || (typeof change.sent.event_id === 'string' ? change.sent.event_id : null),
      action: 'boarding.tick',
    }),
  },
});
