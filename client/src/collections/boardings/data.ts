import type { TransportDoc } from '@fankurve/shared';
import type { BoardingDoc } from '@fankurve/shared/collections/boardings/collection';
import { boardingIdOf, mayTick } from '@fankurve/shared/collections/boardings/rules';
import type { RxDocument } from 'rxdb';
import { map } from 'rxjs';
import { kindOf } from '../../data/pushedGroup.js';
import { LocalRuleError, type Device } from '../../data/device.js';
import { onDevice } from '../../data/local.js';
import { useQuery } from '../../data/query.js';

/*
 * Boarding ticks on the device (docs/product.md, Bus), offline too: every member's device pulls every
 * tick (RxDB, a pushed collection). A captain of the option or an admin ticks a passenger on board or
 * off, checked by the shared rule first (`mayTick`); the replication pushes it and the server decides
 * again when it arrives (no longer a captain: refused with a notice and undone on the device). The
 * document's id is derived from the option and the passenger, so two captains' ticks are one document.
 */

/** The ticks of an option on the device; undefined while the device reads. */
export function useBoardings(transportId: string): BoardingDoc[] | undefined {
  return useQuery(
    (db) =>
      kindOf(db, 'boardings')
        .find({ selector: { transport_id: transportId } })
        .$.pipe(map((docs) => docs.map((doc) => doc.toJSON() as BoardingDoc))),
    [transportId],
  );
}

/**
 * The user ticks the passenger (attendee row) on the option on board (`onBoard`) or off. Refused on
 * the device unless they are one of the option's captains or an admin (`boardingNotAllowed`).
 */
async function tick(
  device: Device,
  user: { id: string; isAdmin: boolean },
  transport: Pick<TransportDoc, 'id' | 'event_id' | 'captain_ids'>,
  attendeeId: string,
  onBoard: boolean,
): Promise<void> {
  if (!mayTick(transport, user)) throw new LocalRuleError('boardingNotAllowed');
  try {
    await writeTick(device, user, transport, attendeeId, onBoard);
  } catch (error) {
    // Another captain's tick of this passenger (the same id) arrived between the read and the
    // insert: the tick changes that document instead.
    if ((error as { code?: unknown }).code !== 'CONFLICT') throw error;
    await writeTick(device, user, transport, attendeeId, onBoard);
  }
}

async function writeTick(
  { db, outbox }: Device,
  user: { id: string },
  transport: Pick<TransportDoc, 'id' | 'event_id'>,
  attendeeId: string,
  onBoard: boolean,
): Promise<void> {
  const id = boardingIdOf(transport.id, attendeeId);
  const now = new Date().toISOString();
  const boardings = kindOf(db, 'boardings');
  const doc = (await boardings.findOne(id).exec()) as RxDocument<BoardingDoc> | null;
  if (doc) {
    if (doc.on_board === onBoard) return;
    outbox.add(id);
    await doc.incrementalPatch({ on_board: onBoard, by: user.id, updated_at: now });
    return;
  }
  outbox.add(id);
  await boardings.insert({
    id,
    event_id: transport.event_id,
    transport_id: transport.id,
    attendee_id: attendeeId,
    on_board: onBoard,
    by: user.id,
    created_at: now,
    updated_at: now,
    seq: 0,
  });
}

/** The writes on a given device (tests call them with theirs). */
export const writes = { tickBoarding: tick };

/** The screens' writes, on this device's database (docs/architecture.md, Client data layer). */
export const { tickBoarding } = onDevice(writes);
