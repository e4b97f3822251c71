import { defineCollectionModule } from '../module.js';
import { followRideSeats } from './domain.js';
import { rideNotifications } from './notify.js';
import { rideRoutes } from './routes.js';
import { rideSeatsCollection, ridesCollection } from './sync.js';

/** Rides members offer to an event: offered, changed and cancelled on the device or through REST; every member pulls them. */
export const rides = defineCollectionModule({
  name: 'rides',
  sync: ridesCollection,
  routes: rideRoutes,
  notify: rideNotifications,
  beforeCommit: followRideSeats,
});

/**
 * The seats members ask for in rides (docs/architecture.md, Seats in rides): pulled per actor, asked,
 * answered and cancelled on the device or through REST (the rides' routes serve them too).
 */
export const rideSeats = defineCollectionModule({
  name: 'ride_seats',
  sync: rideSeatsCollection,
});
