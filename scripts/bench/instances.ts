/**
 * Several instances on one PostgreSQL (docs/architecture.md, "Several instances"): two real server
 * processes A and B on a fresh empty database (same JWT_SECRET, own DATA_DIR and port, as
 * server/test/instances.test.ts starts them), the admin's change stream open on B, and writes through
 * A (the admin creates an event over REST). Per write the time from A's HTTP answer to the `change`
 * event naming `events` on B's stream: the commit's notice through PostgreSQL plus B's batching of
 * changes (100 ms, server/src/sync/stream.ts). Runs where PostgreSQL answers at BENCH_DATABASE_URL or
 * TEST_DATABASE_URL.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { json, signIn } from './http.js';
import { onServerSentEvents } from './sse.js';
import { startAppServer, type Child, type ServerCommand } from './server.js';

export interface InstanceFigures {
  /** Writes through A, each waited for on B's stream before the next. */
  writes: number;
  /** Per write: A's HTTP answer → the `change` event on B's stream (negative: the event came first). */
  latenciesMs: number[];
  medianMs: number;
  maxMs: number;
  /** Median of A's answer times (request sent → answered), for scale. */
  writeMedianMs: number;
}

/** Figures, or why the part did not run. */
export type InstancesResult = InstanceFigures | { skipped: string };

export interface InstancesInput {
  /** A PostgreSQL URL that answers; the bench creates and drops its own database beside it. */
  databaseUrl: string;
  workDir: string;
  command: ServerCommand;
  jwtSecret: string;
  adminPassword: string;
  writes: number;
  log(message: string): void;
}

/** After a change event: longer than the stream's 100 ms batch, so each write gets an event of its own. */
const QUIET_MS = 200;
const CHANGE_TIMEOUT_MS = 5000;

/** The PostgreSQL URL the part runs on, or why there is none (no variable set, or no answer there). */
export async function postgresUrl(): Promise<{ url: string } | { skipped: string }> {
  const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!url) return { skipped: 'no PostgreSQL (set BENCH_DATABASE_URL or TEST_DATABASE_URL)' };
  try {
    await sql(url, 'SELECT 1');
    return { url };
  } catch (error) {
    return { skipped: `no PostgreSQL (${redact(url)}: ${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The URL without its password, for the table. */
function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

async function sql(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh database beside the one `base` names (as server/test/helpers.ts testDatabase does). */
export async function freshDatabase(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fankurve_bench_${process.pid}_${Date.now()}`;
  await sql(base, `CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => sql(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

interface StreamEvent {
  event: string;
  data: string;
  at: number;
}

/** A change stream read with node:http as it arrives: every event with the time it came. */
function openStream(baseUrl: string, token: string) {
  const events: StreamEvent[] = [];
  const agent = new http.Agent({ keepAlive: false });
  const req = http.get(
    `${baseUrl}/api/sync/stream`,
    { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
    (res) => {
      res.setEncoding('utf8');
      res.on(
        'data',
        onServerSentEvents((event, data) => events.push({ event, data, at: performance.now() })),
      );
      res.on('error', () => undefined);
    },
  );
  req.on('error', () => undefined);
  return {
    events,
    /** The first event from index `from` on that matches, waited for up to timeoutMs. */
    async waitFor(from: number, match: (event: StreamEvent) => boolean, timeoutMs: number): Promise<StreamEvent> {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        const found = events.slice(from).find(match);
        if (found) return found;
        await sleep(2);
      }
      throw new Error(`no matching event on B's stream within ${timeoutMs} ms (got ${events.map((e) => e.event).join(', ')})`);
    },
    close() {
      req.destroy();
      agent.destroy();
    },
  };
}

const namesEvents = (event: StreamEvent) =>
  event.event === 'change' && (JSON.parse(event.data) as { collections: string[] }).collections.includes('events');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function startInstance(name: string, databaseUrl: string, input: InstancesInput): Promise<Child> {
  const dataDir = path.join(input.workDir, `instance-${name}`);
  fs.mkdirSync(dataDir, { recursive: true });
  return startAppServer({
    dataDir,
    adminPassword: input.adminPassword,
    jwtSecret: input.jwtSecret,
    command: input.command,
    clientDir: path.join(dataDir, 'no-client'),
    databaseUrl,
  });
}

/** The writes through A, each timed from A's answer to B's change event. */
async function timeWrites(a: Child, b: Child, token: string, writes: number) {
  const stream = openStream(b.baseUrl, token);
  try {
    await stream.waitFor(0, (event) => event.event === 'ready', CHANGE_TIMEOUT_MS);
    const latencies: number[] = [];
    const answers: number[] = [];
    for (let i = 0; i < writes; i++) {
      const from = stream.events.length;
      const sent = performance.now();
      await json(`${a.baseUrl}/api/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: { title: `Across instances ${i + 1} (H)`, date: '2030-05-01 15:30', location: 'Stadion' },
      });
      const answered = performance.now();
      const change = await stream.waitFor(from, namesEvents, CHANGE_TIMEOUT_MS);
      latencies.push(change.at - answered);
      answers.push(answered - sent);
      await sleep(QUIET_MS);
    }
    return { latencies, answers };
  } finally {
    stream.close();
  }
}

export async function benchInstances(input: InstancesInput): Promise<InstanceFigures> {
  const database = await freshDatabase(input.databaseUrl);
  let a: Child | undefined;
  let b: Child | undefined;
  try {
    // A first: it migrates the empty database and creates the admin; then B joins it.
    a = await startInstance('a', database.url, input);
    b = await startInstance('b', database.url, input);
    input.log(`  instances A ${a.baseUrl}, B ${b.baseUrl}; ${input.writes} writes through A…`);
    const token = await signIn(a.baseUrl, 'admin', input.adminPassword);
    const { latencies, answers } = await timeWrites(a, b, token, input.writes);
    return {
      writes: latencies.length,
      latenciesMs: latencies.map((v) => Math.round(v * 10) / 10),
      medianMs: median(latencies),
      maxMs: Math.max(...latencies),
      writeMedianMs: median(answers),
    };
  } finally {
    await Promise.all([a?.stop(), b?.stop()]);
    await database.drop();
  }
}
