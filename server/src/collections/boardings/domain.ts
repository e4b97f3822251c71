import { boardingIdOf, isPassengerOf, seatOf } from '@fankurve/shared/collections/boardings/rules';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool, toInt, type WriteContext } from '../../db/store.js';
import type { Actor } from '../../domain/actor.js';
import { requireLiveEvent } from '../../domain/attendance/attendance.js';
import { badInput, conflict, notFound } from '../../domain/errors.js';
import { busPartsOf, busRowsOf, busViewOf, isOnlyOption, requireTicker } from '../../domain/events/transportSeats.js';
import { findLiveTransport } from '../../domain/events/transports.js';
import './events.js';
import type { BoardingsTable } from './tables.js';

/*
 * Boarding (docs/product.md, Bus): a captain of a transport option or an admin ticks its passengers on
 * board, offline too. One row per option and attendee row, its id derived from the pair, so two
 * captains' ticks of one passenger are one document (the later push wins). Ticks stay when the
 * passenger cancels. REST and the boardings sync collection call the same function.
 */

export type BoardingRow = Selectable<BoardingsTable>;

/** The boarding of a passenger on an option, if ticked before. */
export function findBoarding(db: Kysely<Database>, transportId: string, attendeeId: string): Promise<BoardingRow | undefined> {
  return db
    .selectFrom('boardings')
    .selectAll()
    .where('transport_id', '=', transportId)
    .where('attendee_id', '=', attendeeId)
    .executeTakeFirst();
}

/**
 * Ticks a passenger of a live option on board or off (`onBoard`): 403 `boardingNotAllowed` unless a
 * captain of the option or an admin, 409 `boardingNotPassenger` for a row that neither holds a seat
 * on it nor travels with it. `made`: the id and time the device gave a new document (a push). A tick
 * that changes nothing writes nothing.
 */
export async function tickBoarding(
  w: WriteContext,
  actor: Actor,
  transportId: string,
  attendeeId: string,
  onBoard: boolean,
  made: { id?: string; eventId?: string; createdAt?: string } = {},
): Promise<BoardingRow> {
  const transport = await findLiveTransport(w.db, transportId);
  await requireLiveEvent(w.db, transport.event_id);
  await requireTicker(w.db, actor, transport);
  if (made.eventId !== undefined && made.eventId !== transport.event_id) throw badInput('invalidInput');
  const id = boardingIdOf(transportId, attendeeId);
  if (made.id !== undefined && made.id !== id) throw badInput('invalidInput');
  const rows = await busRowsOf(w.db, transport.event_id);
  const row = rows.get(attendeeId);
  if (!row) throw notFound('attendanceNotFound');
  const bus = busViewOf(transport, (await busPartsOf(w.db, [transportId])).get(transportId)!);
  if (seatOf(bus, attendeeId) === null && !isPassengerOf(bus, await isOnlyOption(w.db, transport), row))
    throw conflict('boardingNotPassenger');
  const current = await findBoarding(w.db, transportId, attendeeId);
  if (current && toBool(current.on_board) === onBoard && !toBool(current.deleted)) return current;
  const fields = { on_board: toInt(onBoard), by_id: actor.id, updated_at: w.now, seq: await w.nextSeq('boardings'), deleted: 0 };
  let saved: BoardingRow;
  if (current) {
    await w.db.updateTable('boardings').set(fields).where('id', '=', current.id).execute();
    saved = { ...current, ...fields };
  } else {
    saved = {
      id,
      event_id: transport.event_id,
      transport_id: transportId,
      attendee_id: attendeeId,
      created_at: made.createdAt ?? w.now,
      ...fields,
    };
    await w.db.insertInto('boardings').values(saved).execute();
  }
  w.record({ type: 'boarding.ticked', transportId, attendeeId, eventId: transport.event_id, onBoard, actorId: actor.id });
  return saved;
}
