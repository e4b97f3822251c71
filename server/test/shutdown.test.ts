import { globalAgent, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openConnection } from '../src/db/connection.js';
import { KEEP_ALIVE_TIMEOUT_MS, startServer, type RunningServer } from '../src/server.js';
import { createTestApp, openStream, type TestApp } from './helpers.js';

/*
 * The graceful stop (docs/architecture.md, "Health and shutdown"): on the real node server, what
 * main.ts runs on SIGTERM and SIGINT.
 */

let t: TestApp | null = null;
let running: RunningServer | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
  await t?.close();
  t = null;
});

describe('graceful stop', () => {
  it('ends change streams with a reconnect hint, lets a running write finish, then closes', async () => {
    t = await createTestApp();
    const app = t.app;
    // Holds the event creation at the edge until the stop has begun: a write under way when it comes.
    let arrived!: () => void;
    const writeArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    running = startServer(
      t.runtime,
      async (request, env) => {
        if (request.method === 'POST' && new URL(request.url).pathname === '/api/events') {
          arrived();
          await held;
        }
        return app.fetch(request, env as never);
      },
      { port: 0, hostname: '127.0.0.1', graceMs: 5000 },
    );
    const { port } = (await running.listening) as AddressInfo;
    const url = `http://127.0.0.1:${port}`;
    const token = await t.adminToken();

    const stream = await openStream(url, token);
    expect(stream.status).toBe(200);
    expect(await stream.read(/event: ready/)).toMatch(/event: ready/);

    const write = fetch(`${url}/api/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Written while stopping (H)', date: '2030-05-01 15:30', location: 'Berlin' }),
    });
    await writeArrived;

    let stopped = false;
    const stop = running.stop().then(() => (stopped = true));
    const text = await stream.read(/event: reconnect/);
    expect(text).toMatch(/retry: \d+\nevent: reconnect\n/);
    // The stream has ended: the client reconnects, to another instance if there is one.
    expect(await stream.read(/never/, 300)).toBe(text);
    // No new requests meanwhile: the port is closed, or a kept-alive connection hears 503.
    const late = await fetch(`${url}/api/version`).then(
      (response) => response.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(late);
    expect(stopped).toBe(false);

    release();
    const answer = await write;
    expect(answer.status).toBe(201);
    const created = ((await answer.json()) as { event: { id: string } }).event;
    await stop;
    expect(stopped).toBe(true);

    // The write committed before the database closed.
    const check = openConnection(t.runtime.deps.config);
    try {
      const row = await check.db.selectFrom('events').select('title').where('id', '=', created.id).executeTakeFirst();
      expect(row?.title).toBe('Written while stopping (H)');
    } finally {
      await check.close();
    }
  });
});

describe('kept-alive connections', () => {
  it('stay open longer than a default client agent and the common proxies keep them, so the client closes first', async () => {
    t = await createTestApp();
    running = startServer(t.runtime, t.app.fetch, { port: 0, hostname: '127.0.0.1' });
    const { port } = (await running.listening) as AddressInfo;
    // Both ends at 5 s closed the same idle socket at once; a request sent then was reset.
    const clientIdleMs = (globalAgent as unknown as { options: { timeout: number } }).options.timeout;
    const server = running.server as HttpServer;
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(Math.max(clientIdleMs, 60_000));
    expect(server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    // The server answers on the connection as before.
    const response = await fetch(`http://127.0.0.1:${port}/api/version`);
    expect(response.status).toBe(200);
    expect(response.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
  });
});
