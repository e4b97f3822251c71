import { defineCollectionModule } from '../module.js';
import { announcementNotifications } from './notify.js';
import { announcementRoutes } from './routes.js';
import { announcementsCollection } from './sync.js';

/** Club news: admins post them through REST, every member pulls them. */
export const announcements = defineCollectionModule({
  name: 'announcements',
  sync: announcementsCollection,
  routes: announcementRoutes,
  notify: announcementNotifications,
});
