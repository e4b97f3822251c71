import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/*
 * The job table's statements (docs/architecture.md, "Jobs"). A claim is one UPDATE whose condition
 * (due, and unclaimed or its lease run out) only one instance can meet: the database decides, on
 * SQLite and PostgreSQL alike. Times are ISO 8601 UTC strings, which compare as text.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** Adds the job's row unless it exists (a restart keeps its due time). */
export async function ensureJob(db: Db, name: string, dueAt: string | null): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ name, due_at: dueAt, claimed_by: null, claimed_until: null, last_run_at: null, last_error: null })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** The jobs due at `now` that nobody holds (or whose holder's lease ran out). */
export async function dueJobs(db: Db, now: string): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('name')
    .where('due_at', 'is not', null)
    .where('due_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('due_at')
    .execute();
  return rows.map((row) => row.name);
}

/** Claims a due job for `owner` until `until`; false when another instance has it or it is not due. */
export async function claimJob(db: Db, name: string, owner: string, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ claimed_by: owner, claimed_until: until })
    .where('name', '=', name)
    .where('due_at', 'is not', null)
    .where('due_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends the lease of a running job; false when it is no longer the owner's. */
export async function renewClaim(db: Db, name: string, owner: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ claimed_until: until })
    .where('name', '=', name)
    .where('claimed_by', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Ends a run: releases the claim, notes the run, and sets the next due time that `nextDue` decides
 * inside the same transaction, after the row is locked. False when the claim was lost meanwhile
 * (its lease ran out and another instance took the job over): then nothing changes.
 */
export async function finishJob(
  db: Kysely<Database>,
  name: string,
  owner: string,
  run: { at: string; error: string | null },
  nextDue: (trx: Transaction<Database>) => Promise<string | null>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const released = await trx
      .updateTable('jobs')
      .set({ claimed_by: null, claimed_until: null, last_run_at: run.at, last_error: run.error })
      .where('name', '=', name)
      .where('claimed_by', '=', owner)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) !== 1) return false;
    const dueAt = await nextDue(trx);
    await trx.updateTable('jobs').set({ due_at: dueAt }).where('name', '=', name).execute();
    return true;
  });
}

/**
 * Makes a job due at `dueAt` unless it already has a due time (a window already open stays as it
 * is); answers the due time that holds. The upsert locks the row, so it waits for a run's
 * `finishJob` and then sees its result.
 */
export async function scheduleJob(db: Db, name: string, dueAt: string): Promise<string> {
  const row = await db
    .insertInto('jobs')
    .values({ name, due_at: dueAt, claimed_by: null, claimed_until: null, last_run_at: null, last_error: null })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ due_at: eb.fn.coalesce('jobs.due_at', 'excluded.due_at') })))
    .returning('due_at')
    .executeTakeFirstOrThrow();
  return row.due_at ?? dueAt;
}

/** Releases every claim of `owner` (shutdown): another instance may take the jobs over at once. */
export async function releaseClaims(db: Db, owner: string): Promise<void> {
  await db.updateTable('jobs').set({ claimed_by: null, claimed_until: null }).where('claimed_by', '=', owner).execute();
}

/**
 * Makes a job due at `dueAt` at the latest: an earlier due time stays, a later one (or none) is moved
 * up. Like `scheduleJob` it locks the row, so it waits for a run's `finishJob` and then sees its result.
 */
export async function scheduleJobBy(db: Db, name: string, dueAt: string): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ name, due_at: dueAt, claimed_by: null, claimed_until: null, last_run_at: null, last_error: null })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({
        due_at: eb
          .case()
          .when(eb.or([eb('jobs.due_at', 'is', null), eb('jobs.due_at', '>', eb.ref('excluded.due_at'))]))
          .then(eb.ref('excluded.due_at'))
          .else(eb.ref('jobs.due_at'))
          .end(),
      })),
    )
    .execute();
}
