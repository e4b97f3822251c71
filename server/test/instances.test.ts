import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedCounters, SharedGuessThrottle, SharedRateLimit } from '../src/auth/sharedThrottle.js';
import type { GuessTicket } from '../src/auth/throttle.js';
import { DomainError } from '../src/domain/errors.js';
import { ADMIN, createTestApp, testDatabase, type TestApp } from './helpers.js';

/*
 * Several instances on one PostgreSQL (docs/architecture.md, "Several instances"): two real server
 * processes (`node --import tsx server/src/main.ts`) on one fresh database, each with its own
 * DATA_DIR and port and the same JWT_SECRET. Only where TEST_DATABASE_URL answers.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const JWT_SECRET = 'instances-test-secret-instances-test-secret';
/** The time a change may take from one instance to the other. */
const SIGNAL_MS = 500;

interface Instance {
  url: string;
  process: ChildProcess;
  dataDir: string;
  output: string[];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startInstance(databaseUrl: string): Promise<Instance> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-instance-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TEST_DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      INIT_CWD: ROOT,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET,
      CLIENT_DIR: path.join(dataDir, 'no-client'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const instance = { url: `http://127.0.0.1:${port}`, process: child, dataDir, output };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance exited: ${output.join('')}`);
    try {
      if ((await fetch(`${instance.url}/robots.txt`)).ok) return instance;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`instance did not start: ${output.join('')}`);
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance) return;
  if (instance.process.exitCode === null) {
    const exited = new Promise((resolve) => instance.process.once('exit', resolve));
    instance.process.kill('SIGTERM');
    const timer = setTimeout(() => instance.process.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  fs.rmSync(instance.dataDir, { recursive: true, force: true });
}

async function call(instance: Instance, method: string, url: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${instance.url}${url}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body };
}

async function login(instance: Instance, username: string, password: string): Promise<string> {
  const res = await call(instance, 'POST', '/api/auth/login', { body: { username, password } });
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

interface StreamEvent {
  event: string;
  data: string;
  at: number;
}

/** A change stream read as it arrives: every event with the time it came. */
function openStream(instance: Instance, token: string) {
  const events: StreamEvent[] = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${instance.url}/api/sync/stream`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        if (event) events.push({ event, data: /^data: (.*)$/m.exec(block)?.[1] ?? '', at: performance.now() });
      }
    }
  })().catch(() => undefined);
  return {
    events,
    async waitFor(match: (event: StreamEvent) => boolean, timeoutMs: number): Promise<StreamEvent> {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        const found = events.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`no matching stream event within ${timeoutMs} ms: ${JSON.stringify(events)}`);
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

/** Calls until `check` holds; returns how long it took (ms), or throws after `timeoutMs`. */
async function within(timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    if (await check()) return performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`not within ${timeoutMs} ms`);
}

const database = process.env.TEST_DATABASE_URL ? await testDatabase() : null;

describe.skipIf(!database)('several instances on one PostgreSQL', () => {
  let a: Instance | undefined;
  let b: Instance | undefined;

  beforeAll(async () => {
    // A first: it migrates the fresh database and creates the admin; then B joins it.
    a = await startInstance(database!.url);
    b = await startInstance(database!.url);
  });

  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
    await database?.drop();
  });

  it("tells a change through A on B's change stream within 500 ms, and B's events list shows it at once", async () => {
    const token = await login(a!, ADMIN.username, ADMIN.password);
    // B's list is built and cached before the change.
    const before = await call(b!, 'GET', '/api/events', { token });
    expect(before.status).toBe(200);
    const stream = openStream(b!, token);
    try {
      await stream.waitFor((event) => event.event === 'ready', 5000);
      const sent = performance.now();
      const created = await call(a!, 'POST', '/api/events', {
        token,
        body: { title: 'Across instances (H)', date: '2030-05-01 15:30', location: 'Stadion' },
      });
      expect(created.status).toBe(201);
      const answered = performance.now();
      const list = await call(b!, 'GET', '/api/events', { token });
      expect(list.body.events.map((event: { id: string }) => event.id)).toContain(created.body.event.id);
      const change = await stream.waitFor(
        (event) => event.event === 'change' && JSON.parse(event.data).collections.includes('events'),
        SIGNAL_MS + 2000,
      );
      const latency = change.at - answered;
      console.log(
        `change on B's stream ${Math.round(latency)} ms after A answered (${Math.round(change.at - sent)} ms after the request; streams batch 100 ms)`,
      );
      expect(latency).toBeLessThan(SIGNAL_MS);
    } finally {
      await stream.close();
    }
  });

  it('ends a session on B within 500 ms when it is signed out on A', async () => {
    const token = await login(a!, ADMIN.username, ADMIN.password);
    expect((await call(b!, 'GET', '/api/auth/profile', { token })).status).toBe(200);
    expect((await call(a!, 'POST', '/api/auth/logout', { token })).status).toBe(200);
    const took = await within(SIGNAL_MS, async () => (await call(b!, 'GET', '/api/auth/profile', { token })).status === 401);
    console.log(`signed-out token refused on B after ${Math.round(took)} ms`);
  });

  it("makes the old token fail on B within 500 ms after a password change on A, and ends B's stream", async () => {
    const token = await login(b!, ADMIN.username, ADMIN.password);
    expect((await call(b!, 'GET', '/api/auth/profile', { token })).status).toBe(200);
    const stream = openStream(b!, token);
    try {
      await stream.waitFor((event) => event.event === 'ready', 5000);
      const changed = await call(a!, 'POST', '/api/auth/change-password', {
        token,
        body: { currentPassword: ADMIN.password, newPassword: 'changed-on-a-1' },
      });
      expect(changed.status).toBe(200);
      const took = await within(SIGNAL_MS, async () => (await call(b!, 'GET', '/api/auth/profile', { token })).status === 401);
      console.log(`old token refused on B ${Math.round(took)} ms after the password change on A`);
      await stream.waitFor((event) => event.event === 'unauthorized', SIGNAL_MS);
      expect((await call(b!, 'GET', '/api/auth/profile', { token: changed.body.token })).status).toBe(200);
    } finally {
      await stream.close();
    }
  });

  it('throttles sign-in guesses spread over A and B together', async () => {
    // An account this address never signed in to: 5 failures free, then a delay (as on one instance).
    const guess = (instance: Instance) =>
      call(instance, 'POST', '/api/auth/login', { body: { username: 'nobody-here', password: 'wrong-guess' } });
    for (const instance of [a!, b!, a!, b!, a!]) expect((await guess(instance)).status).toBe(401);
    const refused = await guess(b!);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('signInDelayed');

    // The admin signed in from here before (trusted: no delay), yet at most 10 failures per account and address.
    const wrong = (instance: Instance) =>
      call(instance, 'POST', '/api/auth/login', { body: { username: ADMIN.username, password: 'not-the-password' } });
    for (let i = 0; i < 10; i++) expect((await wrong(i % 2 === 0 ? a! : b!)).status).toBe(401);
    const limited = await wrong(a!);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('tooManyLoginAttempts');
    expect((await wrong(b!)).status).toBe(429);
  });
});

/** The error code a throttle call throws, or the ticket. */
async function outcome(call: () => Promise<GuessTicket>): Promise<string | GuessTicket> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DomainError) return `${error.code}:${error.status}`;
    throw error;
  }
}

// The rules of throttle.test.ts, counted in the database (on SQLite too, where the server keeps them in memory).
describe('the throttle and limits counted in the database', () => {
  let t: TestApp;
  let counters: SharedCounters;
  beforeAll(async () => {
    t = await createTestApp();
    counters = new SharedCounters(t.db);
  });
  afterAll(() => t.close());

  it('counts attempts as they arrive: of 40 parallel guesses on one account only 5 are checked', async () => {
    const throttle = new SharedGuessThrottle(counters);
    const now = 1_000_000;
    const results = await Promise.all(Array.from({ length: 40 }, () => outcome(() => throttle.begin('fan-1', '10.0.0.1', now))));
    expect(results.filter((r) => typeof r !== 'string')).toHaveLength(5);
    // Checked at once, some meet the account+address limit first (10 taken, given back when the account refuses).
    expect(results.filter((r) => r === 'signInDelayed:429' || r === 'tooManyLoginAttempts:429')).toHaveLength(35);
  });

  it('delays an account with a doubling wait instead of locking it', async () => {
    const throttle = new SharedGuessThrottle(counters);
    let now = 2_000_000;
    for (let i = 0; i < 5; i++) await (await throttle.begin('fan-2', `10.0.0.${i}`, now)).failed(now);
    expect(await outcome(() => throttle.begin('fan-2', '10.9.9.9', now + 500))).toBe('signInDelayed:429');
    now += 1000;
    await (await throttle.begin('fan-2', '10.9.9.9', now)).failed(now);
    expect(await outcome(() => throttle.begin('fan-2', '10.9.9.9', now + 1500))).toBe('signInDelayed:429');
    now += 2000;
    await (await throttle.begin('fan-2', '10.9.9.9', now)).failed(now);
    expect(typeof (await outcome(() => throttle.begin('fan-2', '10.7.7.7', now + 60_000)))).toBe('object');
  });

  it('lets the owner sign in from an address or device that signed in before while others guess', async () => {
    const throttle = new SharedGuessThrottle(counters);
    const now = 3_000_000;
    await (await throttle.begin('fan-3', { address: 'home', device: 'phone' }, now)).succeeded();
    for (let i = 0; i < 8; i++) {
      const attempt = await outcome(() => throttle.begin('fan-3', `attacker-${i}`, now + i));
      if (typeof attempt !== 'string') await attempt.failed(now + i);
    }
    expect(await outcome(() => throttle.begin('fan-3', 'attacker-x', now + 10))).toBe('signInDelayed:429');
    expect(typeof (await outcome(() => throttle.begin('fan-3', 'home', now + 10)))).toBe('object');
    const onTheRoad = await outcome(() => throttle.begin('fan-3', { address: 'stadium', device: 'phone' }, now + 10));
    expect(typeof onTheRoad === 'object' && onTheRoad.trusted).toBe(true);
  });

  it('locks one account for one address after 10 failed or running attempts; other addresses go on', async () => {
    const window = 15 * 60 * 1000;
    const limits = { windowMs: window, pairMax: 10, addressMax: 30, freeFailures: 100, maxDelayMs: 60_000 };
    const throttle = new SharedGuessThrottle(counters, limits);
    const now = 4_000_000;
    for (let i = 0; i < 9; i++) await (await throttle.begin('fan-4', 'ip-4', now)).failed(now);
    const running = await throttle.begin('fan-4', 'ip-4', now);
    expect(await outcome(() => throttle.begin('fan-4', 'ip-4', now))).toBe('tooManyLoginAttempts:429');
    expect(typeof (await outcome(() => throttle.begin('fan-4', 'other-ip', now)))).toBe('object');
    await running.cancelled();
    expect(typeof (await outcome(() => throttle.begin('fan-4', 'ip-4', now)))).toBe('object');
    expect(typeof (await outcome(() => throttle.begin('fan-4', 'ip-4', now + window + 1)))).toBe('object');
  });

  it('limits guessing from one address across many names, not for a member who signed in there', async () => {
    const throttle = new SharedGuessThrottle(counters);
    const now = 5_000_000;
    await (await throttle.begin('regular', 'sprayer', now)).succeeded();
    for (let i = 0; i < 50; i++) await (await throttle.begin(`name-${i}`, 'sprayer', now)).failed(now);
    expect(await outcome(() => throttle.begin('name-x', 'sprayer', now))).toBe('tooManyLoginAttempts:429');
    expect(typeof (await outcome(() => throttle.begin('name-x', 'someone-else', now)))).toBe('object');
    expect(typeof (await outcome(() => throttle.begin('regular', 'sprayer', now)))).toBe('object');
  });

  it('allows max hits per window and key, then says how long to wait', async () => {
    const limit = new SharedRateLimit(counters, 'test', 5, 60_000);
    for (let i = 0; i < 5; i++) expect(await limit.take('ip', 1000 + i)).toEqual({ ok: true });
    expect(await limit.take('ip', 2000)).toEqual({ ok: false, retryAfterMs: 59_000 });
    expect(await limit.take('other', 2000)).toEqual({ ok: true });
    expect(await limit.take('ip', 61_001)).toEqual({ ok: true });
  });
});
