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
  /** The seats its asks hold (migrations/031_ride_seats.ts), kept by `followRideSeats` (domain.ts). */
  seats_taken: number;
  created_at: string;
  updated_at: string;
}

/** Members' requests for seats in rides (migrations/031_ride_seats.ts); a cancelled one is a tombstone. */
export interface RideSeatsTable extends Replicated {
  id: string;
  ride_id: string;
  event_id: string;
  passenger_id: string;
  seats: number;
  note: string | null;
  state: 'asked' | 'accepted' | 'declined';
  created_at: string;
  updated_at: string;
}

declare module '../../db/schema.js' {
  interface Database {
    rides: RidesTable;
    ride_seats: RideSeatsTable;
  }
}
