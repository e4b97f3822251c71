import { expect } from 'vitest';
import { CREATED_SIGNED_IN, OWNER_OR_ADMIN, unique, type Fixtures, type RouteCase } from '../../permission-rows.js';

/*
 * The seat requests' rows of the permission matrix (server/test/permission-matrix.ts collects them):
 * the matrix's member is the driver where the driver answers, and the passenger where the passenger
 * cancels; ride_seats.test.ts checks the driver's refusals beside them.
 */

/** A ride offered to the matrix's event by `driver` (a fresh member when none is given). */
async function rideBy(f: Fixtures, driver?: { token: string }): Promise<string> {
  const by = driver ?? (await f.t.member(unique('seat-matrix-driver')));
  const event = await f.t.call('GET', `/api/events/${f.eventId}`, { token: by.token });
  const res = await f.t.call('POST', `/api/events/${f.eventId}/rides`, {
    token: by.token,
    body: { seats: 3, departure_location: 'Ostkreuz', departure_datetime: event.body.event.date },
  });
  expect(res.status).toBe(201);
  return res.body.ride.id;
}

async function askedBy(f: Fixtures, rideId: string, passenger: { token: string }): Promise<string> {
  const res = await f.t.call('POST', `/api/rides/${rideId}/seats`, { token: passenger.token, body: { seats: 1 } });
  expect(res.status).toBe(201);
  return res.body.seat.id;
}

export const permissionRows: RouteCase[] = [
  {
    method: 'POST',
    path: '/api/rides/{id}/seats',
    params: async (f) => ({ id: await rideBy(f) }),
    body: () => ({ seats: 1, note: 'Bis Ostkreuz' }),
    expect: CREATED_SIGNED_IN,
  },
  {
    method: 'PUT',
    path: '/api/rides/{id}/seats/{seatId}',
    params: async (f) => {
      const id = await rideBy(f, f.member);
      return { id, seatId: await askedBy(f, id, await f.t.member(unique('seat-matrix-passenger'))) };
    },
    body: () => ({ state: 'accepted' }),
    // The driver (the matrix's member) or an admin answers; another member gets 403.
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'DELETE',
    path: '/api/rides/{id}/seats/{seatId}',
    params: async (f) => {
      const id = await rideBy(f);
      return { id, seatId: await askedBy(f, id, f.member) };
    },
    // The passenger (the matrix's member) cancels, an admin removes; another member gets 403.
    expect: OWNER_OR_ADMIN,
  },
];
