import { clubTimeToInstant, debtorOf } from '@fankurve/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { requireAdmin, SYSTEM_ACTOR, type Actor } from '../actor.js';
import { conflict, DomainError } from '../errors.js';
import { requireLiveEvent } from '../attendance/attendance.js';
import { bookBulkCharge, type Charged } from '../money/bulkCharges.js';
import type { TransportRow } from './transports.js';
import { passengersOf } from './transportSeats.js';

/*
 * The bus fare (docs/product.md, Bus; docs/architecture.md, The bus): every passenger of a transport
 * option not yet charged for it pays the price per seat, one charge entry per person through the
 * ledger's bulk charge (a guest's to their host), remembered per option and attendee row in
 * `transport_fares`, so charging again charges only the new passengers. With `charge_at_departure`
 * the job `transport-fares` (jobs/fareJobs.ts) charges by itself at the departure time, once.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** The price per seat in cents, or 409 `fareNotSet` while it is free or to be announced. */
function fareCents(transport: TransportRow): number {
  const cents = Number(transport.price_per_seat_cents);
  if (toBool(transport.is_free) || toBool(transport.is_price_tbd) || cents <= 0) throw conflict('fareNotSet');
  return cents;
}

/**
 * Charges every passenger of the option not charged for it before (POST /api/transports/{id}/charge-fare,
 * admin; the fare job as the system): `{ charged, totalCents }`. 409 `fareNothingToCharge` when nobody
 * is new, `fareNotSet` when the price is free or to be announced.
 */
export async function chargeFare(
  w: WriteContext,
  actor: Actor,
  transport: TransportRow,
): Promise<{ charged: number; totalCents: number }> {
  requireAdmin(actor);
  await requireLiveEvent(w.db, transport.event_id);
  const cents = fareCents(transport);
  const charged = new Set(
    (await w.db.selectFrom('transport_fares').select('attendee_id').where('transport_id', '=', transport.id).execute()).map(
      (row) => row.attendee_id,
    ),
  );
  const passengers = (await passengersOf(w.db, transport)).filter((row) => !charged.has(row.id));
  const debtors = [...new Set(passengers.map((row) => debtorOf(row)).filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  if (debtors.length > 0)
    for (const user of await w.db.selectFrom('users').select(['id', 'username']).where('id', 'in', debtors).execute())
      names.set(user.id, user.username);
  const people: Charged[] = passengers.flatMap((row) => {
    const userId = debtorOf(row);
    const username = userId ? names.get(userId) : undefined;
    return userId && username !== undefined
      ? [{ userId, username, guestName: row.user_id ? null : row.guest_name, attendeeId: row.id }]
      : [];
  });
  if (people.length === 0) throw conflict('fareNothingToCharge');
  const event = await w.db.selectFrom('events').select('title').where('id', '=', transport.event_id).executeTakeFirst();
  const note = event ? `${transport.name} · ${event.title}` : transport.name;
  const { id, entries, totalCents } = await bookBulkCharge(w, actor, {
    key: `fare:${transport.id}`,
    eventId: transport.event_id,
    people,
    shares: people.map(() => cents),
    note,
  });
  await w.db
    .insertInto('transport_fares')
    .values(
      people.map((person, i) => ({
        transport_id: transport.id,
        attendee_id: person.attendeeId!,
        ledger_id: entries[i]!.id,
        charge_id: id,
        charged_at: w.now,
      })),
    )
    .execute();
  return { charged: people.length, totalCents };
}

/** The options whose departure has come and that charge then but have not yet (the fare job). */
async function dueOptions(db: Db, clubNow: string): Promise<TransportRow[]> {
  return db
    .selectFrom('transports as t')
    .innerJoin('events as e', 'e.id', 't.event_id')
    .selectAll('t')
    .where('t.deleted', '=', 0)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0)
    .where('t.charge_at_departure', '=', 1)
    .where('t.departure_charged_at', 'is', null)
    .where('t.departure_datetime', 'is not', null)
    .where('t.departure_datetime', '<=', clubNow)
    .execute();
}

/**
 * The fare job's run: charges each due option once (as the system, with an admin's rights), marking it
 * charged even when there was nobody to charge or no price, so a run after a restart charges nothing
 * twice; passengers added later are charged by hand.
 */
export async function chargeDueFares(w: WriteContext): Promise<number> {
  let charged = 0;
  for (const transport of await dueOptions(w.db, w.clubNow())) {
    try {
      charged += (await w.attempt(() => chargeFare(w, SYSTEM_ACTOR, transport))).charged;
    } catch (error) {
      // Nobody to charge, or no price: nothing is due at this departure any more.
      if (!(error instanceof DomainError)) throw error;
    }
    await w.db.updateTable('transports').set({ departure_charged_at: w.now }).where('id', '=', transport.id).execute();
  }
  return charged;
}

/** The earliest departure (ISO 8601 UTC) of an option that still charges then, or null. */
export async function nextFareDue(db: Db, timeZone: string): Promise<Date | null> {
  const row = await db
    .selectFrom('transports as t')
    .innerJoin('events as e', 'e.id', 't.event_id')
    .select((eb) => eb.fn.min('t.departure_datetime').as('next'))
    .where('t.deleted', '=', 0)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0)
    .where('t.charge_at_departure', '=', 1)
    .where('t.departure_charged_at', 'is', null)
    .where('t.departure_datetime', 'is not', null)
    .executeTakeFirst();
  const next = (row?.next as string | null | undefined) ?? null;
  return next === null ? null : clubTimeToInstant(next, timeZone);
}
