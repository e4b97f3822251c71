import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scheduleJob } from '../src/db/jobs.js';
import type { Job } from '../src/jobs/runner.js';
import { AdminDigest } from '../src/mail/adminDigest.js';
import type { Mail, Mailer } from '../src/mail/mailer.js';
import { ADMIN, createTestApp, register, testDatabase, type TestApp } from './helpers.js';

/*
 * Scheduled work claimed in the database (docs/architecture.md, "Jobs"): instances of the app on one
 * database (one SQLite file, or one PostgreSQL database when TEST_DATABASE_URL is set), each with
 * its own job runner looking every 20 ms.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let shared: { env: Record<string, string>; drop(): Promise<void> } | null = null;
const open: TestApp[] = [];

/** The settings of one database that every instance of a test shares. */
async function sharedDatabase(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-jobs-'));
  const database = await testDatabase();
  shared = {
    env: { DATA_DIR: dataDir, JOB_INTERVAL_SECONDS: '0.02', ...(database ? { DATABASE_URL: database.url } : {}) },
    drop: async () => {
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return shared.env;
}

/** One more instance on the shared database (started one after another: migrations run once). */
async function instance(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp(env);
  open.push(t);
  return t;
}

async function stopInstance(t: TestApp): Promise<void> {
  await t.runtime.jobs.stop();
  open.splice(open.indexOf(t), 1);
  await t.close();
}

afterEach(async () => {
  for (const t of open.splice(0)) {
    await t.runtime.jobs.stop();
    await t.close();
  }
  await shared?.drop();
  shared = null;
});

/** A job that notes every run with the instance that ran it and takes `ms` doing so. */
function recordingJob(name: string, runs: string[], t: TestApp, options: { ms?: number; nextDue?: () => Date | null } = {}): Job {
  return {
    name,
    firstDue: () => null,
    run: async () => {
      runs.push(t.runtime.jobs.owner);
      await sleep(options.ms ?? 50);
      return null;
    },
    nextDue: async () => options.nextDue?.() ?? null,
  };
}

const jobRow = (t: TestApp, name: string) =>
  t.db.selectFrom('jobs').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

describe('jobs claimed in the database', () => {
  it('runs a due job exactly once across two instances', async () => {
    const env = await sharedDatabase();
    const a = await instance(env);
    const b = await instance(env);
    const runs: string[] = [];
    for (const t of [a, b]) t.runtime.jobs.register(recordingJob('test-once', runs, t, { ms: 100 }));
    await scheduleJob(a.db, 'test-once', new Date().toISOString());
    await vi.waitFor(async () => expect((await jobRow(a, 'test-once')).last_run_at).not.toBeNull(), { timeout: 5_000 });
    // Both runners look once more: the job is no longer due, so neither runs it again.
    expect([...(await a.runtime.jobs.tick()), ...(await b.runtime.jobs.tick())]).toEqual([]);
    expect(runs).toHaveLength(1);
    const row = await jobRow(a, 'test-once');
    expect(row).toMatchObject({ due_at: null, claimed_by: null, claimed_until: null, last_error: null });
    expect(row.last_run_at).not.toBeNull();

    // Due again: still one run per due time, whichever instance claims it.
    await scheduleJob(b.db, 'test-once', new Date().toISOString());
    await vi.waitFor(() => expect(runs).toHaveLength(2), { timeout: 5_000 });
    await vi.waitFor(async () => expect((await jobRow(a, 'test-once')).claimed_by).toBeNull(), { timeout: 5_000 });
    expect([...(await a.runtime.jobs.tick()), ...(await b.runtime.jobs.tick())]).toEqual([]);
    expect(runs).toHaveLength(2);
  });

  it('takes over a claim whose lease ran out, and leaves a live one alone', async () => {
    const env = await sharedDatabase();
    const a = await instance(env);
    const b = await instance(env);
    const runs: string[] = [];
    const past = new Date(Date.now() - 60_000).toISOString();
    const claimedRow = (name: string, by: string, until: number) =>
      a.db
        .insertInto('jobs')
        .values({
          name,
          due_at: past,
          claimed_by: by,
          claimed_until: new Date(until).toISOString(),
          last_run_at: null,
          last_error: null,
        })
        .execute();
    // An instance that died while running: its lease ended a second ago.
    await claimedRow('test-orphaned', 'dead-instance', Date.now() - 1000);
    // An instance that is alive and running it: its lease lasts.
    await claimedRow('test-held', 'live-instance', Date.now() + 600_000);
    for (const t of [a, b]) {
      t.runtime.jobs.register(recordingJob('test-orphaned', runs, t));
      t.runtime.jobs.register(recordingJob('test-held', runs, t));
    }
    await vi.waitFor(async () => expect(await jobRow(a, 'test-orphaned')).toMatchObject({ claimed_by: null }), {
      timeout: 5_000,
    });
    expect([...(await a.runtime.jobs.tick()), ...(await b.runtime.jobs.tick())]).toEqual([]);
    expect(runs).toHaveLength(1);
    expect([a.runtime.jobs.owner, b.runtime.jobs.owner]).toContain(runs[0]);
    expect(await jobRow(a, 'test-orphaned')).toMatchObject({ due_at: null, claimed_by: null });
    expect(await jobRow(a, 'test-held')).toMatchObject({ due_at: past, claimed_by: 'live-instance' });
  });

  it('runs nothing twice after a restart and loses no due job', async () => {
    const env = await sharedDatabase();
    const a = await instance(env);
    const b = await instance(env);
    const runs: string[] = [];
    const hourly = () => new Date(Date.now() + 60 * 60 * 1000);
    for (const t of [a, b]) {
      t.runtime.jobs.register({ ...recordingJob('test-hourly', runs, t, { nextDue: hourly }), firstDue: (now) => now });
      t.runtime.jobs.register(recordingJob('test-later', runs, t));
    }
    await vi.waitFor(async () => expect((await jobRow(a, 'test-hourly')).last_run_at).not.toBeNull(), { timeout: 5_000 });
    await vi.waitFor(async () => expect((await jobRow(a, 'test-hourly')).claimed_by).toBeNull(), { timeout: 5_000 });
    expect([...(await a.runtime.jobs.tick()), ...(await b.runtime.jobs.tick())]).toEqual([]);
    expect(runs).toHaveLength(1);
    // Due after both instances have stopped.
    await a.runtime.jobs.stop();
    await b.runtime.jobs.stop();
    await scheduleJob(a.db, 'test-later', new Date(Date.now() + 200).toISOString());
    await stopInstance(a);
    await stopInstance(b);
    expect(runs).toHaveLength(1);

    const c = await instance(env);
    c.runtime.jobs.register({ ...recordingJob('test-hourly', runs, c, { nextDue: hourly }), firstDue: (now) => now });
    c.runtime.jobs.register(recordingJob('test-later', runs, c));
    await vi.waitFor(() => expect(runs).toEqual([expect.any(String), c.runtime.jobs.owner]), { timeout: 5_000 });
    await vi.waitFor(async () => expect((await jobRow(c, 'test-later')).claimed_by).toBeNull(), { timeout: 5_000 });
    expect((await jobRow(c, 'test-later')).due_at).toBeNull();
    expect(Date.parse((await jobRow(c, 'test-hourly')).due_at!)).toBeGreaterThan(Date.now() + 50 * 60 * 1000);
  });

  it('releases its claims when it stops', async () => {
    const env = await sharedDatabase();
    const a = await instance(env);
    const runs: string[] = [];
    a.runtime.jobs.register(recordingJob('test-slow', runs, a, { ms: 200 }));
    await scheduleJob(a.db, 'test-slow', new Date().toISOString());
    await vi.waitFor(() => expect(runs).toHaveLength(1), { timeout: 5_000 });
    expect((await jobRow(a, 'test-slow')).claimed_by).toBe(a.runtime.jobs.owner);
    // The running job finishes first, then the claim is released and nothing runs any more.
    await a.runtime.jobs.stop();
    expect(await jobRow(a, 'test-slow')).toMatchObject({ claimed_by: null, claimed_until: null, due_at: null });
    await scheduleJob(a.db, 'test-slow', new Date().toISOString());
    await sleep(100);
    expect(runs).toHaveLength(1);
  });

  it("sends one admins' digest per window from two instances, and keeps an open window over a restart", async () => {
    const env = await sharedDatabase();
    const a = await instance(env);
    const b = await instance(env);
    await a.db.updateTable('users').set({ email: 'boss@club.example' }).where('username', '=', ADMIN.username).execute();
    const sent: Mail[] = [];
    // A mailer that keeps what it sends (the real SMTP path has its test in recovery.test.ts).
    const mailer = { configured: true, send: async (mail: Mail) => void sent.push(mail) } as unknown as Mailer;
    const digestOf = (t: TestApp) =>
      AdminDigest.subscribedTo(t.runtime.deps.store, mailer, t.runtime.deps.config, t.runtime.jobs, 1000);
    digestOf(a);
    digestOf(b);
    expect((await register(a, 'digest-a')).status).toBe(201);
    expect((await register(b, 'digest-b')).status).toBe(201);
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 5_000 });
    expect(sent[0]!.to).toBe('boss@club.example');
    expect(sent[0]!.text).toContain('digest-a');
    expect(sent[0]!.text).toContain('digest-b');

    // A window opened just before every instance stops is sent by the next one to start.
    expect((await register(a, 'digest-c')).status).toBe(201);
    // The digest notes it after the commit.
    await vi.waitFor(async () => expect(await a.db.selectFrom('admin_digest_items').select('id').execute()).toHaveLength(1), {
      timeout: 5_000,
    });
    await a.runtime.jobs.stop();
    await b.runtime.jobs.stop();
    await stopInstance(a);
    await stopInstance(b);
    expect(sent).toHaveLength(1);
    const c = await instance(env);
    digestOf(c);
    await vi.waitFor(() => expect(sent).toHaveLength(2), { timeout: 5_000 });
    expect(sent[1]!.text).toContain('digest-c');
    expect(sent[1]!.text).not.toContain('digest-a');
  });
});
