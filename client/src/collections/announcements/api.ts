import type { MessageAnswer } from '@fankurve/shared';
import type { AnnouncementAnswer } from '@fankurve/shared/collections/announcements/answers';
import type { CreateAnnouncementInput, UpdateAnnouncementInput } from '@fankurve/shared/collections/announcements/schemas';
import { api } from '../../api/client.js';

/*
 * Announcements: the admin's writes, online REST only (the list reaches every device through the
 * announcements sync collection). The answer types are the server's (shared/src/collections/announcements/answers.ts).
 */

const id = (value: string) => encodeURIComponent(value);

export const createAnnouncement = (body: CreateAnnouncementInput) =>
  api<AnnouncementAnswer>('/api/announcements', { method: 'POST', body });

export const updateAnnouncement = (announcementId: string, body: UpdateAnnouncementInput) =>
  api<AnnouncementAnswer>(`/api/announcements/${id(announcementId)}`, { method: 'PUT', body });

export const deleteAnnouncement = (announcementId: string) =>
  api<MessageAnswer>(`/api/announcements/${id(announcementId)}`, { method: 'DELETE' });
