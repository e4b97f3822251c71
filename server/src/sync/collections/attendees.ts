import { MEMBER_OWNED_ATTENDEE_FIELDS, type AttendeeDoc } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { AttendeeRow, Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import type { Actor } from '../../domain/actor.js';
import { removeOwnAttendance, setOwnAttendance } from '../../domain/attendance.js';
import { DomainError, forbidden } from '../../domain/errors.js';
import { addGuest, removeGuest, updateGuest } from '../../domain/guests.js';
import { addNotice } from '../../domain/notices.js';
import { sameDocument, type SyncCollection } from '../collection.js';
import type { PushedDocument, PushRow, SyncDocument } from '../protocol.js';

export function toAttendeeDoc(row: AttendeeRow): SyncDocument {
  const doc: AttendeeDoc = {
    id: row.id,
    event_id: row.event_id,
    user_id: row.user_id,
    guest_name: row.guest_name,
    brought_by: row.brought_by,
    status: row.status,
    needs_ticket: toBool(row.needs_ticket),
    has_ticket: toBool(row.has_ticket),
    needs_transport: toBool(row.needs_transport),
    transfer_status: row.transfer_status,
    paid_by: row.paid_by,
    ticket_price_id: row.ticket_price_id,
    ticket_type: row.ticket_type,
    price_cents: row.price_cents === null ? null : Number(row.price_cents),
    is_free: toBool(row.is_free),
    is_price_tbd: toBool(row.is_price_tbd),
    bought: toBool(row.bought),
    paid: toBool(row.paid),
    received: toBool(row.received),
    paid_requested: toBool(row.paid_requested),
    received_requested: toBool(row.received_requested),
    created_at: row.created_at,
    seq: Number(row.seq),
  };
  return { ...doc, _deleted: toBool(row.deleted) };
}

const findById = (db: Kysely<Database>, id: string) =>
  db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirst();

/** Only the member-owned fields of a pushed document are read; admin-owned fields never come from a push. */
function memberChange(doc: PushedDocument) {
  const fields = Object.fromEntries(MEMBER_OWNED_ATTENDEE_FIELDS.map((field) => [field, doc[field]]));
  const flag = (value: unknown) => (typeof value === 'boolean' ? value : undefined);
  if (fields.status !== 'going' && fields.status !== 'maybe') throw new DomainError('invalidInput', 400);
  return {
    status: fields.status,
    needs_ticket: flag(fields.needs_ticket),
    has_ticket: flag(fields.has_ticket),
    needs_transport: flag(fields.needs_transport),
    paid_requested: flag(fields.paid_requested),
    received_requested: flag(fields.received_requested),
  } as const;
}

/** The guest fields a member may change on a guest they brought. */
function guestChange(doc: PushedDocument) {
  const { status, ...answers } = memberChange(doc);
  const name = typeof doc.guest_name === 'string' ? doc.guest_name : undefined;
  return {
    guest_name: name,
    status,
    needs_ticket: answers.needs_ticket,
    has_ticket: answers.has_ticket,
    needs_transport: answers.needs_transport,
  };
}

/** A guest row: the member who brought the guest (or an admin) adds, changes and removes it, offline too. */
async function applyGuestRow(w: WriteContext, actor: Actor, doc: PushedDocument, master: AttendeeRow | undefined): Promise<void> {
  if (doc._deleted) {
    if (master && !toBool(master.deleted)) await removeGuest(w, actor, master.id);
    return;
  }
  if (master && !toBool(master.deleted)) {
    await updateGuest(w, actor, master.id, guestChange(doc));
    return;
  }
  const { guest_name, ...answers } = guestChange(doc);
  if (typeof doc.event_id !== 'string') throw new DomainError('invalidInput', 400);
  const broughtBy = typeof doc.brought_by === 'string' ? doc.brought_by : undefined;
  await addGuest(w, actor, { event_id: doc.event_id, guest_name: guest_name ?? '', ...answers, brought_by: broughtBy }, doc.id);
}

/**
 * Applies one pushed attendee row through the same domain functions as the REST routes: the member's
 * own row (`_deleted` = not going) or a guest they brought. Other users' rows are refused (admins
 * edit those through REST).
 */
async function applyRow(w: WriteContext, actor: Actor, doc: PushedDocument, master: AttendeeRow | undefined): Promise<void> {
  const isGuest = master ? master.user_id === null : doc.user_id === null || doc.user_id === undefined;
  if (isGuest) return applyGuestRow(w, actor, doc, master);
  const owner = master ? master.user_id : doc.user_id;
  if (owner !== actor.id) throw forbidden();
  if (doc._deleted) {
    if (master && !toBool(master.deleted)) await removeOwnAttendance(w, actor, master.event_id);
    return;
  }
  const eventId = master ? master.event_id : doc.event_id;
  if (typeof eventId !== 'string') throw new DomainError('invalidInput', 400);
  await setOwnAttendance(w, actor, eventId, memberChange(doc), doc.id);
}

/**
 * Every attendance row of every event. Members push their own rows; the merge is by field
 * ownership, so an admin's ticket change and a member's offline answer are both kept. A refused
 * row gets the master back as a conflict and a notice tells the member why.
 */
export const attendeesCollection: SyncCollection = {
  name: 'attendees',
  version: 0,
  async pull(db, _actor, afterSeq, limit) {
    const rows = await db.selectFrom('attendees').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
    return rows.map(toAttendeeDoc);
  },
  async push(w, actor, rows: PushRow[]) {
    const conflicts: SyncDocument[] = [];
    for (const { newDocumentState: doc } of rows) {
      const before = await findById(w.db, doc.id);
      // A device re-sending a row exactly as the server has it (a retry, or a replication restart)
      // changes nothing: no permission question arises and no notice is due.
      if (before && sameDocument(toAttendeeDoc(before), { ...doc, _deleted: doc._deleted ?? false })) continue;
      try {
        await applyRow(w, actor, doc, before);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        await addNotice(w, actor.id, error.code);
      }
      const after = await findById(w.db, doc.id);
      const master = after ? toAttendeeDoc(after) : ({ ...doc, _deleted: true } as SyncDocument);
      if (!sameDocument(master, { ...doc, _deleted: doc._deleted ?? false })) conflicts.push(master);
    }
    return conflicts;
  },
};
