import type { AnnouncementDoc, EventDoc } from '@fankurve/shared';
import { combineLatest, map, type Observable } from 'rxjs';
import { listedEvents } from '../../data/collections/events.js';
import type { DocStore } from '../../data/docStore.js';
import { useStoreQuery } from '../../data/query.js';

/** An announcement as the screen shows it: with the event it names, while that event is on the device and listed. */
export interface AnnouncementView extends AnnouncementDoc {
  event: Pick<EventDoc, 'id' | 'title' | 'date'> | null;
}

/** Pinned first, then newest first (docs/product.md, Screens). */
export const announcementOrder = (a: AnnouncementDoc, b: AnnouncementDoc): number =>
  Number(b.pinned) - Number(a.pinned) || b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** Every announcement on the device, in the order of the screen, with its event's title and date. */
export function announcements$(docs: DocStore): Observable<AnnouncementView[]> {
  return combineLatest([docs.all('announcements'), listedEvents(docs)]).pipe(
    map(([announcements, events]) => {
      const byId = new Map(events.map((event) => [event.id, event]));
      return [...announcements].sort(announcementOrder).map((announcement) => {
        const event = announcement.event_id ? byId.get(announcement.event_id) : undefined;
        return { ...announcement, event: event ? { id: event.id, title: event.title, date: event.date } : null };
      });
    }),
  );
}

export function useAnnouncements(): AnnouncementView[] | undefined {
  return useStoreQuery((docs) => announcements$(docs), []);
}
