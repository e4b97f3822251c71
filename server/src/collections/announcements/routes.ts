import { messageAnswer } from '@fankurve/shared';
import { announcementMessages } from '@fankurve/shared/collections/announcements/collection';
import { announcementAnswer, announcementsAnswer } from '@fankurve/shared/collections/announcements/answers';
import { createAnnouncementInput, updateAnnouncementInput } from '@fankurve/shared/collections/announcements/schemas';
import { toBool, write } from '../../db/store.js';
import type { Api, AppDeps } from '../../http/context.js';
import { apiRoute, idParams } from '../../http/openapi.js';
import { requireActor } from '../../http/session.js';
import { createAnnouncement, deleteAnnouncement, listAnnouncements, updateAnnouncement, type AnnouncementRow } from './domain.js';

const tag = 'Announcements';

/** The REST shape of an announcement (`restAnnouncement`): pinned as a boolean, no seq or tombstone flag. */
export function toRestAnnouncement(row: AnnouncementRow) {
  const { deleted: _deleted, seq: _seq, ...rest } = row;
  return { ...rest, pinned: toBool(row.pinned) };
}

/** Announcements: every signed-in user reads them, admins write them. */
export function announcementRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/announcements',
      tag,
      summary: 'The club news, pinned first, then newest first',
      answers: { 200: announcementsAnswer },
    }),
    async (c) => {
      requireActor(c);
      const rows = await listAnnouncements(deps.store.db);
      return c.json({ success: true as const, announcements: rows.map(toRestAnnouncement) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/announcements',
      tag,
      summary: 'Post an announcement (admin)',
      body: createAnnouncementInput,
      answers: { 201: announcementAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => createAnnouncement(w, actor, c.req.valid('json')));
      return c.json(
        { success: true as const, message: announcementMessages.announcementSaved, announcement: toRestAnnouncement(row) },
        201,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/announcements/{id}',
      tag,
      summary: 'Change an announcement (admin)',
      params: idParams,
      body: updateAnnouncementInput,
      answers: { 200: announcementAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => updateAnnouncement(w, actor, c.req.valid('param').id, c.req.valid('json')));
      return c.json(
        { success: true as const, message: announcementMessages.announcementSaved, announcement: toRestAnnouncement(row) },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/announcements/{id}',
      tag,
      summary: 'Delete an announcement (admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => deleteAnnouncement(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: announcementMessages.announcementDeleted }, 200);
    },
  );
}
