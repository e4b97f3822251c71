import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write } from '../src/db/store.js';
import { createTestApp, isPostgres, type TestApp } from './helpers.js';

/*
 * On PostgreSQL a write transaction takes a connection of the writers' pool (db/connection.ts): with
 * every reading connection busy (on match day, thousands of pulls), an answer is still written at
 * once instead of waiting in the readers' queue.
 */

let t: TestApp;

/** Resolves once the readers' whole pool (10) runs the slow reads, as PostgreSQL itself reports. */
async function everyReadingConnectionAsleep(db: Kysely<Database>): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND state = 'active' AND query LIKE 'SELECT pg_sleep%'`.execute(db);
    if (rows[0]!.n >= 10) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe.runIf(isPostgres())('write transactions on PostgreSQL', () => {
  it('run on connections of their own, not behind reads that hold every reading connection', async () => {
    const store = t.runtime.deps.store;
    expect(store.writer).toBeDefined();
    // Twenty slow reads: ten hold the readers' pool for 1.5 s, ten more wait for it.
    const reads = Array.from({ length: 20 }, () => sql`SELECT pg_sleep(1.5)`.execute(store.db));
    await everyReadingConnectionAsleep(store.writer!);
    const started = performance.now();
    const seq = await write(store, (w) => w.nextSeq('events'));
    const took = performance.now() - started;
    expect(seq).toBeGreaterThan(0);
    expect(took).toBeLessThan(1000);
    await Promise.all(reads);
  });
});

describe.skipIf(isPostgres())('write transactions on SQLite', () => {
  it('run on the one connection there is', () => {
    expect(t.runtime.deps.store.writer).toBeUndefined();
  });
});
