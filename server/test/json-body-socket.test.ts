import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_SCHEMAS } from '@fankurve/shared';
import { GENERIC, type BodyRoute } from './bad-input-cases.js';
import { createEventVia, createTestApp, listen, type TestApp } from './helpers.js';

/*
 * Over a real socket a JSON body is read from Node's request itself, and a sync pull of one member
 * is answered whole by the route (docs/architecture.md, "The match-day rush on one server"). Every
 * bad body is refused there exactly as through the app's own Request (the tests' `t.call`), and the
 * answers are the same bytes, compressed or not.
 */

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let member: { id: string; token: string };
let eventId: string;

function send(
  method: string,
  path: string,
  options: { token?: string; raw?: string; headers?: Record<string, string> },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const req = http.request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (options.raw !== undefined) req.write(options.raw);
    req.end();
  });
}

const pullPath = (name: 'attendees' | 'notices') => `/api/sync/${name}/${SYNC_SCHEMAS[name].version}/pull`;

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t);
  member = await t.member('socket-body-mia');
  const admin = await t.adminToken();
  eventId = (await createEventVia(t, admin, { title: 'Away at Union (A)', date: '2031-05-01 15:30' })).id;
});

afterAll(async () => {
  await server?.close();
  await t?.close();
});

const routes: BodyRoute[] = [
  {
    name: 'a sync pull',
    method: 'POST',
    url: () => pullPath('attendees'),
    token: () => member.token,
    valid: () => ({ checkpoint: null, limit: 100, scope: 'own' }),
    bad: [],
  },
  {
    name: 'an answer',
    method: 'POST',
    url: () => `/api/attendance/${eventId}`,
    token: () => member.token,
    valid: () => ({ status: 'going' }),
    bad: [],
  },
];

describe('a JSON body read from the socket', () => {
  for (const route of routes)
    it.each(GENERIC)(`${route.name}: %s is refused as through the app's Request`, async (_label, make, status) => {
      const { raw, headers } = make(route);
      const overSocket = await send(route.method, route.url(), { token: route.token()!, raw, headers });
      const inApp = await t.call(route.method, route.url(), { token: route.token(), raw, headers });
      expect(overSocket.status).toBe(status);
      expect(inApp.status).toBe(status);
      expect(JSON.parse(overSocket.bytes.toString('utf8'))).toEqual(inApp.body);
    });

  it('takes a valid body: the answer is written and a pull finds it', async () => {
    const answered = await send('POST', `/api/attendance/${eventId}`, { token: member.token, raw: '{"status":"going"}' });
    expect(answered.status).toBe(200);
    const pulled = await send('POST', pullPath('attendees'), {
      token: member.token,
      raw: JSON.stringify({ checkpoint: null, limit: 100, scope: 'own' }),
    });
    expect(pulled.status).toBe(200);
    const page = JSON.parse(pulled.bytes.toString('utf8')) as { documents: { event_id: string; status: string }[] };
    expect(page.documents).toEqual([expect.objectContaining({ event_id: eventId, status: 'going' })]);
  });
});

describe("a member's own pull answered whole", () => {
  it('goes small with its length and no compression, large compressed by Accept-Encoding, the same JSON either way', async () => {
    const body = JSON.stringify({ checkpoint: null, limit: 100 });
    const small = await send('POST', pullPath('notices'), {
      token: member.token,
      raw: body,
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(Number(small.headers['content-length'])).toBe(small.bytes.byteLength);
    expect(small.bytes.byteLength).toBeLessThan(1024);

    // Enough own rows (guests) for an answer over 1 KB.
    for (let i = 0; i < 8; i++) {
      const guest = await t.call('POST', '/api/guests', {
        token: member.token,
        body: { event_id: eventId, guest_name: `Guest number ${i + 1} of Mia` },
      });
      expect(guest.status).toBe(201);
    }
    const pull = JSON.stringify({ checkpoint: null, limit: 100, scope: 'own' });
    const plain = await send('POST', pullPath('attendees'), { token: member.token, raw: pull });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.byteLength).toBeGreaterThan(1024);
    for (const [coding, inflate] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const packed = await send('POST', pullPath('attendees'), {
        token: member.token,
        raw: pull,
        headers: { 'accept-encoding': coding },
      });
      expect(packed.headers['content-encoding']).toBe(coding);
      expect(packed.headers.vary).toBe('Accept-Encoding');
      expect(packed.bytes.byteLength).toBeLessThan(plain.bytes.byteLength);
      expect(inflate(packed.bytes).toString('utf8')).toBe(plain.bytes.toString('utf8'));
    }
  });
});
