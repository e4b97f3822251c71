import { NOTICE_REPEAT_PACE_MS, NOTICES_UNREAD_MAX, SYNC_SCHEMAS, type AttendeeDoc, type NoticeDoc } from '@fankurve/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/*
 * Refused sync pushes write notices, and one member cannot flood their own devices or the database
 * with them (docs/architecture.md, Sync: Refusals): a repeat of an unread notice folds into it and
 * writes at most once per NOTICE_REPEAT_PACE_MS; only the newest NOTICES_UNREAD_MAX stay unread; and
 * at most NOTICES_UNREAD_MAX new ones are written per member within NOTICE_REPEAT_PACE_MS.
 * The refusal here: dropping an answer whose ticket an admin bought ('ticketAlreadyBought').
 */

type Doc = AttendeeDoc & { _deleted: boolean };

let t: TestApp;
let admin: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const push = (token: string, rows: unknown) =>
  t.call('POST', `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/push`, { token, body: rows });
const pull = async (collection: 'attendees' | 'notices', token: string) =>
  (
    await t.call('POST', `/api/sync/${collection}/${SYNC_SCHEMAS[collection].version}/pull`, {
      token,
      body: { checkpoint: null, limit: 1000 },
    })
  ).body.documents as unknown[];
const noticeRows = (userId: string) =>
  t.db.selectFrom('notices').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();

/** The member's answer to a new away match, its ticket bought (and paid) by an admin: the device's copy of it. */
async function boughtRow(member: { id: string; token: string }): Promise<Doc> {
  const event = await t.call('POST', '/api/events', {
    token: admin,
    body: { title: `Flut ${++counter} (A)`, date: '2030-05-01 15:30', location: 'Auswärts' },
  });
  const eventId = event.body.event.id as string;
  expect((await t.call('POST', `/api/attendance/${eventId}`, { token: member.token, body: { status: 'going' } })).status).toBe(
    200,
  );
  const bought = await t.call('PUT', `/api/tickets/event/${eventId}/user/${member.id}/status`, {
    token: admin,
    body: { bought: true, paid: true, price: 20 },
  });
  expect(bought.status).toBe(200);
  return ((await pull('attendees', member.token)) as Doc[]).find((doc) => doc.event_id === eventId && doc.user_id === member.id)!;
}

/** The device drops the answer (offline, not knowing the ticket was bought): refused with a notice. */
const dropRefused = (member: { token: string }, row: Doc) =>
  push(member.token, [{ assumedMasterState: row, newDocumentState: { ...row, _deleted: true } }]);

describe('notices of refused pushes', () => {
  it('fold repeats into one, which moves up at most once per pace', async () => {
    const member = await t.member('flood-one');
    const row = await boughtRow(member);
    for (let i = 0; i < 40; i++) expect((await dropRefused(member, row)).status).toBe(200);
    await Promise.all(Array.from({ length: 40 }, () => dropRefused(member, row)));
    const [first, ...more] = await noticeRows(member.id);
    expect(more).toEqual([]);
    expect(first).toMatchObject({ code: 'ticketAlreadyBought', action: 'attendance.remove', is_read: 0 });

    // Within the pace nothing is written, not even a new seq.
    expect((await noticeRows(member.id))[0]!.seq).toBe(first!.seq);
    // After it a repeat moves the one notice to the top again.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + NOTICE_REPEAT_PACE_MS + 1000 });
    await dropRefused(member, row);
    const [moved, ...none] = await noticeRows(member.id);
    expect(none).toEqual([]);
    expect(moved!.id).toBe(first!.id);
    expect(moved!.created_at > first!.created_at).toBe(true);
    expect(Number(moved!.seq)).toBeGreaterThan(Number(first!.seq));

    // Once read, the next refusal makes it unread again: still one row.
    const device = ((await pull('notices', member.token)) as (NoticeDoc & { _deleted: boolean })[]).find(
      (n) => n.id === first!.id,
    )!;
    const read = await t.call('POST', `/api/sync/notices/${SYNC_SCHEMAS.notices.version}/push`, {
      token: member.token,
      body: [{ assumedMasterState: device, newDocumentState: { ...device, is_read: true } }],
    });
    expect(read.status).toBe(200);
    await dropRefused(member, row);
    const [again, ...still] = await noticeRows(member.id);
    expect(still).toEqual([]);
    expect(again).toMatchObject({ id: first!.id, is_read: 0 });
  });

  it(`keep at most ${NOTICES_UNREAD_MAX} unread: the oldest are marked read to make room`, async () => {
    const member = await t.member('flood-many');
    const rows: Doc[] = [];
    for (let i = 0; i < NOTICES_UNREAD_MAX + 5; i++) rows.push(await boughtRow(member));
    // Spread out, so the pace of new notices does not hold any back.
    const start = Date.now();
    for (const [i, row] of rows.entries()) {
      vi.useFakeTimers({ toFake: ['Date'], now: start + (i * NOTICE_REPEAT_PACE_MS) / 4 });
      expect((await dropRefused(member, row)).status).toBe(200);
    }

    const notices = await noticeRows(member.id);
    expect(notices).toHaveLength(NOTICES_UNREAD_MAX + 5);
    expect(notices.filter((notice) => notice.is_read === 0)).toHaveLength(NOTICES_UNREAD_MAX);
    // The five oldest are the read ones; the device hears of it through the sync.
    expect(notices.slice(0, 5).map((notice) => notice.is_read)).toEqual([1, 1, 1, 1, 1]);
    const pulled = (await pull('notices', member.token)) as NoticeDoc[];
    expect(pulled.filter((notice) => !notice.is_read)).toHaveLength(NOTICES_UNREAD_MAX);
  });

  it('grow by one row per kind of refusal at most, also when the device cycles through more refusals than the cap', async () => {
    const member = await t.member('flood-cycle');
    const rows: Doc[] = [];
    for (let i = 0; i < NOTICES_UNREAD_MAX + 5; i++) rows.push(await boughtRow(member));
    // Three rounds through more refused changes than the cap, each round after the pace.
    const start = Date.now();
    for (let round = 0; round < 3; round++) {
      vi.useFakeTimers({ toFake: ['Date'], now: start + round * (NOTICE_REPEAT_PACE_MS + 1000) });
      for (const row of rows) {
        const answer = await dropRefused(member, row);
        // Every refusal is still answered with the server's row (the ticket stays) …
        expect((answer.body as Doc[])[0]).toMatchObject({ id: row.id, _deleted: false });
      }
      const notices = await noticeRows(member.id);
      // … and told: the newest refusals are the unread notices, one row per refused change.
      expect(notices).toHaveLength(NOTICES_UNREAD_MAX + 5);
      const unread = notices.filter((notice) => notice.is_read === 0);
      expect(unread).toHaveLength(NOTICES_UNREAD_MAX);
      expect(new Set(unread.map((notice) => notice.event_id))).toEqual(
        new Set(rows.slice(-NOTICES_UNREAD_MAX).map((row) => row.event_id)),
      );
    }
  });
});
