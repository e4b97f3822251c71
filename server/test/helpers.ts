import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { setPasswordHashCost } from '../src/domain/people/passwords.js';
import { loadConfig } from '../src/config.js';
import { prepareRuntime, type Runtime } from '../src/deps.js';
import type { Api } from '../src/http/context.js';
import type { z } from 'zod';
import { checkAnswer, declaredAnswer } from './answers.js';

// Also loaded outside Vitest (scripts/convergence.ts, through client/test/convergence/world.ts): no
// import of vitest here; a helper that fails throws.

export const ADMIN = { username: 'admin', password: 'admin-secret' };

// Cheap argon2id parameters in tests (the default costs ~170 ms per hash and per sign-in here).
setPasswordHashCost({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

/** A JSON request's options: the bearer token, a body (sent as JSON) or a raw body, further headers. */
export interface CallOptions {
  token?: string | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: Api;
  runtime: Runtime;
  dataDir: string;
  /** The app's database, for arranging and checking rows directly. */
  db: Runtime['deps']['store']['db'];
  /**
   * JSON request against the real app; returns status and parsed body. Throws when a JSON answer
   * strays from the schema its route declares (server/test/answers.ts).
   */
  call(method: string, url: string, options?: CallOptions): Promise<{ status: number; body: any }>;
  /**
   * A call typed by its route's answer schema (shared/src/schemas/answers): throws unless it answers
   * `status` (default: any 2xx) and the route declares `schema` for it; returns the parsed answer.
   */
  callTyped<S extends z.ZodType>(
    schema: S,
    method: string,
    url: string,
    options?: CallOptions & { status?: number },
  ): Promise<z.output<S>>;
  login(username: string, password: string): Promise<string>;
  /** Registers, approves (as admin) and signs in a member; returns id and token. */
  member(username: string, password?: string): Promise<{ id: string; token: string }>;
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real app on a real database: a SQLite file in a temp folder, or a fresh database on the
 * PostgreSQL server of TEST_DATABASE_URL when that is set.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-test-'));
  const database = await testDatabase();
  const databaseUrl = database?.url ?? null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: 'test-secret-test-secret-test-secret',
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    // Test files register many members from one address; the registration limit has its own test.
    REGISTRATIONS_PER_HOUR: '100000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const runtime = await prepareRuntime(config);
  const app = createApp(runtime.deps);
  let adminToken: string | null = null;

  const call: TestApp['call'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await app.request(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    checkAnswer(app, method, url, response.status, response.headers.get('content-type'), parsed);
    return { status: response.status, body: parsed };
  };

  const callTyped: TestApp['callTyped'] = async (schema, method, url, options = {}) => {
    const { status: expected, ...rest } = options;
    const res = await call(method, url, rest);
    const fits = expected === undefined ? res.status >= 200 && res.status < 300 : res.status === expected;
    if (!fits) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    if (declaredAnswer(app, method, url, res.status) !== schema) {
      throw new Error(`${method} ${url} does not declare this schema for its ${res.status} answer`);
    }
    return schema.parse(res.body);
  };

  const login = async (username: string, password: string) => {
    const res = await call('POST', '/api/auth/login', { body: { username, password } });
    if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token as string;
  };

  const testApp: TestApp = {
    app,
    runtime,
    dataDir,
    db: runtime.deps.store.db,
    call,
    callTyped,
    login,
    async adminToken() {
      adminToken ??= await login(ADMIN.username, ADMIN.password);
      return adminToken;
    },
    async member(username, password = 'member-pass') {
      const reg = await call('POST', '/api/auth/register', { body: { username, email: `${username}@example.org`, password } });
      if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
      const approved = await call('PUT', `/api/auth/users/${reg.body.user.id}/approve`, { token: await testApp.adminToken() });
      if (approved.status !== 200) throw new Error(`approve ${username}: ${approved.status}`);
      return { id: reg.body.user.id as string, token: await login(username, password) };
    },
    async close() {
      // A job still running when the database closes would fail and say so: it ends first.
      await runtime.jobs.stop();
      runtime.deps.store.commits.close();
      await runtime.connection.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/** Starts the app on a random loopback port (for RxDB clients and streams that need real HTTP). */
export async function listen(testApp: TestApp): Promise<{ url: string; server: ServerType; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: testApp.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

let databaseCounter = 0;

/**
 * A fresh PostgreSQL database per test app (dropped again on close), so test files never see each
 * other's rows. A database, not a schema: Kysely's migrator looks for its migration tables in every
 * schema of the database, so a second schema would find the first one's tables and skip creating its own.
 */
export async function testDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return null;
  const name = `fankurve_t_${process.pid}_${Date.now()}_${databaseCounter++}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export const isPostgres = (): boolean => Boolean(process.env.TEST_DATABASE_URL);

/** Number of rows in a table (all rows, tombstones included unless `liveOnly`), read straight from the database. */
export async function countRows(
  t: TestApp,
  table: 'users' | 'events' | 'attendees' | 'settings' | 'transports' | 'stadiums' | 'stadium_ticket_prices',
  options: { liveOnly?: boolean } = {},
): Promise<number> {
  const db = t.runtime.deps.store.db;
  let query = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  const replicated = table === 'users' || table === 'events' || table === 'attendees' || table === 'transports';
  if (options.liveOnly && replicated) query = query.where('deleted' as never, '=', 0 as never);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Creates an event through the API (as the given user) and returns its REST shape. */
export async function createEventVia(
  t: TestApp,
  token: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; [key: string]: any }> {
  const res = await t.call('POST', '/api/events', {
    token,
    body: { title: 'Test match (H)', date: '2030-03-01 15:30', location: 'Stadion An der Alten Försterei', ...fields },
  });
  if (res.status !== 201) throw new Error(`create event: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.event;
}

/** Small real images (1×1 pixel) and a text file, for upload tests. */
export const IMAGES = {
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
  jpeg: Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
  gif: Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'),
  webp: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
  text: Buffer.from('Just some text, not a picture.\n'),
};

/** A multipart upload of one file field (as a browser's FormData sends it) against the real app. */
export async function uploadFile(
  t: TestApp,
  url: string,
  options: {
    token?: string | null;
    field?: string;
    bytes: Uint8Array;
    filename?: string;
    type?: string;
    method?: string;
    /** Plain text fields sent beside the file. */
    fields?: Record<string, string>;
  },
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  form.append(
    options.field ?? 'image',
    new Blob([new Uint8Array(options.bytes)], { type: options.type ?? 'image/png' }),
    options.filename ?? 'picture.png',
  );
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const method = options.method ?? 'POST';
  const response = await t.app.request(url, { method, headers, body: form });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  checkAnswer(t.app, method, url, response.status, response.headers.get('content-type'), body);
  return { status: response.status, body };
}

/** POST /api/auth/register as the form sends it; the answer, whatever it is (nothing is approved). */
export function register(
  t: TestApp,
  username: string,
  options: { email?: string; password?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  const { email = `${username}@example.org`, password = 'secret-1', headers } = options;
  return t.call('POST', '/api/auth/register', { body: { username, email, password }, headers });
}

/** A sign-in that must succeed (a new session): its token and session id. */
export async function signIn(
  t: TestApp,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<{ token: string; sessionId: string }> {
  const res = await t.call('POST', '/api/auth/login', { body: { username, password }, headers });
  if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token as string, sessionId: res.body.sessionId as string };
}

/** The event's row straight from the database (throws when there is none). */
export const eventRow = (t: TestApp, id: string) =>
  t.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/**
 * Opens the sync change stream over real HTTP (`listen`). `read` reads until `until` matches the text
 * so far, the stream ends or `timeoutMs` is up, and answers the text so far; a read still under way
 * when the time is up is kept for the next call, so no chunk is lost.
 */
export async function openStream(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/sync/stream`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let pending: ReturnType<typeof reader.read> | null = null;
  const read = async (until: RegExp, timeoutMs = 3000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    while (!until.test(text) && Date.now() < deadline) {
      pending ??= reader.read();
      const next = await Promise.race([
        pending,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(1, deadline - Date.now()))),
      ]);
      if (!next) break;
      pending = null;
      if (next.done) break;
      text += next.value;
    }
    return text;
  };
  return { status: response.status, read, close: () => controller.abort() };
}

export { png } from './png.js';
