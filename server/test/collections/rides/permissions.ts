import { expect } from 'vitest';
import { CREATED_SIGNED_IN, OWNER_OR_ADMIN, SIGNED_IN, type Fixtures, type RouteCase } from '../../permission-rows.js';

/* The rides' rows of the permission matrix (server/test/permission-matrix.ts collects them). */

const ride = { seats: 2, departure_location: 'Ostkreuz', departure_datetime: '2026-01-01 09:00' };

/** A ride the matrix's member offers to the matrix's event. */
async function membersRide(f: Fixtures): Promise<string> {
  const event = await f.t.call('GET', `/api/events/${f.eventId}`, { token: f.member.token });
  const res = await f.t.call('POST', `/api/events/${f.eventId}/rides`, {
    token: f.member.token,
    body: { ...ride, departure_datetime: event.body.event.date },
  });
  expect(res.status).toBe(201);
  return res.body.ride.id;
}

/** Only its driver changes a ride: an admin removes it but does not rewrite another member's offer. */
const DRIVER_ONLY = { anonymous: 401, member: 200, other: 403, admin: 403 };

export const permissionRows: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/events/{id}/rides',
    params: async (f) => ({ id: f.eventId, ride: await membersRide(f) }),
    expect: SIGNED_IN,
    after: async (_f, role, body, { params }) => {
      if (role !== 'anonymous') expect(body.rides.some((r: { id: string }) => r.id === params.ride)).toBe(true);
    },
  },
  {
    method: 'POST',
    path: '/api/events/{id}/rides',
    params: async (f) => {
      const event = await f.t.call('GET', `/api/events/${f.eventId}`, { token: f.member.token });
      return { id: f.eventId, date: event.body.event.date };
    },
    body: (_f, _role, params) => ({ ...ride, departure_datetime: params.date ?? ride.departure_datetime }),
    expect: CREATED_SIGNED_IN,
  },
  {
    method: 'PUT',
    path: '/api/rides/{id}',
    params: async (f) => ({ id: await membersRide(f) }),
    body: () => ({ seats: 3 }),
    expect: DRIVER_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/rides/{id}',
    params: async (f) => ({ id: await membersRide(f) }),
    expect: OWNER_OR_ADMIN,
  },
];
