import {
  SYNC_SCHEMAS,
  newGuestAttendeeDoc,
  newMemberAttendeeDoc,
  newId,
  type AttendeeDoc,
  type NoticeDoc,
} from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

type Doc = AttendeeDoc & { _deleted: boolean };

/**
 * The three-way field merge of pushes (docs/architecture.md, sync: push): a field counts as changed
 * only where the device's new state differs from the state it last had from the server.
 */
describe('sync push: three-way field merge', () => {
  let t: TestApp;
  let admin: string;
  let mia: { id: string; token: string };
  let eventId: string;
  let memberCount = 0;

  const pushAttendees = (token: string, rows: unknown) =>
    t.call('POST', `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/push`, { token, body: rows });
  const pull = (collection: 'attendees' | 'notices', token: string) =>
    t.call('POST', `/api/sync/${collection}/${SYNC_SCHEMAS[collection].version}/pull`, {
      token,
      body: { checkpoint: null, limit: 1000 },
    });
  const serverRow = async (id: string): Promise<Doc> =>
    ((await pull('attendees', admin)).body.documents as Doc[]).find((doc) => doc.id === id)!;

  /** A fresh member attends a new event (first-time defaults) and both their devices hold the server's row. */
  async function attendingRow(): Promise<Doc> {
    mia = await t.member(`mia${memberCount++}`);
    const event = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: `Merge ${newId().slice(-6)} (A)`, date: '2027-05-01 15:30', location: 'Auswärts' },
    });
    eventId = event.body.event.id;
    const doc = {
      ...newMemberAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          user_id: mia.id,
          status: 'going',
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const res = await pushAttendees(mia.token, [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(res.status).toBe(200);
    return serverRow(doc.id);
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  it("keeps both changes when a member's two devices change different fields offline", async () => {
    const base = await attendingRow();
    expect(base).toMatchObject({ status: 'going', needs_transport: true });
    const phone = { ...base, status: 'maybe' as const };
    const laptop = { ...base, needs_transport: false };

    // Answered with the result, so the phone learns the row's new seq.
    const phoneAnswer = await pushAttendees(mia.token, [{ assumedMasterState: base, newDocumentState: phone }]);
    expect(phoneAnswer.body).toEqual([{ ...phone, seq: (await serverRow(base.id)).seq }]);
    const laptopAnswer = await pushAttendees(mia.token, [{ assumedMasterState: base, newDocumentState: laptop }]);
    // The laptop adopts the merged row: its own change and the phone's.
    expect(laptopAnswer.body).toEqual([expect.objectContaining({ id: base.id, status: 'maybe', needs_transport: false })]);
    expect(await serverRow(base.id)).toMatchObject({ status: 'maybe', needs_transport: false });
  });

  it('lets the push that arrives last win when both devices changed the same field', async () => {
    await attendingRow();
    const guest = {
      ...newGuestAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          guest_name: 'Gustav',
          brought_by: mia.id,
          created_at: '2026-01-01T00:00:00Z',
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    await pushAttendees(mia.token, [{ assumedMasterState: null, newDocumentState: guest }]);
    const base = await serverRow(guest.id);
    await pushAttendees(mia.token, [
      { assumedMasterState: base, newDocumentState: { ...base, guest_name: 'Gus', status: 'maybe' } },
    ]);
    const last = await pushAttendees(mia.token, [
      { assumedMasterState: base, newDocumentState: { ...base, guest_name: 'Gustl' } },
    ]);
    expect(last.body).toEqual([expect.objectContaining({ guest_name: 'Gustl', status: 'maybe' })]);
    expect(await serverRow(guest.id)).toMatchObject({ guest_name: 'Gustl', status: 'maybe' });
  });

  it("keeps an admin's ticket change made meanwhile, and never takes admin-owned fields from a push", async () => {
    const base = await attendingRow();
    const rest = await t.call('PUT', `/api/tickets/event/${eventId}/user/${mia.id}/status`, {
      token: admin,
      body: { bought: true, price: 30 },
    });
    expect(rest.status).toBe(200);
    const stale = { ...base, status: 'maybe' as const, paid: true, bought: false, price_cents: 1 };
    const answer = await pushAttendees(mia.token, [{ assumedMasterState: base, newDocumentState: stale }]);
    expect(answer.body).toEqual([expect.objectContaining({ status: 'maybe', bought: true, paid: false, price_cents: 3000 })]);
  });

  it("keeps a member's REST change and a device's offline change of another field", async () => {
    const base = await attendingRow();
    const rest = await t.call('POST', `/api/attendance/${eventId}`, {
      token: mia.token,
      body: { status: 'going', has_ticket: true },
    });
    expect(rest.status).toBe(200);
    await pushAttendees(mia.token, [{ assumedMasterState: base, newDocumentState: { ...base, needs_transport: false } }]);
    expect(await serverRow(base.id)).toMatchObject({ has_ticket: true, needs_ticket: false, needs_transport: false });
  });

  it('does not bring back an attendance an admin removed while the device changed it offline', async () => {
    const base = await attendingRow();
    expect((await t.call('DELETE', `/api/attendance/${eventId}/user/${mia.id}`, { token: admin })).status).toBe(200);
    const answer = await pushAttendees(mia.token, [{ assumedMasterState: base, newDocumentState: { ...base, status: 'maybe' } }]);
    expect(answer.body).toEqual([expect.objectContaining({ id: base.id, _deleted: true })]);
    expect((await serverRow(base.id))._deleted).toBe(true);
    const notices = (await pull('notices', mia.token)).body.documents as NoticeDoc[];
    expect(notices.at(-1)).toMatchObject({ code: 'attendanceNotFound', event_id: eventId, action: 'attendance.change' });
  });

  it('sends tombstones as id, seq, event and _deleted only', async () => {
    const base = await attendingRow();
    await pushAttendees(mia.token, [{ assumedMasterState: base, newDocumentState: { ...base, _deleted: true } }]);
    const tombstone = await serverRow(base.id);
    expect(tombstone).toEqual({ id: base.id, seq: expect.any(Number), event_id: base.event_id, _deleted: true });
  });

  it('answers the refusal with a notice naming the event and the change, which the member marks read', async () => {
    const base = await attendingRow();
    await t.call('PUT', `/api/tickets/event/${eventId}/user/${mia.id}/status`, {
      token: admin,
      body: { bought: true, price: 20 },
    });
    const dropped = await pushAttendees(mia.token, [{ assumedMasterState: base, newDocumentState: { ...base, _deleted: true } }]);
    expect(dropped.body).toEqual([expect.objectContaining({ id: base.id, _deleted: false, bought: true })]);
    const notices = (await pull('notices', mia.token)).body.documents as (NoticeDoc & { _deleted: boolean })[];
    const notice = notices.at(-1)!;
    expect(notice).toMatchObject({ code: 'ticketAlreadyBought', event_id: eventId, action: 'attendance.remove', is_read: false });
    expect(notice.event_title).toMatch(/^Merge /);

    const noticePush = (token: string, rows: unknown) =>
      t.call('POST', `/api/sync/notices/${SYNC_SCHEMAS.notices.version}/push`, { token, body: rows });
    const other = await t.member('otto');
    const before = (await pull('notices', mia.token)).body.documents.length;
    const foreign = await noticePush(other.token, [
      { assumedMasterState: notice, newDocumentState: { ...notice, is_read: true } },
    ]);
    expect(foreign.body).toEqual([expect.objectContaining({ id: notice.id, _deleted: true })]);
    const read = await noticePush(mia.token, [
      { assumedMasterState: notice, newDocumentState: { ...notice, is_read: true, message: 'forged' } },
    ]);
    expect(read.body).toEqual([expect.objectContaining({ is_read: true, message: notice.message })]);
    const forged = { ...notice, id: newId(), is_read: false, seq: 0 };
    const created = await noticePush(mia.token, [{ assumedMasterState: null, newDocumentState: forged }]);
    expect(created.body).toEqual([expect.objectContaining({ id: forged.id, _deleted: true })]);
    const after = (await pull('notices', mia.token)).body.documents as NoticeDoc[];
    expect(after.map((doc) => doc.id)).not.toContain(forged.id);
    expect(after.length).toBe(before + 1); // the refusal of the forged notice, nothing else
  });

  it("does not take the server's own newer state, re-sent by a device over an older assumed state, as the device's change", async () => {
    const v1 = await attendingRow();
    // The member's other device changes the answer: the server's row moves on to v2.
    await pushAttendees(mia.token, [{ assumedMasterState: v1, newDocumentState: { ...v1, status: 'maybe' } }]);
    const v2 = await serverRow(v1.id);
    // An admin changes the same answer back over REST: v3.
    await t.call('PUT', `/api/attendees/${v1.id}`, { token: admin, body: { status: 'going' } });
    const v3 = await serverRow(v1.id);
    expect(v3.status).toBe('going');
    // This device pulled v2 but had not yet recorded it as its assumed master (still v1), and re-sends it.
    const answer = await pushAttendees(mia.token, [{ assumedMasterState: v1, newDocumentState: v2 }]);
    expect(answer.body).toEqual([expect.objectContaining({ id: v1.id, status: 'going' })]);
    expect(await serverRow(v1.id)).toMatchObject({ status: 'going', seq: v3.seq });
    // A local change made on top of the newer pulled state still counts (its base is that state).
    const local = { ...v3, needs_transport: false };
    const kept = await pushAttendees(mia.token, [{ assumedMasterState: v2, newDocumentState: local }]);
    const v4 = await serverRow(v1.id);
    expect(v4).toMatchObject({ status: 'going', needs_transport: false });
    expect(kept.body).toEqual([{ ...local, seq: v4.seq }]);
  });

  it("takes another device's creation of the same attendance as a status only, keeping the answers given since", async () => {
    const first = await attendingRow();
    await pushAttendees(mia.token, [{ assumedMasterState: first, newDocumentState: { ...first, needs_transport: false } }]);
    const second = {
      ...newMemberAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          user_id: mia.id,
          status: 'maybe',
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const answer = await pushAttendees(mia.token, [{ assumedMasterState: null, newDocumentState: second }]);
    // The device drops its own copy and takes the one row the server keeps.
    expect(answer.body).toEqual([expect.objectContaining({ id: second.id, _deleted: true })]);
    expect(await serverRow(first.id)).toMatchObject({ status: 'maybe', needs_transport: false });
  });
});
