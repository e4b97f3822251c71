import type { Bool, Replicated } from '../../db/schema.js';

/** Club news an admin posts (migrations/011_announcements.ts); `event_id` null when it is about no event. */
export interface AnnouncementsTable extends Replicated {
  id: string;
  title: string;
  text: string;
  event_id: string | null;
  pinned: Bool;
  /** The admin who posted it. */
  created_by: string;
  created_at: string;
  updated_at: string;
}

declare module '../../db/schema.js' {
  interface Database {
    announcements: AnnouncementsTable;
  }
}
