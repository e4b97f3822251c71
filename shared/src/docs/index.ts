import { attendeeSchema } from './attendees.js';
import { eventSchema } from './events.js';
import { memberSchema } from './members.js';
import { noticeSchema } from './notices.js';
import { transportSchema } from './transports.js';

export * from './common.js';
export * from './events.js';
export * from './attendees.js';
export * from './members.js';
export * from './notices.js';
export * from './transports.js';

/** Replicated collections and their schemas; the version is part of the sync path. */
export const SYNC_SCHEMAS = {
  events: eventSchema,
  attendees: attendeeSchema,
  members: memberSchema,
  notices: noticeSchema,
  transports: transportSchema,
} as const;

export type SyncCollectionName = keyof typeof SYNC_SCHEMAS;
export const SYNC_COLLECTIONS = Object.keys(SYNC_SCHEMAS) as SyncCollectionName[];
