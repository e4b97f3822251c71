import { MESSAGES, newGuestAttendeeDoc, newId, newMemberAttendeeDoc, SYNC_SCHEMAS, todayIn } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Match-day details on the server: a past event takes no new answers (REST and sync push,
 * with a notice), ticket requests stay possible, and deleting a stadium names the events that use it.
 */

let t: TestApp;
let admin: string;

const clubToday = () => todayIn(t.runtime.deps.config.clubTimeZone);
/** A day relative to the club's today, `YYYY-MM-DD`. */
const day = (offset: number) => {
  const date = new Date(`${clubToday()}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
};

const version = (collection: 'attendees' | 'notices') => SYNC_SCHEMAS[collection].version;
const push = (token: string, rows: unknown) =>
  t.call('POST', `/api/sync/attendees/${version('attendees')}/push`, { token, body: rows });
const notices = async (token: string) =>
  (await t.call('POST', `/api/sync/notices/${version('notices')}/pull`, { token, body: { checkpoint: null, limit: 1000 } })).body
    .documents as { code: string; event_id: string | null; action: string }[];
const attendeesOf = async (eventId: string) =>
  (await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees as {
    id: string;
    user_id: string | null;
    guest_name: string | null;
    status: string;
    needs_transport: boolean;
    paid_requested: boolean;
  }[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('a past event takes no new attendance', () => {
  let member: { id: string; token: string };
  let pastId: string;
  let todayId: string;

  beforeAll(async () => {
    member = await t.member('past-fan');
    pastId = (await createEventVia(t, admin, { title: 'Gestern (A)', date: `${day(-1)} 20:30` })).id;
    todayId = (await createEventVia(t, admin, { title: 'Heute (H)', date: `${day(0)} 00:00` })).id;
  });

  it('refuses a new answer on REST with the message, and keeps the event of today open all day', async () => {
    const refused = await t.call('POST', `/api/attendance/${pastId}`, { token: member.token, body: { status: 'going' } });
    expect(refused).toMatchObject({ status: 409, body: { success: false, code: 'eventIsPast', message: MESSAGES.eventIsPast } });
    expect(await attendeesOf(pastId)).toEqual([]);
    const today = await t.call('POST', `/api/attendance/${todayId}`, { token: member.token, body: { status: 'maybe' } });
    expect(today.status).toBe(200);
  });

  it('refuses changing and dropping an answer once the event is past, but takes a paid request', async () => {
    const event = (await createEventVia(t, admin, { title: 'Verlegt (A)', date: `${day(3)} 15:30` })).id;
    const answered = await t.call('POST', `/api/attendance/${event}`, { token: member.token, body: { status: 'going' } });
    expect(answered.status).toBe(200);
    const attendeeId = answered.body.attendance.id as string;
    await t.call('PUT', `/api/attendees/${attendeeId}`, { token: admin, body: { bought: true, price: 20 } });
    // The match moves into the past (a correction by the admin).
    expect((await t.call('PUT', `/api/events/${event}`, { token: admin, body: { date: `${day(-2)} 15:30` } })).status).toBe(200);

    const change = await t.call('POST', `/api/attendance/${event}`, { token: member.token, body: { status: 'maybe' } });
    expect(change).toMatchObject({ status: 409, body: { code: 'eventIsPast' } });
    const flags = await t.call('POST', `/api/attendance/${event}`, {
      token: member.token,
      body: { status: 'going', needs_transport: false },
    });
    expect(flags).toMatchObject({ status: 409, body: { code: 'eventIsPast' } });
    // The same answer again changes nothing and is no refusal.
    expect((await t.call('POST', `/api/attendance/${event}`, { token: member.token, body: { status: 'going' } })).status).toBe(
      200,
    );
    const drop = await t.call('DELETE', `/api/attendance/${event}`, { token: member.token });
    expect(drop).toMatchObject({ status: 409, body: { code: 'eventIsPast' } });

    // Paying the debt stays possible.
    const paid = await t.call('PUT', `/api/tickets/${attendeeId}/request-paid`, { token: member.token, body: {} });
    expect(paid.status).toBe(200);
    expect(await attendeesOf(event)).toEqual([
      expect.objectContaining({ id: attendeeId, status: 'going', needs_transport: true, paid_requested: true }),
    ]);
  });

  it("refuses a member's new guest on a past event; the admin's table stays open", async () => {
    const guest = await t.call('POST', '/api/guests', { token: member.token, body: { event_id: pastId, guest_name: 'Kalle' } });
    expect(guest).toMatchObject({ status: 409, body: { code: 'eventIsPast' } });
    const byAdmin = await t.call('POST', `/api/events/${pastId}/attendees`, { token: admin, body: { user_id: member.id } });
    expect(byAdmin.status).toBe(201);
    const adminGuest = await t.call('POST', '/api/guests', {
      token: admin,
      body: { event_id: pastId, guest_name: 'Nachgetragen', brought_by: member.id },
    });
    expect(adminGuest.status).toBe(201);
    const rows = await attendeesOf(pastId);
    expect(rows.map((row) => row.guest_name ?? row.user_id).sort()).toEqual(['Nachgetragen', member.id].sort());

    // The member can neither change nor remove that guest now.
    const guestId = rows.find((row) => row.guest_name === 'Nachgetragen')!.id;
    expect((await t.call('PUT', `/api/guests/${guestId}`, { token: member.token, body: { status: 'maybe' } })).body.code).toBe(
      'eventIsPast',
    );
    expect((await t.call('DELETE', `/api/guests/${guestId}`, { token: member.token })).body.code).toBe('eventIsPast');
  });
});

describe('a past event on the sync push', () => {
  let member: { id: string; token: string };

  beforeAll(async () => {
    member = await t.member('offline-fan');
  });

  it('refuses an offline answer for an event that became past, answers the server row and leaves a notice', async () => {
    const eventId = (await createEventVia(t, admin, { title: 'Offline (A)', date: `${day(2)} 15:30` })).id;
    const doc = {
      ...newMemberAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          user_id: member.id,
          status: 'going',
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const created = await push(member.token, [{ assumedMasterState: null, newDocumentState: doc }]);
    const master = created.body[0] ?? (await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees[0];
    expect(master).toMatchObject({ id: doc.id, status: 'going' });
    const assumed = { ...doc, ...master, _deleted: false };

    // Meanwhile the match is over (here: moved to yesterday); the device still sends its change.
    await t.call('PUT', `/api/events/${eventId}`, { token: admin, body: { date: `${day(-1)} 15:30` } });
    const changed = await push(member.token, [
      { assumedMasterState: assumed, newDocumentState: { ...assumed, status: 'maybe' } },
    ]);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual([expect.objectContaining({ id: doc.id, status: 'going' })]);
    const removal = await push(member.token, [{ assumedMasterState: assumed, newDocumentState: { ...assumed, _deleted: true } }]);
    expect(removal.body).toEqual([expect.objectContaining({ id: doc.id, _deleted: false })]);
    expect((await attendeesOf(eventId)).map((row) => row.status)).toEqual(['going']);

    const own = (await notices(member.token)).filter((notice) => notice.event_id === eventId);
    expect(own.map((notice) => [notice.code, notice.action])).toEqual([
      ['eventIsPast', 'attendance.change'],
      ['eventIsPast', 'attendance.remove'],
    ]);
  });

  it('refuses an offline-made attendance and guest for a past event (the device drops them)', async () => {
    const eventId = (await createEventVia(t, admin, { title: 'Vorbei (H)', date: `${day(-3)} 15:30` })).id;
    const own = {
      ...newMemberAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          user_id: member.id,
          status: 'going',
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const guest = {
      ...newGuestAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          guest_name: 'Gast',
          brought_by: member.id,
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const res = await push(member.token, [
      { assumedMasterState: null, newDocumentState: own },
      { assumedMasterState: null, newDocumentState: guest },
    ]);
    expect(res.body).toEqual([
      expect.objectContaining({ id: own.id, _deleted: true }),
      expect.objectContaining({ id: guest.id, _deleted: true }),
    ]);
    expect(await attendeesOf(eventId)).toEqual([]);
    const codes = (await notices(member.token)).filter((notice) => notice.event_id === eventId).map((n) => [n.code, n.action]);
    expect(codes).toEqual([
      ['eventIsPast', 'attendance.set'],
      ['eventIsPast', 'guest.add'],
    ]);
  });

  it('takes a paid request pushed for a past event', async () => {
    const eventId = (await createEventVia(t, admin, { title: 'Bezahlt (A)', date: `${day(1)} 15:30` })).id;
    const answered = await t.call('POST', `/api/attendance/${eventId}`, { token: member.token, body: { status: 'going' } });
    const attendeeId = answered.body.attendance.id as string;
    await t.call('PUT', `/api/attendees/${attendeeId}`, { token: admin, body: { bought: true, price: 15 } });
    await t.call('PUT', `/api/events/${eventId}`, { token: admin, body: { date: `${day(-1)} 15:30` } });
    const pulled = await t.call('POST', `/api/sync/attendees/${version('attendees')}/pull`, {
      token: member.token,
      body: { checkpoint: null, limit: 1000 },
    });
    const master = (pulled.body.documents as { id: string }[]).find((d) => d.id === attendeeId)!;
    const res = await push(member.token, [{ assumedMasterState: master, newDocumentState: { ...master, paid_requested: true } }]);
    expect(res.body).toEqual([expect.objectContaining({ id: attendeeId, paid_requested: true })]);
    expect(await attendeesOf(eventId)).toEqual([expect.objectContaining({ id: attendeeId, paid_requested: true })]);
  });
});

describe('deleting a stadium that events use', () => {
  it('is refused with the events named, soonest first; deleted and archived events do not count', async () => {
    const stadium = (
      await t.call('POST', '/api/stadiums', { token: admin, body: { team_name: 'Club', stadium_name: 'Arena', city: 'Stadt' } })
    ).body.stadium;
    const later = (await createEventVia(t, admin, { title: 'Später (H)', date: '2031-03-01 15:30', stadium_id: stadium.id })).id;
    const sooner = (await createEventVia(t, admin, { title: 'Bald (H)', date: '2031-02-01 15:30', stadium_id: stadium.id })).id;
    const gone = (await createEventVia(t, admin, { title: 'Weg (H)', date: '2031-01-01 15:30', stadium_id: stadium.id })).id;
    await t.call('DELETE', `/api/events/${gone}`, { token: admin });

    const refused = await t.call('DELETE', `/api/stadiums/${stadium.id}`, { token: admin });
    expect(refused).toEqual({
      status: 409,
      body: {
        success: false,
        code: 'stadiumInUse',
        message: MESSAGES.stadiumInUse,
        events: [
          { id: sooner, title: 'Bald (H)', date: '2031-02-01 15:30:00' },
          { id: later, title: 'Später (H)', date: '2031-03-01 15:30:00' },
        ],
      },
    });

    // Moved elsewhere, the stadium goes.
    for (const id of [sooner, later]) await t.call('PUT', `/api/events/${id}`, { token: admin, body: { stadium_id: null } });
    expect((await t.call('DELETE', `/api/stadiums/${stadium.id}`, { token: admin })).status).toBe(200);
  });

  it('names nothing to a member: admin access first', async () => {
    const member = await t.member('no-admin');
    const res = await t.call('DELETE', `/api/stadiums/${newId()}`, { token: member.token });
    expect(res).toMatchObject({ status: 403, body: { code: 'adminRequired' } });
    expect(res.body.events).toBeUndefined();
  });
});
