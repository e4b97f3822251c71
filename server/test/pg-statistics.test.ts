import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { analyzeUnanalyzedTables } from '../src/db/statistics.js';
import { isPostgres, testDatabase } from './helpers.js';

/*
 * A PostgreSQL database filled in bulk gets its planner statistics when the server starts
 * (db/statistics.ts): every table with rows that was never analyzed, and none twice.
 */

let database: Awaited<ReturnType<typeof testDatabase>>;
let db: Kysely<any>;

/** Resolves once PostgreSQL's statistics count the probe's rows as changed since any analyze. */
async function probeCounted(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select coalesce(max(n_mod_since_analyze), 0)::int as n from pg_stat_user_tables where relname = 'probe'`.execute(db);
    if (rows[0]!.n > 0) return;
    if (Date.now() > deadline) throw new Error('PostgreSQL never counted the probe rows');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

beforeAll(async () => {
  database = await testDatabase();
  if (!database) return;
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) });
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe.runIf(isPostgres())('planner statistics at start', () => {
  it('analyzes a table filled in bulk that was never analyzed, and only once', async () => {
    await sql`create table probe (id int primary key, seq int not null)`.execute(db);
    await sql`create table empty_probe (id int primary key)`.execute(db);
    await sql`insert into probe select i, i from generate_series(1, 5000) as i`.execute(db);
    // The backend reports its counts when it is next idle; the one connection makes that this query's end.
    await sql`select pg_stat_force_next_flush()`.execute(db);
    await probeCounted();
    const before = await sql<{ n: number }>`select count(*)::int as n from pg_stats where tablename = 'probe'`.execute(db);
    expect(before.rows[0]!.n).toBe(0);

    expect(await analyzeUnanalyzedTables(db)).toEqual(['probe']);
    const after = await sql<{ n: number }>`select count(*)::int as n from pg_stats where tablename = 'probe'`.execute(db);
    expect(after.rows[0]!.n).toBe(2);
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select * from probe where seq >= 4990`.execute(db);
    // With statistics the planner knows the range holds a few rows, not a third of the table.
    expect(plan.rows[0]!['QUERY PLAN']).toMatch(/rows=1\d\b/);

    await sql`select pg_stat_force_next_flush()`.execute(db);
    expect(await analyzeUnanalyzedTables(db)).toEqual([]);
  });
});
