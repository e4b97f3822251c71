import { newId } from '@fankurve/shared';
import type { CreateAnnouncementInput, UpdateAnnouncementInput } from '@fankurve/shared/collections/announcements/schemas';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toInt, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../../domain/actor.js';
import { requireLiveEvent } from '../../domain/attendance/attendance.js';
import { badInput, notFound } from '../../domain/errors.js';
import './events.js';
import type { AnnouncementsTable } from './tables.js';

/*
 * Announcements, the club's news (docs/product.md, Roles and permissions): admins write them, every
 * member reads them (REST and the announcements sync collection). Length and free-text rules are the
 * REST schema's (shared/src/collections/announcements/schemas.ts), as only REST writes them; the domain keeps
 * both texts required and the event live.
 */

export type AnnouncementRow = Selectable<AnnouncementsTable>;

const required = (value: string, code: 'titleRequired' | 'invalidInput') => {
  const trimmed = value.trim();
  if (!trimmed) throw badInput(code);
  return trimmed;
};

/** The event an announcement names: a live one (404 'Event not found'), or none. */
async function eventOf(db: Kysely<Database>, eventId: string | null | undefined): Promise<string | null> {
  if (eventId === null || eventId === undefined) return null;
  await requireLiveEvent(db, eventId);
  return eventId;
}

export async function findLiveAnnouncement(db: Kysely<Database>, id: string): Promise<AnnouncementRow> {
  const row = await db.selectFrom('announcements').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
  if (!row) throw notFound('announcementNotFound');
  return row;
}

/** Every live announcement, pinned first, then newest first. */
export async function listAnnouncements(db: Kysely<Database>): Promise<AnnouncementRow[]> {
  return db
    .selectFrom('announcements')
    .selectAll()
    .where('deleted', '=', 0)
    .orderBy('pinned', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function createAnnouncement(
  w: WriteContext,
  actor: Actor,
  input: CreateAnnouncementInput,
): Promise<AnnouncementRow> {
  requireAdmin(actor);
  const title = required(input.title, 'titleRequired');
  const text = required(input.text, 'invalidInput');
  const eventId = await eventOf(w.db, input.event_id);
  const row: AnnouncementRow = {
    id: newId(),
    title,
    text,
    event_id: eventId,
    pinned: toInt(input.pinned ?? false),
    created_by: actor.id,
    created_at: w.now,
    updated_at: w.now,
    seq: await w.nextSeq('announcements'),
    deleted: 0,
  };
  await w.db.insertInto('announcements').values(row).execute();
  w.record({ type: 'announcement.created', announcementId: row.id, eventId, pinned: input.pinned ?? false, actorId: actor.id });
  return row;
}

/** Changes any of the fields; nothing changed takes no seq and records nothing. */
export async function updateAnnouncement(
  w: WriteContext,
  actor: Actor,
  id: string,
  input: UpdateAnnouncementInput,
): Promise<AnnouncementRow> {
  requireAdmin(actor);
  const current = await findLiveAnnouncement(w.db, id);
  const fields = {
    ...(input.title !== undefined ? { title: required(input.title, 'titleRequired') } : {}),
    ...(input.text !== undefined ? { text: required(input.text, 'invalidInput') } : {}),
    ...(input.event_id !== undefined ? { event_id: await eventOf(w.db, input.event_id) } : {}),
    ...(input.pinned !== undefined ? { pinned: toInt(input.pinned) } : {}),
  };
  const changed = (Object.keys(fields) as (keyof typeof fields)[]).filter((key) => fields[key] !== current[key]);
  if (changed.length === 0) return current;
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('announcements') };
  await w.db.updateTable('announcements').set(update).where('id', '=', id).execute();
  const row = { ...current, ...update };
  w.record({ type: 'announcement.changed', announcementId: id, eventId: row.event_id, fields: changed, actorId: actor.id });
  return row;
}

/** Removes an announcement (a tombstone, so every device drops it). */
export async function deleteAnnouncement(w: WriteContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  const current = await findLiveAnnouncement(w.db, id);
  await w.db
    .updateTable('announcements')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('announcements') })
    .where('id', '=', current.id)
    .execute();
  w.record({ type: 'announcement.deleted', announcementId: id, eventId: current.event_id, actorId: actor.id });
}
