import { z } from 'zod';
import { messageAnswerWith, successAnswer, textOrNull } from '../../schemas/answers/common.js';

/* Answers of the announcement routes (server/src/collections/announcements/routes.ts). */

/** An announcement of the club's news; `event_id` names the event it is about, or is null. */
export const restAnnouncement = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    text: z.string(),
    event_id: textOrNull,
    pinned: z.boolean(),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Announcement' });
export type RestAnnouncement = z.infer<typeof restAnnouncement>;

/** GET /api/announcements: pinned first, then newest first. */
export const announcementsAnswer = successAnswer({ announcements: z.array(restAnnouncement) });
export type AnnouncementsAnswer = z.infer<typeof announcementsAnswer>;

/** POST (201) and PUT /api/announcements. */
export const announcementAnswer = messageAnswerWith({ announcement: restAnnouncement });
export type AnnouncementAnswer = z.infer<typeof announcementAnswer>;
