import type { Bool, Replicated } from '../../db/schema.js';

/** Rides members offer (migrations/022_rides.ts); a cancelled or removed ride is a tombstone. */
export interface RidesTable extends Replicated {
  id: string;
  event_id: string;
  driver_id: string;
  seats: number;
  departure_location: string;
  departure_datetime: string;
  drives_back: Bool;
  note: string | null;
  cost_share_cents: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../../db/schema.js' {
  interface Database {
    rides: RidesTable;
  }
}
