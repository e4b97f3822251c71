import { expect } from 'vitest';
import { ADMIN_ONLY, CREATED_ADMIN_ONLY, SIGNED_IN, unique, type Fixtures, type RouteCase } from '../../permission-rows.js';

/* The announcements' rows of the permission matrix (server/test/permission-matrix.ts collects them). */

async function adminsAnnouncement(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/announcements', {
    token: f.admin.token,
    body: { title: unique('News '), text: 'Treffpunkt 10 Uhr' },
  });
  expect(res.status).toBe(201);
  return res.body.announcement.id;
}

export const permissionRows: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/announcements',
    params: async (f) => ({ id: await adminsAnnouncement(f) }),
    expect: SIGNED_IN,
    after: async (_f, role, body, { params }) => {
      if (role !== 'anonymous') expect(body.announcements.some((a: { id: string }) => a.id === params.id)).toBe(true);
    },
  },
  {
    method: 'POST',
    path: '/api/announcements',
    body: (f) => ({ title: 'Matrix news', text: 'Bus at 10\nBring scarves', event_id: f.eventId, pinned: true }),
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/announcements/{id}',
    body: () => ({ title: unique('Renamed news '), pinned: true }),
    params: async (f) => ({ id: await adminsAnnouncement(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/announcements/{id}',
    params: async (f) => ({ id: await adminsAnnouncement(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
];
