import { defineCollectionModule } from '../module.js';
import { boardingRoutes } from './routes.js';
import { boardingsCollection } from './sync.js';

/** Boarding ticks of the bus: ticked by a transport option's captains and admins on the device or through REST; every member pulls them. */
export const boardings = defineCollectionModule({
  name: 'boardings',
  sync: boardingsCollection,
  routes: boardingRoutes,
});
