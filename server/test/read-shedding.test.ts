import type { AddressInfo } from 'node:net';
import { SYNC_SCHEMAS, MESSAGES } from '@fankurve/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server.js';
import { createTestApp, type TestApp } from './helpers.js';

/*
 * Reads beyond the server's limit get 503 `serverBusy` with a Retry-After at once, instead of piling
 * up (docs/architecture.md, "The match-day rush on one server"); writes and the change stream always
 * go through, and reads are answered again once the running ones are done.
 */

let t: TestApp | null = null;
let running: RunningServer | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
  await t?.close();
  t = null;
});

describe('reads beyond the limit', () => {
  it('are answered 503 with a Retry-After while two run; a write and the stream still go through', async () => {
    t = await createTestApp();
    const app = t.app;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    let bothArrived!: () => void;
    const twoHeld = new Promise<void>((resolve) => (bothArrived = resolve));
    running = startServer(
      t.runtime,
      async (request, env) => {
        // The first two reads of the events list wait here: the reads in flight are at the limit.
        if (request.method === 'GET' && new URL(request.url).pathname === '/api/events' && arrived < 2) {
          if (++arrived === 2) bothArrived();
          await held;
        }
        return app.fetch(request, env as never);
      },
      { port: 0, hostname: '127.0.0.1', readsInFlightMax: 2 },
    );
    const { port } = (await running.listening) as AddressInfo;
    const url = `http://127.0.0.1:${port}`;
    const token = await t.adminToken();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const slow = [fetch(`${url}/api/events`, { headers }), fetch(`${url}/api/events`, { headers })];
    await twoHeld;

    const shedGet = await fetch(`${url}/api/events`, { headers });
    expect(shedGet.status).toBe(503);
    expect(shedGet.headers.get('retry-after')).toBe('1');
    expect(await shedGet.json()).toEqual({ success: false, message: MESSAGES.serverBusy, code: 'serverBusy' });
    const shedPull = await fetch(`${url}/api/sync/events/${SYNC_SCHEMAS.events.version}/pull`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ checkpoint: null, limit: 10 }),
    });
    expect(shedPull.status).toBe(503);

    const write = await fetch(`${url}/api/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Written while reads wait (H)', date: '2030-05-01 15:30', location: 'Berlin' }),
    });
    expect(write.status).toBe(201);
    const stream = await fetch(`${url}/api/sync/stream`, { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();

    release();
    for (const answer of await Promise.all(slow)) expect(answer.status).toBe(200);
    const again = await fetch(`${url}/api/events`, { headers });
    expect(again.status).toBe(200);
    const { events } = (await again.json()) as { events: { title: string }[] };
    expect(events.map((event) => event.title)).toContain('Written while reads wait (H)');
  });
});
