import { defineCollectionModule } from '../module.js';
import { rideRoutes } from './routes.js';
import { ridesCollection } from './sync.js';

/** Rides members offer to an event: offered, changed and cancelled on the device or through REST; every member pulls them. */
export const rides = defineCollectionModule({
  name: 'rides',
  sync: ridesCollection,
  routes: rideRoutes,
});
