import {
  clubWallClock,
  eventChangedAnswer,
  eventCreatedAnswer,
  eventDetailAnswer,
  MESSAGES,
  newGuestAttendeeDoc,
  newId,
  newMemberAttendeeDoc,
  SYNC_SCHEMAS,
  todayIn,
} from '@fankurve/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Answer deadlines (docs/product.md, Answer deadlines and reminders): set with the event (its creator
 * or an admin), strictly before it; after it a member changes neither their answer nor their guests,
 * over REST or through a late offline push (refused with a notice, nothing changed); an admin still can.
 */

let t: TestApp;
let admin: string;

const zone = () => t.runtime.deps.config.clubTimeZone;
/** A day relative to the club's today, `YYYY-MM-DD`. */
const day = (offset: number) => {
  const date = new Date(`${todayIn(zone())}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
};
/** The club's wall-clock time `minutes` from now, to the minute (`YYYY-MM-DD HH:MM`). */
const clubIn = (minutes: number) => clubWallClock(zone(), new Date(Date.now() + minutes * 60_000)).slice(0, 16);

const version = (collection: 'attendees' | 'notices' | 'events') => SYNC_SCHEMAS[collection].version;
const push = (token: string, rows: unknown) =>
  t.call('POST', `/api/sync/attendees/${version('attendees')}/push`, { token, body: rows });
const notices = async (token: string) =>
  (await t.call('POST', `/api/sync/notices/${version('notices')}/pull`, { token, body: { checkpoint: null, limit: 1000 } })).body
    .documents as { code: string; event_id: string | null; action: string }[];
const detail = (eventId: string) => t.callTyped(eventDetailAnswer, 'GET', `/api/events/${eventId}`, { token: admin });
const rowsOf = async (eventId: string) => (await detail(eventId)).attendees;
const eventRow = (eventId: string) => t.db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();

/** An upcoming match (five days ahead) whose answers closed an hour ago. */
async function closedEvent(title: string): Promise<string> {
  const id = (await createEventVia(t, admin, { title, date: `${day(5)} 15:30` })).id;
  const closed = await t.call('PUT', `/api/events/${id}`, { token: admin, body: { answer_deadline: clubIn(-60) } });
  expect(closed.status, JSON.stringify(closed.body)).toBe(200);
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

describe('setting the deadline', () => {
  it('is stored with the event in the wall-clock form and shown by REST, the list and the device document', async () => {
    const created = await t.callTyped(eventCreatedAnswer, 'POST', '/api/events', {
      token: admin,
      body: { title: 'Mit Frist (A)', date: '2030-03-14 18:30', location: 'Berlin', answer_deadline: '2030-03-12 18:07' },
    });
    expect(created.event.answer_deadline).toBe('2030-03-12 18:07:00');
    expect((await detail(created.event.id)).event.answer_deadline).toBe('2030-03-12 18:07:00');
    const list = await t.call('GET', '/api/events', { token: admin });
    expect(list.body.events.find((e: { id: string }) => e.id === created.event.id).answer_deadline).toBe('2030-03-12 18:07:00');
    const pulled = await t.call('POST', `/api/sync/events/${version('events')}/pull`, {
      token: admin,
      body: { checkpoint: null, limit: 1000 },
    });
    expect(version('events')).toBe(3);
    expect(pulled.body.documents.find((d: { id: string }) => d.id === created.event.id)).toMatchObject({
      answer_deadline: '2030-03-12 18:07:00',
    });
    // Without one: null; an ISO time is taken as the wall clock, like event dates.
    const plain = await createEventVia(t, admin, { date: '2030-03-20 15:30' });
    expect(plain.answer_deadline).toBeNull();
    const iso = await t.callTyped(eventChangedAnswer, 'PUT', `/api/events/${plain.id}`, {
      token: admin,
      body: { answer_deadline: '2030-03-19T20:00' },
    });
    expect(iso.event.answer_deadline).toBe('2030-03-19 20:00:00');
    const cleared = await t.callTyped(eventChangedAnswer, 'PUT', `/api/events/${plain.id}`, {
      token: admin,
      body: { answer_deadline: null },
    });
    expect(cleared.event.answer_deadline).toBeNull();
  });

  it("is the creator's or an admin's: another member gets 403 and nothing changes; anonymous 401", async () => {
    const creator = await t.member('deadline-creator');
    const other = await t.member('deadline-other');
    const event = await createEventVia(t, creator.token, { title: 'Stammtisch', date: '2030-04-01 19:00' });
    const own = await t.call('PUT', `/api/events/${event.id}`, {
      token: creator.token,
      body: { answer_deadline: '2030-03-30 12:00' },
    });
    expect(own.status).toBe(200);
    expect(own.body.event.answer_deadline).toBe('2030-03-30 12:00:00');
    const refused = await t.call('PUT', `/api/events/${event.id}`, { token: other.token, body: { answer_deadline: null } });
    expect(refused).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect((await t.call('PUT', `/api/events/${event.id}`, { body: { answer_deadline: null } })).status).toBe(401);
    const byAdmin = await t.call('PUT', `/api/events/${event.id}`, {
      token: admin,
      body: { answer_deadline: '2030-03-31 12:00' },
    });
    expect(byAdmin.body.event.answer_deadline).toBe('2030-03-31 12:00:00');
    expect((await eventRow(event.id)).answer_deadline).toBe('2030-03-31 12:00:00');
  });

  it('refuses a deadline at or after the event, and a bad one, with 400 and nothing changed', async () => {
    const countEvents = async () => (await t.db.selectFrom('events').select('id').execute()).length;
    const before = await countEvents();
    const cases: [unknown, keyof typeof MESSAGES][] = [
      ['2030-05-01 15:30', 'answerDeadlineAfterEvent'],
      ['2030-05-02 09:00', 'answerDeadlineAfterEvent'],
      ['morgen', 'answerDeadlineInvalid'],
      ['2030-02-30 12:00', 'answerDeadlineInvalid'],
      ['1999-12-31 12:00', 'answerDeadlineInvalid'],
      [42, 'answerDeadlineInvalid'],
      ['x'.repeat(41), 'answerDeadlineInvalid'],
    ];
    for (const [deadline, code] of cases) {
      const res = await t.call('POST', '/api/events', {
        token: admin,
        body: { title: 'Falsch (H)', date: '2030-05-01 15:30', location: 'Berlin', answer_deadline: deadline },
      });
      expect(res.status, String(deadline)).toBe(400);
      expect(res.body, String(deadline)).toMatchObject({ success: false, code, message: MESSAGES[code] });
    }
    expect(await countEvents()).toBe(before);

    const event = await createEventVia(t, admin, { date: '2030-05-01 15:30', answer_deadline: '2030-04-30 18:00' });
    const stored = await eventRow(event.id);
    for (const [deadline, code] of cases) {
      const res = await t.call('PUT', `/api/events/${event.id}`, { token: admin, body: { answer_deadline: deadline } });
      expect(res.body, String(deadline)).toMatchObject({ success: false, code });
    }
    // Moving the event to or before its deadline is refused too (the deadline is never cleared behind one's back).
    for (const date of ['2030-04-30 18:00', '2030-04-29 15:30']) {
      const moved = await t.call('PUT', `/api/events/${event.id}`, { token: admin, body: { date } });
      expect(moved).toMatchObject({ status: 400, body: { code: 'answerDeadlineAfterEvent' } });
    }
    expect(await eventRow(event.id)).toEqual(stored);
    // Moving both at once is fine.
    const both = await t.call('PUT', `/api/events/${event.id}`, {
      token: admin,
      body: { date: '2030-04-29 15:30', answer_deadline: '2030-04-28 12:00' },
    });
    expect(both.body.event).toMatchObject({ date: '2030-04-29 15:30:00', answer_deadline: '2030-04-28 12:00:00' });
  });
});

describe('after the deadline, over REST', () => {
  let member: { id: string; token: string };
  let other: { id: string; token: string };

  beforeAll(async () => {
    member = await t.member('late-fan');
    other = await t.member('late-other');
  });

  it('refuses a new answer, a change and dropping it with 409, and changes nothing', async () => {
    const open = (await createEventVia(t, admin, { title: 'Offen (A)', date: `${day(5)} 15:30` })).id;
    const answered = await t.call('POST', `/api/attendance/${open}`, { token: member.token, body: { status: 'going' } });
    expect(answered.status).toBe(200);
    const attendeeId = answered.body.attendance.id as string;
    expect((await t.call('PUT', `/api/events/${open}`, { token: admin, body: { answer_deadline: clubIn(-1) } })).status).toBe(
      200,
    );
    const before = await rowsOf(open);

    const change = await t.call('POST', `/api/attendance/${open}`, { token: member.token, body: { status: 'maybe' } });
    expect(change).toMatchObject({
      status: 409,
      body: { success: false, code: 'answerDeadlinePassed', message: MESSAGES.answerDeadlinePassed },
    });
    const flags = await t.call('POST', `/api/attendance/${open}`, {
      token: member.token,
      body: { status: 'going', needs_ticket: false, needs_transport: false },
    });
    expect(flags).toMatchObject({ status: 409, body: { code: 'answerDeadlinePassed' } });
    expect((await t.call('DELETE', `/api/attendance/${open}`, { token: member.token })).body.code).toBe('answerDeadlinePassed');
    const fresh = await t.call('POST', `/api/attendance/${open}`, { token: other.token, body: { status: 'going' } });
    expect(fresh).toMatchObject({ status: 409, body: { code: 'answerDeadlinePassed' } });
    // The same answer again changes nothing and is no refusal; a paid request is no answer.
    expect((await t.call('POST', `/api/attendance/${open}`, { token: member.token, body: { status: 'going' } })).status).toBe(
      200,
    );
    expect(await rowsOf(open)).toEqual(before);
    await t.call('PUT', `/api/attendees/${attendeeId}`, { token: admin, body: { bought: true, price: 20 } });
    expect((await t.call('PUT', `/api/tickets/${attendeeId}/request-paid`, { token: member.token, body: {} })).status).toBe(200);
  });

  it("refuses a member's guests (add, change, remove); the admin still answers and handles guests", async () => {
    // A member without debts (the one above owes a ticket now: the debt block would answer first).
    const member = await t.member('late-host');
    const eventId = (await createEventVia(t, admin, { title: 'Gäste (A)', date: `${day(6)} 15:30` })).id;
    const guest = await t.call('POST', '/api/guests', { token: member.token, body: { event_id: eventId, guest_name: 'Kalle' } });
    expect(guest.status).toBe(201);
    const guestId = guest.body.guest.id as string;
    expect((await t.call('PUT', `/api/events/${eventId}`, { token: admin, body: { answer_deadline: clubIn(-5) } })).status).toBe(
      200,
    );
    const before = await rowsOf(eventId);
    const add = await t.call('POST', '/api/guests', { token: member.token, body: { event_id: eventId, guest_name: 'Zu spät' } });
    expect(add).toMatchObject({ status: 409, body: { code: 'answerDeadlinePassed' } });
    const change = await t.call('PUT', `/api/guests/${guestId}`, { token: member.token, body: { status: 'maybe' } });
    expect(change).toMatchObject({ status: 409, body: { code: 'answerDeadlinePassed' } });
    const rename = await t.call('PUT', `/api/guests/${guestId}`, { token: member.token, body: { guest_name: 'Karl' } });
    expect(rename).toMatchObject({ status: 409, body: { code: 'answerDeadlinePassed' } });
    expect((await t.call('DELETE', `/api/guests/${guestId}`, { token: member.token })).body.code).toBe('answerDeadlinePassed');
    // Another member still may not touch the guest at all.
    expect((await t.call('DELETE', `/api/guests/${guestId}`, { token: other.token })).status).toBe(403);
    expect(await rowsOf(eventId)).toEqual(before);

    // The admin answers for themselves and handles the member's guests.
    expect((await t.call('POST', `/api/attendance/${eventId}`, { token: admin, body: { status: 'maybe' } })).status).toBe(200);
    expect((await t.call('PUT', `/api/guests/${guestId}`, { token: admin, body: { status: 'maybe' } })).status).toBe(200);
    const forMember = await t.call('POST', '/api/guests', {
      token: admin,
      body: { event_id: eventId, guest_name: 'Nachgetragen', brought_by: member.id },
    });
    expect(forMember.status).toBe(201);
    expect((await t.call('DELETE', `/api/guests/${guestId}`, { token: admin })).status).toBe(200);
    const names = (await rowsOf(eventId)).map((row) => row.guest_name ?? row.username).sort();
    expect(names).toEqual(['Nachgetragen', 'admin'].sort());
  });

  it('an event whose deadline lies ahead takes answers; the closed one is open again once the deadline is moved', async () => {
    const eventId = await closedEvent('Wieder offen (H)');
    expect((await t.call('POST', `/api/attendance/${eventId}`, { token: other.token, body: { status: 'going' } })).status).toBe(
      409,
    );
    await t.call('PUT', `/api/events/${eventId}`, { token: admin, body: { answer_deadline: clubIn(120) } });
    expect((await t.call('POST', `/api/attendance/${eventId}`, { token: other.token, body: { status: 'going' } })).status).toBe(
      200,
    );
  });
});

describe('after the deadline, a late offline change', () => {
  let member: { id: string; token: string };

  beforeAll(async () => {
    member = await t.member('offline-late');
  });

  it('is refused on the push with a notice, the device gets the server row back, nothing changes', async () => {
    // Answers close in an hour; the device answers now and changes its mind offline, then syncs two hours later.
    const eventId = (
      await createEventVia(t, admin, { title: 'Funkloch (A)', date: `${day(4)} 15:30`, answer_deadline: clubIn(60) })
    ).id;
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
    expect(created.status).toBe(200);
    const master = created.body[0] ?? (await rowsOf(eventId))[0];
    const assumed = { ...doc, ...master, _deleted: false };
    const guest = {
      ...newGuestAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          guest_name: 'Gast',
          brought_by: member.id,
          created_at: doc.created_at,
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const before = await rowsOf(eventId);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60 * 60_000 });
    const late = await push(member.token, [
      { assumedMasterState: assumed, newDocumentState: { ...assumed, status: 'maybe', needs_transport: false } },
      { assumedMasterState: null, newDocumentState: guest },
    ]);
    expect(late.status).toBe(200);
    expect(late.body).toEqual([
      expect.objectContaining({ id: doc.id, status: 'going', needs_transport: true }),
      expect.objectContaining({ id: guest.id, _deleted: true }),
    ]);
    const removal = await push(member.token, [{ assumedMasterState: assumed, newDocumentState: { ...assumed, _deleted: true } }]);
    expect(removal.body).toEqual([expect.objectContaining({ id: doc.id, _deleted: false })]);
    expect(await rowsOf(eventId)).toEqual(before);
    const own = (await notices(member.token)).filter((notice) => notice.event_id === eventId);
    expect(own.map((notice) => [notice.code, notice.action])).toEqual([
      ['answerDeadlinePassed', 'attendance.change'],
      ['answerDeadlinePassed', 'guest.add'],
      ['answerDeadlinePassed', 'attendance.remove'],
    ]);
  });

  it("refuses a late change of a member's guest; an admin's push of their own answer lands", async () => {
    const eventId = (
      await createEventVia(t, admin, { title: 'Funkloch 2 (A)', date: `${day(4)} 18:30`, answer_deadline: clubIn(30) })
    ).id;
    const guest = await t.call('POST', '/api/guests', { token: member.token, body: { event_id: eventId, guest_name: 'Ole' } });
    const pulled = await t.call('POST', `/api/sync/attendees/${version('attendees')}/pull`, {
      token: member.token,
      body: { checkpoint: null, limit: 1000 },
    });
    const guestDoc = pulled.body.documents.find((d: { id: string }) => d.id === guest.body.guest.id);
    const adminId = (await t.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const adminDoc = {
      ...newMemberAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          user_id: adminId,
          status: 'maybe',
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60 * 60_000 });
    const late = await push(member.token, [{ assumedMasterState: guestDoc, newDocumentState: { ...guestDoc, status: 'maybe' } }]);
    expect(late.body).toEqual([expect.objectContaining({ id: guestDoc.id, status: 'going' })]);
    const byAdmin = await push(admin, [{ assumedMasterState: null, newDocumentState: adminDoc }]);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.filter((row: { _deleted?: boolean }) => row._deleted)).toEqual([]);
    const rows = await rowsOf(eventId);
    expect(rows.map((row) => [row.guest_name ?? row.username, row.status]).sort()).toEqual(
      [
        ['Ole', 'going'],
        ['admin', 'maybe'],
      ].sort(),
    );
    expect((await notices(member.token)).filter((n) => n.event_id === eventId).map((n) => [n.code, n.action])).toEqual([
      ['answerDeadlinePassed', 'guest.change'],
    ]);
  });
});
