import type { Language } from '@fankurve/shared';
import type { NotifyHandlers } from '../../notify/handlers.js';
import { eventPath, excerpt, type PushText } from '../../notify/texts.js';
import './events.js';

/** Club news: a new announcement (topic `news`), opening the list of news or its event. */
export function announcementText(
  language: Language,
  announcement: { title: string; text: string; eventId: string | null },
): PushText {
  return {
    title: language === 'de' ? `Neuigkeit: ${announcement.title}` : `News: ${announcement.title}`,
    body: excerpt(announcement.text),
    path: announcement.eventId ? eventPath(announcement.eventId) : '/events',
  };
}

/** Club news reaches every member but the admin who posted it (docs/architecture.md, "Web Push"). */
export const announcementNotifications: NotifyHandlers = {
  async 'announcement.created'(event, { db, subscribers, add }) {
    const row = await db
      .selectFrom('announcements')
      .select(['title', 'text', 'event_id'])
      .where('id', '=', event.announcementId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!row) return;
    const news = { title: row.title, text: row.text, eventId: row.event_id };
    for (const subscriber of subscribers()) {
      add(subscriber.userId, event.actorId, {
        key: `news:${event.announcementId}`,
        rank: 1,
        topic: 'news',
        text: (l) => announcementText(l, news),
      });
    }
  },
};
