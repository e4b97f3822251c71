import { sql, type Kysely } from 'kysely';

/*
 * PostgreSQL's planner statistics (docs/architecture.md, "Several instances"). A database filled in
 * bulk (a restore, a copy from SQLite, an import) has none until autovacuum gets round to it, and
 * until then the planner guesses: the write steps that read "the rows this transaction wrote" by seq
 * walked every attendee row (8 ms instead of 0.03 ms), inside the lock all writers share.
 */

/** Analyzes each of the schema's tables that has rows but was never analyzed; the names of those done. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs beside the migrations, on any schema
export async function analyzeUnanalyzedTables(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_stat_user_tables
    where schemaname = current_schema() and last_analyze is null and last_autoanalyze is null and n_mod_since_analyze > 0
    order by relname`.execute(db);
  for (const { name } of rows) await sql`analyze ${sql.id(name)}`.execute(db);
  return rows.map((row) => row.name);
}
