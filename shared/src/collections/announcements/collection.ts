import { nullableString, seqField, idField, type SyncedDoc } from '../../docs/common.js';
import { defineSyncCollection } from '../../docs/declaration.js';
import { defineCollection } from '../define.js';

/*
 * Club news as a collection in its own files (docs/architecture.md, Adding a synced collection): this
 * file declares what both sides need at run time (the document, its sync declaration, its message
 * codes, its limits); the REST input and answer schemas are schemas.ts and answers.ts beside it.
 */

/** The longest announcement title and text (docs/product.md, Limits and constants). */
export const ANNOUNCEMENT_TITLE_MAX_LENGTH = 120;
export const ANNOUNCEMENT_TEXT_MAX_LENGTH = 2000;

/** Club news an admin posts (docs/product.md, Data): shown on /events, pinned ones first. */
export interface AnnouncementDoc extends SyncedDoc {
  title: string;
  /** Several lines (`\n`). */
  text: string;
  /** The event it is about, or null; an announcement of an event goes when the event is deleted. */
  event_id: string | null;
  pinned: boolean;
  /** The admin who posted it. */
  created_by: string;
  created_at: string;
  updated_at: string;
}

export const announcementSchema = {
  title: 'announcements',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    title: { type: 'string' },
    text: { type: 'string' },
    event_id: nullableString,
    pinned: { type: 'boolean' },
    created_by: { type: 'string' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'title', 'text', 'pinned', 'created_by', 'created_at', 'updated_at', 'seq'],
} as const;

/** Every live announcement, for every member. Pull only (admins write them through REST). */
export const announcementsSync = defineSyncCollection<AnnouncementDoc>({
  name: 'announcements',
  schema: announcementSchema,
  // Shown above the events list: pulled with the events.
  priority: 0,
  partOfEvent: true,
  tombstone: {
    title: '',
    text: '',
    event_id: null,
    pinned: false,
    created_by: '',
    created_at: '',
    updated_at: '',
  },
});

/** The announcements' message codes (docs/product.md, Error texts), English as the server sends them. */
export const announcementMessages = {
  announcementNotFound: 'Announcement not found',
  announcementSaved: 'Announcement saved',
  announcementDeleted: 'Announcement deleted',
} as const;

export const announcementsDefinition = defineCollection('announcements', {
  declaration: announcementsSync,
  messages: announcementMessages,
});
