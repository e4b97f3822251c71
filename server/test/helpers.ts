import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { setPasswordHashCost } from '../src/auth/passwords.js';
import { loadConfig } from '../src/config.js';
import { prepareRuntime, type Runtime } from '../src/deps.js';
import type { Api } from '../src/http/context.js';

export const ADMIN = { username: 'admin', password: 'admin-secret' };

// Cheap argon2id parameters in tests (the default costs ~170 ms per hash and per sign-in here).
setPasswordHashCost({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

export interface TestApp {
  app: Api;
  runtime: Runtime;
  dataDir: string;
  /** JSON request against the real app; returns status and parsed body. */
  call(
    method: string,
    url: string,
    options?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
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
    return { status: response.status, body: parsed };
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
    call,
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
  options: { token?: string | null; field?: string; bytes: Uint8Array; filename?: string; type?: string; method?: string },
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append(
    options.field ?? 'image',
    new Blob([new Uint8Array(options.bytes)], { type: options.type ?? 'image/png' }),
    options.filename ?? 'picture.png',
  );
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const response = await t.app.request(url, { method: options.method ?? 'POST', headers, body: form });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}
