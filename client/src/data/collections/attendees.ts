import {
  checkGuestName,
  checkMemberMayDrop,
  checkNewAttendance,
  hasUnpaidDebts,
  isBeforePayBy,
  mergeAttendanceAnswer,
  newGuestAttendeeDoc,
  newId,
  newMemberAttendeeDoc,
  transferStatusAfterAnswer,
  type AnswerFields,
  type AttendanceStatus,
  type AttendeeDoc,
} from '@fankurve/shared';
import type { RxDocument } from 'rxdb';
import { asyncScheduler, combineLatest, map, of, throttleTime, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import type { DocStore } from '../docStore.js';
import { enforce, type Device } from '../device.js';
import { plainDocs, useQuery } from '../query.js';

/*
 * Attendance on the device (offline too): the member's own rows and the guests they bring. Each
 * write checks the shared rules for instant feedback, changes the document, and the replication
 * pushes it; the server applies the same rules again.
 */

/** How often the list of every attendee row (the events list's counts) is handed to the screen at most. */
const ALL_ROWS_THROTTLE_MS = 250;

const throttled = <T>() => throttleTime<T>(ALL_ROWS_THROTTLE_MS, asyncScheduler, { leading: true, trailing: true });

/**
 * The attendee rows of the given events (none: all) on the device: its own and its guests' (RxDB,
 * what it pushes) and the other members' (the document store; docs/architecture.md, Client data
 * layer), by id.
 */
export function rowsOfEvents$(db: FankurveDatabase, docs: DocStore, eventIds?: readonly string[]): Observable<AttendeeDoc[]> {
  const ids = eventIds && [...eventIds];
  const own$ = db.attendees.find(ids ? { selector: { event_id: { $in: ids } } } : {}).$.pipe(plainDocs<AttendeeDoc>());
  const others$ = docs.has('attendees') ? docs.live(() => docs.rowsOfEvents('attendees', ids)) : of([]);
  return combineLatest([own$, others$]).pipe(
    map(([own, others]) => {
      if (others.length === 0) return own;
      const byId = new Map(others.map((row) => [row.id, row]));
      for (const row of own) byId.set(row.id, row);
      return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }),
  );
}

/**
 * The attendee rows of one event, or of all events. All rows are thousands of documents: while a
 * first sync writes them in batches, the screen gets them at most every 250 ms, not once per batch;
 * a screen may hold the query back (`enabled: false`) until what it shows first has loaded.
 */
export function useAttendees(eventId?: string, { enabled = true }: { enabled?: boolean } = {}): AttendeeDoc[] | undefined {
  return useQuery(
    (db, docs) => {
      if (!enabled) return null;
      if (eventId) return rowsOfEvents$(db, docs, [eventId]);
      return rowsOfEvents$(db, docs).pipe(throttled());
    },
    [eventId, enabled],
  );
}

/**
 * The attendee rows of the given events (the events list's shown events), at most every 250 ms like
 * all rows. Reads only those events' records, so a season's list does not turn every row of five
 * seasons into documents on the main thread (docs/architecture.md, Client data layer). undefined
 * while `eventIds` is.
 */
export function useAttendeesOfEvents(eventIds: readonly string[] | undefined): AttendeeDoc[] | undefined {
  const key = eventIds?.join(',');
  return useQuery(
    (db, docs) => {
      if (!eventIds) return null;
      if (eventIds.length === 0) return of([]);
      return rowsOfEvents$(db, docs, eventIds).pipe(throttled());
    },
    [key],
  );
}

function findOwn(db: FankurveDatabase, eventId: string, userId: string) {
  return db.attendees.findOne({ selector: { event_id: eventId, user_id: userId } }).exec();
}

/**
 * The title of an event on the device: a first answer's defaults follow it (`firstAnswerDefaults`:
 * a match needs a ticket, an away match a seat). An event the device does not hold counts as no match.
 */
async function eventTitle(docs: DocStore, eventId: string): Promise<string> {
  // A store opened with only some collections (a test's device) may lack events.
  if (!docs.has('events')) return '';
  return (await docs.table('events').get(eventId))?.title ?? '';
}

/**
 * The debt block on the device's copy: a bought, unpaid ticket of the member or of a guest they
 * brought, unless it is a contingent's ticket still inside its payment days (`pay_by`, set by the
 * server), by the same shared rule as the server's.
 */
async function owesTickets(db: FankurveDatabase, userId: string): Promise<boolean> {
  const bought = await db.attendees.find({ selector: { bought: true, paid: false } }).exec();
  const now = new Date().toISOString();
  return hasUnpaidDebts(
    bought.map((doc) => doc.toJSON() as AttendeeDoc),
    userId,
    (row) => isBeforePayBy(row.pay_by, now),
  );
}

/** The answer fields after a change, by the shared rule (needs/has ticket exclusive, seat outstanding when needed again). */
function answerPatch(doc: RxDocument<AttendeeDoc>, change: Partial<AnswerFields> & { status?: AttendanceStatus }) {
  const answer = enforce(mergeAttendanceAnswer(doc, { ...change, status: change.status ?? doc.status }));
  return { ...answer, transfer_status: transferStatusAfterAnswer(doc.transfer_status, answer.needs_transport) };
}

/**
 * Sets, changes or (null) removes the member's own attendance; first-time attendance takes the
 * defaults of docs/product.md, Attendance and guests. Taking up a new attendance is refused while the member owes a ticket; a
 * bought ticket cannot be dropped by the member.
 */
export async function setOwnAttendance(
  { db, docs, outbox }: Device,
  eventId: string,
  userId: string,
  status: AttendanceStatus | null,
): Promise<void> {
  await writeOwnRow(db, eventId, userId, async (existing) => {
    if (status === null) {
      if (!existing) return null;
      enforce(checkMemberMayDrop(existing));
      outbox.add(existing.id);
      await existing.incrementalRemove();
      return null;
    }
    if (existing) return patchIfChanged(outbox, existing, { status });
    enforce(checkNewAttendance(await owesTickets(db, userId)));
    const doc = newMemberAttendeeDoc(
      { id: newId(), event_id: eventId, user_id: userId, status, created_at: new Date().toISOString() },
      await eventTitle(docs, eventId),
    );
    outbox.add(doc.id);
    await db.attendees.insert(doc);
    return null;
  });
}

/** How often a write of the member's own row is tried on the row found afresh (`writeOwnRow`). */
const OWN_ROW_ATTEMPTS = 3;

/**
 * Runs a change of the member's own row, and again on the row found afresh when the row it changed
 * was deleted before the change landed: the answer to a push can merge a second creation of the
 * member's attendance into the server's row (docs/architecture.md, sync: push) and delete it on the
 * device, and a change written onto that tombstone would be lost.
 */
async function writeOwnRow(
  db: FankurveDatabase,
  eventId: string,
  userId: string,
  write: (existing: RxDocument<AttendeeDoc> | null) => Promise<RxDocument<AttendeeDoc> | null>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const written = await write(await findOwn(db, eventId, userId));
    if (!written?.deleted || attempt === OWN_ROW_ATTEMPTS) return;
  }
}

/**
 * Writes a patch to a document and counts it as waiting for the server, unless it changes nothing
 * (RxDB writes nothing then, so no push would ever take it out of the outbox). Answers the document
 * as written, null when nothing was written.
 */
async function patchIfChanged(
  outbox: Device['outbox'],
  doc: RxDocument<AttendeeDoc>,
  patch: Partial<AttendeeDoc>,
): Promise<RxDocument<AttendeeDoc> | null> {
  // Only the fields that change: a field written unchanged would overwrite what the server's answer
  // to a push set on it meanwhile, and count as the device's change (docs/architecture.md, sync: push).
  const changed = (Object.keys(patch) as (keyof AttendeeDoc)[]).filter((key) => patch[key] !== doc.get(key));
  if (changed.length === 0) return null;
  outbox.add(doc.id);
  return doc.incrementalPatch(Object.fromEntries(changed.map((key) => [key, patch[key]])) as Partial<AttendeeDoc>);
}

/** Changes the member's own answers (needs ticket, has ticket, needs transport) on an existing attendance. */
export async function updateOwnAnswer({ db, outbox }: Device, eventId: string, userId: string, change: Partial<AnswerFields>): Promise<void> {
  await writeOwnRow(db, eventId, userId, async (existing) =>
    existing ? patchIfChanged(outbox, existing, answerPatch(existing, change)) : null,
  );
}

/** A guest the member brings (going, with the event's first-time answers); the debt block applies as to the member. */
export async function addGuest({ db, docs, outbox }: Device, eventId: string, userId: string, guestName: string): Promise<string> {
  const name = enforce(checkGuestName(guestName));
  enforce(checkNewAttendance(await owesTickets(db, userId)));
  const doc = newGuestAttendeeDoc(
    { id: newId(), event_id: eventId, guest_name: name, brought_by: userId, created_at: new Date().toISOString() },
    await eventTitle(docs, eventId),
  );
  outbox.add(doc.id);
  await db.attendees.insert(doc);
  return doc.id;
}

export interface GuestChange extends Partial<AnswerFields> {
  guest_name?: string;
  status?: AttendanceStatus;
}

/** Changes a guest's name or answers; the server accepts it from the member who brought the guest (or an admin). */
export async function updateGuest({ db, outbox }: Device, guestId: string, change: GuestChange): Promise<void> {
  const guest = await db.attendees.findOne(guestId).exec();
  if (!guest) return;
  const { guest_name, ...answers } = change;
  const name = guest_name === undefined ? {} : { guest_name: enforce(checkGuestName(guest_name)) };
  await patchIfChanged(outbox, guest, { ...name, ...answerPatch(guest, answers) });
}

/** Removes a guest (not coming). A bought ticket stays until an admin removes it. */
export async function removeGuest({ db, outbox }: Device, guestId: string): Promise<void> {
  const guest = await db.attendees.findOne(guestId).exec();
  if (!guest) return;
  enforce(checkMemberMayDrop(guest));
  outbox.add(guest.id);
  await guest.incrementalRemove();
}

/** The writes screens make, on the device (bound to it by data/index.ts). */
export const writes = { setOwnAttendance, updateOwnAnswer, addGuest, updateGuest, removeGuest };
