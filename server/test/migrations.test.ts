import fs from 'node:fs';
import { EVENT_PART_COLLECTIONS, newId } from '@fankurve/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Migrations are found in their folders, and an event's parts are the collections declared
 * `partOfEvent` (docs/architecture.md, "Adding a synced collection").
 */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('migrations', () => {
  it('runs every file of the migrations folders (db/migrations and those of each collection folder), in the order of their names', async () => {
    const collections = new URL('../src/collections/', import.meta.url);
    const folders = [
      new URL('../src/db/migrations/', import.meta.url),
      ...fs
        .readdirSync(collections)
        .map((name) => new URL(`${name}/migrations/`, collections))
        .filter((folder) => fs.existsSync(folder)),
    ];
    const files = folders
      .flatMap((folder) => fs.readdirSync(folder))
      .filter((file) => /^\d{3}_.+\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    expect(files.length).toBeGreaterThanOrEqual(10);
    expect(files).toContain('011_announcements');
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(t.db);
    expect(rows.map((row) => row.name)).toEqual(files);
    // The number is the order: a second one with a number already taken would sort before a migration a
    // running database has done (`022_b` before `022_rides`), and that database would refuse to start.
    const numbers = files.map((file) => file.slice(0, 3));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});

describe('deleting an event', () => {
  it('tombstones the rows of every collection declared part of the event, each with a new seq and time', async () => {
    expect([...EVENT_PART_COLLECTIONS].sort()).toEqual([
      'announcements',
      'attendees',
      'boardings',
      'comments',
      'mentions',
      'offers',
      'poll_votes',
      'polls',
      'ride_seats',
      'rides',
      'transports',
    ]);
    const event = await createEventVia(t, admin, { title: 'Parts of an event (A)' });
    const member = await t.member('TeileToni');
    expect((await t.call('POST', `/api/attendance/${event.id}`, { token: member.token, body: { status: 'going' } })).status).toBe(
      200,
    );
    const transport = await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: event.id, name: 'Bus', price_per_seat: 10, departure_location: 'Stadion' },
    });
    expect(transport.status, JSON.stringify(transport.body)).toBe(201);
    // A boarding tick: the member's seat reserved on the event's only option, ticked by the admin.
    const reserved = await t.call('PUT', `/api/attendance/${event.id}/user/${member.id}/transfer-status`, {
      token: admin,
      body: { transfer_status: 'reserved' },
    });
    expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
    const membersRow = await t.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', event.id)
      .where('user_id', '=', member.id)
      .executeTakeFirstOrThrow();
    const ticked = await t.call('PUT', `/api/transports/${transport.body.transport.id}/boarding/${membersRow.id}`, {
      token: admin,
      body: { on_board: true },
    });
    expect(ticked.status, JSON.stringify(ticked.body)).toBe(200);
    const comment = await t.call('POST', `/api/comments/event/${event.id}`, {
      token: admin,
      body: { comment: 'Wer fährt mit, @TeileToni?' },
    });
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    const announcement = await t.call('POST', '/api/announcements', {
      token: admin,
      body: { title: 'Abfahrt', text: 'Treffpunkt am Bus', event_id: event.id },
    });
    expect(announcement.status, JSON.stringify(announcement.body)).toBe(201);
    const poll = await t.call('POST', '/api/polls', {
      token: admin,
      body: { question: 'Wann fahren wir?', options: ['Früh', 'Spät'], event_id: event.id },
    });
    expect(poll.status, JSON.stringify(poll.body)).toBe(201);
    const voted = await t.call('PUT', `/api/polls/${poll.body.poll.id}/vote`, {
      token: member.token,
      body: { option_ids: [poll.body.options[0].id] },
    });
    expect(voted.status, JSON.stringify(voted.body)).toBe(200);
    const ride = await t.call('POST', `/api/events/${event.id}/rides`, {
      token: member.token,
      body: { seats: 2, departure_location: 'Ostkreuz', departure_datetime: '2030-03-01 11:00' },
    });
    expect(ride.status, JSON.stringify(ride.body)).toBe(201);
    const seat = await t.call('POST', `/api/rides/${ride.body.ride.id}/seats`, { token: admin, body: { seats: 1 } });
    expect(seat.status, JSON.stringify(seat.body)).toBe(201);
    // An offer of a returned ticket, arranged in the table (its way there is server/test/offers.test.ts).
    const { value: seq } = await t.db.selectFrom('counters').select('value').where('name', '=', 'seq').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await t.db
      .insertInto('offers')
      .values({
        id: newId(),
        event_id: event.id,
        attendee_id: newId(),
        user_id: member.id,
        ticket_id: newId(),
        price_cents: 2000,
        expires_at: now,
        state: 'open',
        response: null,
        created_at: now,
        updated_at: now,
        seq: Number(seq),
        deleted: 0,
      })
      .execute();
    const live = async (table: string) =>
      (
        await sql<{
          id: string;
          seq: number;
          updated_at: string;
        }>`SELECT id, seq, updated_at FROM ${sql.table(table)} WHERE event_id = ${event.id} AND deleted = 0`.execute(t.db)
      ).rows;
    const before = new Map<string, { id: string; seq: number; updated_at: string }[]>();
    for (const name of EVENT_PART_COLLECTIONS) {
      before.set(name, await live(name));
      expect(before.get(name), name).toHaveLength(1);
    }

    expect((await t.call('DELETE', `/api/events/${event.id}`, { token: admin })).status).toBe(200);

    for (const name of EVENT_PART_COLLECTIONS) {
      expect(await live(name), name).toEqual([]);
      const [was] = before.get(name)!;
      const { rows } = await sql<{
        seq: number;
        updated_at: string;
        deleted: number;
      }>`SELECT seq, updated_at, deleted FROM ${sql.table(name)} WHERE id = ${was!.id}`.execute(t.db);
      expect(rows[0]!.deleted, name).toBe(1);
      expect(rows[0]!.seq, name).toBeGreaterThan(was!.seq);
      expect(rows[0]!.updated_at >= was!.updated_at, name).toBe(true);
    }
  });
});
