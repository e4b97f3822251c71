import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { prepareRuntime, type Runtime } from '../src/deps.js';
import type { Api } from '../src/http/context.js';

export const ADMIN = { username: 'admin', password: 'admin-secret' };

export interface TestApp {
  app: Api;
  runtime: Runtime;
  dataDir: string;
  /** JSON request against the real app; returns status and parsed body. */
  call(method: string, url: string, options?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
  login(username: string, password: string): Promise<string>;
  /** Registers, approves (as admin) and signs in a member; returns id and token. */
  member(username: string, password?: string): Promise<{ id: string; token: string }>;
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real app on a real database: a SQLite file in a temp folder, or a fresh schema on the
 * PostgreSQL server of TEST_DATABASE_URL when that is set.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-test-'));
  const databaseUrl = await testDatabaseUrl();
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: 'test-secret-test-secret-test-secret',
    CLIENT_DIR: path.join(dataDir, 'no-client'),
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
      runtime.deps.store.changes.close();
      await runtime.connection.close();
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

let schemaCounter = 0;

/** A fresh PostgreSQL schema per test app, so test files never see each other's rows. */
async function testDatabaseUrl(): Promise<string | null> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return null;
  const schema = `t_${process.pid}_${Date.now()}_${schemaCounter++}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

export const isPostgres = (): boolean => Boolean(process.env.TEST_DATABASE_URL);
