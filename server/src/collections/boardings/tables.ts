import type { Bool, Replicated } from '../../db/schema.js';

/** Boarding ticks (migrations/033_boardings.ts): one per transport option and attendee row; `by_id` who ticked last. */
export interface BoardingsTable extends Replicated {
  id: string;
  event_id: string;
  transport_id: string;
  attendee_id: string;
  on_board: Bool;
  by_id: string;
  created_at: string;
  updated_at: string;
}

declare module '../../db/schema.js' {
  interface Database {
    boardings: BoardingsTable;
  }
}
