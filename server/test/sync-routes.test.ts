import { SYNC_SCHEMAS, newGuestAttendeeDoc, newId, newMemberAttendeeDoc, type SyncCollectionName } from '@fankurve/shared';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/** The sync endpoints: permissions, bad input, versions, and documents that fit the client schemas. */
describe('sync routes', () => {
  let t: TestApp;
  let admin: string;
  let member: { id: string; token: string };
  let other: { id: string; token: string };
  let eventId: string;

  const versionOf = (collection: string) => SYNC_SCHEMAS[collection as SyncCollectionName]?.version ?? 0;
  const pull = (
    collection: string,
    token: string | null,
    body: unknown = { checkpoint: null, limit: 100 },
    version = versionOf(collection),
  ) => t.call('POST', `/api/sync/${collection}/${version}/pull`, { token, body });
  const push = (collection: string, token: string | null, rows: unknown, version = versionOf(collection)) =>
    t.call('POST', `/api/sync/${collection}/${version}/push`, { token, body: rows });

  const attendeeDoc = (userId: string, overrides: Record<string, unknown> = {}) => ({
    ...newMemberAttendeeDoc(
      {
        id: newId(),
        event_id: eventId,
        user_id: userId,
        status: 'going',
        created_at: new Date().toISOString(),
      },
      'Test match (A)',
    ),
    _deleted: false,
    ...overrides,
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    member = await t.member('mia');
    other = await t.member('otto');
    const created = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Mainz (A)', date: '2027-04-10 15:30', location: 'Mainz' },
    });
    eventId = created.body.event.id;
  });
  afterAll(() => t.close());

  it('answers 401 to anonymous and garbage tokens on pull, push and stream', async () => {
    for (const token of [null, 'not-a-token']) {
      expect((await pull('events', token)).status).toBe(401);
      expect((await push('attendees', token, [])).status).toBe(401);
      expect((await t.call('GET', '/api/sync/stream', { token })).status).toBe(401);
    }
  });

  it('answers 426 to an outdated schema version and 404 to an unknown collection', async () => {
    const outdated = await pull('events', member.token, undefined, 7);
    expect(outdated.status).toBe(426);
    expect(outdated.body.message).toBe('The app has been updated. Please reload.');
    expect((await pull('secrets', member.token)).status).toBe(404);
  });

  it('refuses pushes to pull-only collections', async () => {
    const res = await push('events', admin, [{ assumedMasterState: null, newDocumentState: { id: eventId, title: 'x' } }]);
    expect(res.status).toBe(403);
  });

  it('answers 400 to malformed pull and push bodies, and changes nothing', async () => {
    expect((await t.call('POST', '/api/sync/attendees/0/pull', { token: member.token, raw: '{bad' })).status).toBe(400);
    expect((await pull('attendees', member.token, { checkpoint: { seq: 'x' }, limit: 5 })).status).toBe(400);
    expect((await pull('attendees', member.token, { checkpoint: null, limit: 100000 })).status).toBe(400);
    expect((await push('attendees', member.token, { not: 'an array' })).status).toBe(400);
    expect((await push('attendees', member.token, [{ newDocumentState: { noId: true } }])).status).toBe(400);
    const bad = await push('attendees', member.token, [
      { assumedMasterState: null, newDocumentState: attendeeDoc(member.id, { status: 'sometimes' }) },
    ]);
    expect(bad.status).toBe(200);
    expect(bad.body[0]._deleted).toBe(true);
    expect((await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees).toHaveLength(0);
  });

  it("refuses a member's push of another member's row, answers the master and leaves a notice", async () => {
    const forged = attendeeDoc(other.id);
    const res = await push('attendees', member.token, [{ assumedMasterState: null, newDocumentState: forged }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: forged.id, _deleted: true })]);
    expect((await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees).toHaveLength(0);
    const notices = await pull('notices', member.token);
    expect(notices.body.documents.map((n: { code: string }) => n.code)).toContain('forbidden');
  });

  it('applies an own row, ignores admin-owned fields in it, and is idempotent on retry', async () => {
    const own = attendeeDoc(member.id, { bought: true, paid: true, price_cents: 1 });
    const first = await push('attendees', member.token, [{ assumedMasterState: null, newDocumentState: own }]);
    expect(first.status).toBe(200);
    const master = first.body[0];
    expect(master).toMatchObject({ id: own.id, status: 'going', bought: false, paid: false, price_cents: null });
    const retry = await push('attendees', member.token, [{ assumedMasterState: null, newDocumentState: master }]);
    expect(retry.body).toEqual([]);
    const rows = (await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees;
    expect(rows).toHaveLength(1);
  });

  it("applies a member's pushed guest, and refuses another member's change to it with a notice", async () => {
    const guest = {
      ...newGuestAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          guest_name: 'Gustav',
          brought_by: member.id,
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const added = await push('attendees', member.token, [{ assumedMasterState: null, newDocumentState: guest }]);
    expect(added.status).toBe(200);
    const master = added.body[0] ?? guest;
    expect(master).toMatchObject({ id: guest.id, guest_name: 'Gustav', brought_by: member.id, user_id: null });

    const renamed = { ...master, guest_name: 'Not yours' };
    const foreign = await push('attendees', other.token, [{ assumedMasterState: master, newDocumentState: renamed }]);
    expect(foreign.body).toEqual([expect.objectContaining({ id: guest.id, guest_name: 'Gustav' })]);
    const removal = await push('attendees', other.token, [
      { assumedMasterState: master, newDocumentState: { ...master, _deleted: true } },
    ]);
    expect(removal.body).toEqual([expect.objectContaining({ id: guest.id, _deleted: false })]);
    const forged = {
      ...newGuestAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          guest_name: 'Fake',
          brought_by: member.id,
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const forgedRes = await push('attendees', other.token, [{ assumedMasterState: null, newDocumentState: forged }]);
    expect(forgedRes.body).toEqual([expect.objectContaining({ id: forged.id, _deleted: true })]);

    const rows = (await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees;
    expect(
      rows.filter((r: { user_id: string | null }) => r.user_id === null).map((r: { guest_name: string }) => r.guest_name),
    ).toEqual(['Gustav']);
    const notices = await pull('notices', other.token);
    expect(notices.body.documents.filter((n: { code: string }) => n.code === 'forbidden')).toHaveLength(3);
  });

  it('takes a re-sent unchanged row of someone else as a no-op: no conflict, no notice', async () => {
    const rows = (await pull('attendees', admin)).body.documents.filter(
      (d: { user_id: string; _deleted: boolean }) => d.user_id === member.id && !d._deleted,
    );
    expect(rows.length).toBeGreaterThan(0);
    const before = (await pull('notices', other.token)).body.documents.length;
    const res = await push('attendees', other.token, [{ assumedMasterState: rows[0], newDocumentState: rows[0] }]);
    expect(res.body).toEqual([]);
    expect((await pull('notices', other.token)).body.documents).toHaveLength(before);
  });

  it('pulls in seq order with a moving checkpoint, and an empty batch keeps the checkpoint', async () => {
    const first = await pull('members', member.token, { checkpoint: null, limit: 1 });
    expect(first.body.documents).toHaveLength(1);
    const second = await pull('members', member.token, { checkpoint: first.body.checkpoint, limit: 100 });
    expect(second.body.documents.length).toBeGreaterThan(0);
    expect(second.body.documents[0].seq).toBeGreaterThan(first.body.checkpoint.seq);
    const end = await pull('members', member.token, { checkpoint: second.body.checkpoint, limit: 100 });
    expect(end.body).toEqual({ documents: [], checkpoint: second.body.checkpoint });
  });

  it("keeps other users' notices private and pending registrations out of members", async () => {
    await t.call('POST', '/api/auth/register', { body: { username: 'waiting', email: 'w@example.org', password: 'secret' } });
    const members = await pull('members', member.token);
    expect(members.body.documents.map((m: { username: string }) => m.username)).not.toContain('waiting');
    const mineOnly = await pull('notices', other.token);
    expect(mineOnly.body.documents.every((n: { user_id: string }) => n.user_id === other.id)).toBe(true);
  });

  it('sends documents that validate against the client schemas, for member and admin', async () => {
    const ajv = new Ajv({ strict: false });
    for (const token of [member.token, admin]) {
      for (const name of Object.keys(SYNC_SCHEMAS) as SyncCollectionName[]) {
        const validate = ajv.compile({
          ...SYNC_SCHEMAS[name],
          additionalProperties: false,
          properties: { ...SYNC_SCHEMAS[name].properties, _deleted: { type: 'boolean' } },
        });
        const res = await pull(name, token);
        expect(res.status).toBe(200);
        for (const doc of res.body.documents) {
          // A tombstone carries nothing of the deleted document.
          if (doc._deleted) expect(Object.keys(doc).sort()).toEqual(['_deleted', 'id', 'seq']);
          else expect(validate(doc), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }
      }
    }
  });
});
