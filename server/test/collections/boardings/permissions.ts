import { expect } from 'vitest';
import { ADMIN_ONLY, OWNER_OR_ADMIN, unique, type Fixtures, type RouteCase } from '../../permission-rows.js';

/*
 * The bus's rows of the permission matrix (server/test/permission-matrix.ts collects them): the seat
 * plan, captains and fare are the admins'; a seat is the admin's or, where members choose, the
 * member's own (another member: 403); a tick is a captain's (the matrix's member) or an admin's.
 */

/** A fresh option of the matrix's event with ten seats; `fields` as POST /api/transports takes them. */
async function busOf(f: Fixtures, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await f.t.call('POST', '/api/transports', {
    token: f.admin.token,
    body: { event_id: f.eventId, name: unique('Bus '), departure_location: 'Köpenick', price_per_seat: 10, ...fields },
  });
  expect(res.status).toBe(201);
  const id = res.body.transport.id as string;
  expect((await f.t.call('PUT', `/api/transports/${id}/seat-plan`, { token: f.admin.token, body: { seats: 10 } })).status).toBe(
    200,
  );
  return id;
}

/** The member's row on the matrix's event, going and needing a seat. */
async function travelling(f: Fixtures, person: { id: string; token: string }): Promise<string> {
  const res = await f.t.call('POST', `/api/attendance/${f.eventId}`, {
    token: person.token,
    body: { status: 'going', needs_transport: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const row = await f.t.db
    .selectFrom('attendees')
    .select('id')
    .where('event_id', '=', f.eventId)
    .where('user_id', '=', person.id)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function seated(f: Fixtures, transportId: string, attendeeId: string): Promise<void> {
  const res = await f.t.call('PUT', `/api/transports/${transportId}/seats/1`, {
    token: f.admin.token,
    body: { attendee_id: attendeeId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export const permissionRows: RouteCase[] = [
  {
    method: 'PUT',
    path: '/api/transports/{id}/seat-plan',
    params: async (f) => ({ id: await busOf(f) }),
    body: () => ({ rows: 5, seats_per_row: 4 }),
    expect: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/transports/{id}/seats/{number}',
    params: async (f) => ({
      id: await busOf(f, { seat_choice: 'members' }),
      number: '3',
      row: await travelling(f, f.member),
    }),
    // The member takes a seat for themselves; another member may not seat them, an admin may.
    body: (_f, _role, params) => ({ attendee_id: params.row ?? 'sample' }),
    expect: OWNER_OR_ADMIN,
    after: async (f, role, _body, { params }) => {
      const seats = await f.t.db.selectFrom('transport_seats').selectAll().where('transport_id', '=', params.id!).execute();
      expect(seats.length).toBe(role === 'member' || role === 'admin' ? 1 : 0);
    },
  },
  {
    method: 'PUT',
    path: '/api/transports/{id}/captains',
    params: async (f) => ({ id: await busOf(f) }),
    body: (f) => ({ user_ids: [f.member.id] }),
    expect: ADMIN_ONLY,
  },
  {
    method: 'POST',
    path: '/api/transports/{id}/charge-fare',
    params: async (f) => {
      const id = await busOf(f);
      const rider = await f.t.member(unique('fare-rider-'));
      await seated(f, id, await travelling(f, rider));
      return { id };
    },
    expect: ADMIN_ONLY,
    after: async (f, role, _body, { params }) => {
      const fares = await f.t.db.selectFrom('transport_fares').selectAll().where('transport_id', '=', params.id!).execute();
      expect(fares.length).toBe(role === 'admin' ? 1 : 0);
    },
  },
  {
    method: 'PUT',
    path: '/api/transports/{id}/boarding/{attendeeId}',
    params: async (f) => {
      const id = await busOf(f);
      const attendeeId = await travelling(f, f.other);
      await seated(f, id, attendeeId);
      const captains = await f.t.call('PUT', `/api/transports/${id}/captains`, {
        token: f.admin.token,
        body: { user_ids: [f.member.id] },
      });
      expect(captains.status).toBe(200);
      return { id, attendeeId };
    },
    body: () => ({ on_board: true }),
    // The matrix's member is the option's captain; the other member (the passenger) is not.
    expect: OWNER_OR_ADMIN,
  },
];
