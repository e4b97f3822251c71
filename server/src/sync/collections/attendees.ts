import { attendeesSync, keptOnDeviceSince, payByOf, type AttendeeDoc, type PullScope } from '@fankurve/shared';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { AttendeeRow, Database } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import { applyAttendeeChange, describeAttendeeChange } from '../../domain/attendance/attendeeChange.js';
import { attendeeFieldsOf } from '../../domain/attendance/attendeeRows.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

/** An attendee row with what its pay-by time is made of: its request's allocation and the contingent's payment days. */
type AttendeeRowWithPayBy = AttendeeRow & { allocated_at?: string | null; payment_days?: number | string | null };

/** Attendee rows with their request's allocation time and their contingent's payment days (`pay_by`). */
function attendeeRows(db: Kysely<Database>) {
  return db
    .selectFrom('attendees as a')
    .leftJoin('ticket_requests as r', 'r.attendee_id', 'a.id')
    .leftJoin('contingents as c', 'c.event_id', 'a.event_id')
    .selectAll('a')
    .select(['r.allocated_at', 'c.payment_days']);
}

/**
 * The rows a member pushes: their own and the guests they brought (`ownerOf` of the declaration:
 * the member, else whoever brought the guest). A split pull's `own` scope; `others` are the rows of
 * the kept events, the device's own among them, and an older event's rows but the actor's own.
 */
function ownRow(eb: RowExpressions, userId: string) {
  return eb.or([eb('a.user_id', '=', userId), eb.and([eb('a.user_id', 'is', null), eb('a.brought_by', '=', userId)])]);
}

/** The complement of `ownRow`, never NULL (a NOT over a comparison with NULL would drop a guest row). */
function othersRow(eb: RowExpressions, userId: string) {
  return eb(eb.fn.coalesce('a.user_id', 'a.brought_by', eb.val('')), '!=', userId);
}

type RowExpressions = ExpressionBuilder<Database & { a: AttendeeRow }, 'a'>;

export function toAttendeeDoc(row: AttendeeRowWithPayBy): MasterDocument<AttendeeDoc> {
  return {
    ...attendeeFieldsOf(row),
    pay_by: payByOf(
      row.allocated_at ?? null,
      row.payment_days === null || row.payment_days === undefined ? null : Number(row.payment_days),
    ),
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  };
}

/**
 * Every attendance row of the events a device keeps, and the actor's own rows and their guests' of
 * any event (their tickets and debts); the rest of an event's rows when the device asks for it
 * (docs/architecture.md, What a device keeps). Members push their own rows and their guests'; the
 * merge is by field, so an admin's ticket change and a member's offline answer are both kept, and
 * two devices of one member that change different fields both keep their change.
 */
/**
 * Which rows a query reads: what an actor's pull in a scope answers, the rows of the kept events
 * (the shared list), or the actor's own rows of older events (`all` beside the list).
 */
type Which = { pull: PullScope; userId: string } | 'kept' | { olderOwn: string };

/** Attendee rows after `afterSeq`, ascending by seq, at most `limit`, of `which`. */
async function rowsOf(
  db: Kysely<Database>,
  which: Which,
  afterSeq: number,
  limit: number,
  today: string,
): Promise<MasterDocument<AttendeeDoc>[]> {
  const since = keptOnDeviceSince(today);
  const rows = await attendeeRows(db)
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .where('a.seq', '>', afterSeq)
    .where((eb) => {
      const kept = eb('e.date', '>=', since);
      if (which === 'kept') return kept;
      if ('olderOwn' in which)
        return eb.and([
          eb('e.date', '<', since),
          eb.or([eb('a.user_id', '=', which.olderOwn), eb('a.brought_by', '=', which.olderOwn)]),
        ]);
      if (which.pull === 'own') return ownRow(eb, which.userId);
      if (which.pull === 'others') return kept;
      return eb.or([kept, eb('a.user_id', '=', which.userId), eb('a.brought_by', '=', which.userId)]);
    })
    .orderBy('a.seq')
    .limit(limit)
    .execute();
  return rows.map(toAttendeeDoc);
}

/** Changed rows read at most for one change batch; beyond, every device pulls its own part. */
const OWNERS_READ_MAX = 5000;

/** The owners of the rows changed after `afterSeq` (a row's member, else whoever brought the guest). */
async function rowOwnersSince(
  db: Kysely<Database>,
  afterSeq: number | null,
): Promise<{ owners: ReadonlySet<string> | null; seq: number }> {
  const highest = async () =>
    Number(
      (
        await db
          .selectFrom('attendees')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirst()
      )?.seq ?? 0,
    );
  if (afterSeq === null) return { owners: null, seq: await highest() };
  const rows = await db
    .selectFrom('attendees')
    .select(['user_id', 'brought_by', 'seq'])
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(OWNERS_READ_MAX + 1)
    .execute();
  if (rows.length > OWNERS_READ_MAX) return { owners: null, seq: await highest() };
  const owners = new Set(rows.map((row) => row.user_id ?? row.brought_by).filter((owner) => owner !== null));
  return { owners, seq: rows.length > 0 ? Number(rows.at(-1)!.seq) : afterSeq };
}

/**
 * Every attendance row of the events a device keeps, and the actor's own rows and their guests' of
 * any event (their tickets and debts); the rest of an event's rows when the device asks for it
 * (docs/architecture.md, What a device keeps). Members push their own rows and their guests'; the
 * merge is by field, so an admin's ticket change and a member's offline answer are both kept, and
 * two devices of one member that change different fields both keep their change. The rows of the
 * kept events are one shared list for everyone: the `others` scope is that list (the device's
 * document store drops its own rows, which RxDB holds), `all` adds the actor's rows of older events.
 */
export const attendeesCollection = defineServerCollection<AttendeeDoc>({
  declaration: attendeesSync,
  pull: (db, actor, afterSeq, limit, { today, scope }) => rowsOf(db, { pull: scope, userId: actor.id }, afterSeq, limit, today),
  shared: {
    variantOf: (_actor, scope) => (scope === 'own' ? null : 'kept'),
    pull: (db, _variant, afterSeq, limit, { today }) => rowsOf(db, 'kept', afterSeq, limit, today),
    extraIn: ['all'],
    extra: async (db, actor, afterSeq, limit, { today, scope }) =>
      scope === 'all' ? rowsOf(db, { olderOwn: actor.id }, afterSeq, limit, today) : [],
  },
  ownersSince: rowOwnersSince,
  async pullEvent(db, actor, eventId, scope) {
    const rows = await attendeeRows(db)
      .where('a.event_id', '=', eventId)
      .$if(scope === 'own', (query) => query.where((eb) => ownRow(eb, actor.id)))
      .$if(scope === 'others', (query) => query.where((eb) => othersRow(eb, actor.id)))
      .orderBy('a.seq')
      .execute();
    return rows.map(toAttendeeDoc);
  },
  push: {
    async find(db, _actor, id) {
      const row = await attendeeRows(db).where('a.id', '=', id).executeTakeFirst();
      return row ? toAttendeeDoc(row) : undefined;
    },
    apply: applyAttendeeChange,
    describe: describeAttendeeChange,
  },
});
