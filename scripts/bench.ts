/**
 * Measures the hot paths of the sync server on a real SQLite file (or PostgreSQL with DATABASE_URL):
 * the REST events list with counts, a full pull of every collection as a new device does it, and
 * pushes of attendance rows. Prints one line per figure; `npm run bench`.
 */
import { newId } from '@fankurve/shared';
import { performance } from 'node:perf_hooks';
import { createTestApp } from '../server/test/helpers.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 150);
const ANSWERS_PER_EVENT = Number(process.env.BENCH_ANSWERS ?? 40);

async function time<T>(label: string, runs: number, fn: () => Promise<T>): Promise<void> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  const p95 = samples[Math.floor(samples.length * 0.95)] ?? median;
  console.log(`${label.padEnd(52)} median ${median.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms`);
}

const t = await createTestApp({ DATABASE_URL: process.env.DATABASE_URL ?? '' });
const db = t.runtime.deps.store.db;
const now = new Date().toISOString();
console.log(
  `Seeding ${EVENTS} events, ${MEMBERS} members, ${EVENTS * ANSWERS_PER_EVENT} attendances (${t.runtime.connection.dialect})…`,
);

let seq = 1_000_000;
const memberIds = Array.from({ length: MEMBERS }, () => newId());
await db
  .insertInto('users')
  .values(
    memberIds.map((id, i) => ({
      id,
      username: `fan${i}`,
      email: `fan${i}@example.org`,
      password_hash: 'x',
      scope: 'user' as const,
      status: 'active' as const,
      language: 'de' as const,
      must_change_password: 0,
      token_version: 0,
      created_at: now,
      updated_at: now,
      seq: seq++,
    })),
  )
  .execute();
const eventIds = Array.from({ length: EVENTS }, () => newId());
for (let i = 0; i < EVENTS; i += 100) {
  await db
    .insertInto('events')
    .values(
      eventIds.slice(i, i + 100).map((id, j) => ({
        id,
        title: `Match ${i + j} (A)`,
        description: null,
        date: `2026-${String(((i + j) % 12) + 1).padStart(2, '0')}-10 15:30:00`,
        location: 'Stadion',
        stadium_id: null,
        ticket_price_cents: 2500,
        ticket_buyer: null,
        is_updated: 0,
        created_by: null,
        image_filename: null,
        external_match_id: null,
        created_at: now,
        updated_at: now,
        seq: seq++,
      })),
    )
    .execute();
}
for (const eventId of eventIds) {
  await db
    .insertInto('attendees')
    .values(
      memberIds.slice(0, ANSWERS_PER_EVENT).map((userId, k) => ({
        id: newId(),
        event_id: eventId,
        user_id: userId,
        guest_name: null,
        brought_by: null,
        status: k % 3 === 0 ? ('maybe' as const) : ('going' as const),
        needs_ticket: 1,
        has_ticket: 0,
        needs_transport: 1,
        transfer_status: 'outstanding' as const,
        paid_by: null,
        ticket_price_id: null,
        ticket_type: null,
        price_cents: null,
        is_free: 0,
        is_price_tbd: 0,
        bought: 0,
        paid: 0,
        received: 0,
        paid_requested: 0,
        paid_requested_at: null,
        received_requested: 0,
        received_requested_at: null,
        created_at: now,
        updated_at: now,
        seq: seq++,
      })),
    )
    .execute();
}
await db.updateTable('counters').set({ value: seq }).where('name', '=', 'seq').execute();

const member = await t.member('benchfan');
const token = member.token;

await time(`GET /api/events (${EVENTS} events with counts)`, 20, async () => {
  const res = await t.call('GET', '/api/events', { token });
  if (res.status !== 200) throw new Error(`events ${res.status}`);
});

await time(`full pull of attendees (${EVENTS * ANSWERS_PER_EVENT} rows, batches of 200)`, 5, async () => {
  let checkpoint: unknown = null;
  for (;;) {
    const res = await t.call('POST', '/api/sync/attendees/0/pull', { token, body: { checkpoint, limit: 200 } });
    if (res.body.documents.length === 0) break;
    checkpoint = res.body.checkpoint;
  }
});

await time(`full pull of events (${EVENTS})`, 10, async () => {
  let checkpoint: unknown = null;
  for (;;) {
    const res = await t.call('POST', '/api/sync/events/0/pull', { token, body: { checkpoint, limit: 200 } });
    if (res.body.documents.length === 0) break;
    checkpoint = res.body.checkpoint;
  }
});

let pushIndex = 0;
await time('push of 20 own attendance rows (one batch)', 10, async () => {
  const rows = eventIds.slice((pushIndex * 20) % EVENTS, ((pushIndex * 20) % EVENTS) + 20).map((eventId) => ({
    assumedMasterState: null,
    newDocumentState: {
      id: newId(),
      event_id: eventId,
      user_id: member.id,
      status: pushIndex % 2 ? 'going' : 'maybe',
      needs_ticket: true,
      has_ticket: false,
      needs_transport: true,
      _deleted: false,
    },
  }));
  pushIndex++;
  const res = await t.call('POST', '/api/sync/attendees/0/push', { token, body: rows });
  if (res.status !== 200) throw new Error(`push ${res.status}`);
});

const memory = process.memoryUsage();
console.log(
  `${'server process memory after the run'.padEnd(52)} rss ${(memory.rss / 1048576).toFixed(0)} MiB, heap ${(memory.heapUsed / 1048576).toFixed(0)} MiB`,
);
await t.close();
