import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compression, negotiateEncoding } from '../src/http/compress.js';
import { createEventsListCache } from '../src/http/eventsListCache.js';
import { createEventVia, createTestApp, listen, type TestApp } from './helpers.js';

/** The raw answer of the real app (app.request never decompresses): status, headers and body bytes. */
async function raw(t: TestApp, url: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await t.app.request(url, { method, headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const decode = (bytes: Buffer, coding: string | null) =>
  coding === 'br' ? zlib.brotliDecompressSync(bytes) : coding === 'gzip' ? zlib.gunzipSync(bytes) : bytes;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*;q=0', 'identity'],
    ['gzip, *;q=0', 'gzip'],
    ['BR ; Q=0.8 , GZIP ; q=0.7', 'br'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compression of API answers', () => {
  let t: TestApp;
  let identityDoc: unknown;
  beforeAll(async () => {
    t = await createTestApp();
    const plain = await raw(t, '/api/openapi.json');
    identityDoc = JSON.parse(plain.bytes.toString('utf8'));
  });
  afterAll(() => t.close());

  it('answers identity without Accept-Encoding (and says that the answer varies by it)', async () => {
    const res = await raw(t, '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(res.bytes.length).toBeGreaterThan(4096);
    expect(JSON.parse(res.bytes.toString('utf8'))).toEqual(identityDoc);
  });

  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip;q=1.0, br;q=0.1', 'gzip'],
  ])('compresses a JSON answer for "%s" with %s, and it decompresses to the same JSON', async (accept, coding) => {
    const res = await raw(t, '/api/openapi.json', { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(coding);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
    const json = JSON.parse(decode(res.bytes, coding).toString('utf8'));
    expect(json).toEqual(identityDoc);
    expect(res.bytes.length).toBeLessThan(JSON.stringify(identityDoc).length / 3);
  });

  it('answers identity when every coding is refused (q=0)', async () => {
    const res = await raw(t, '/api/openapi.json', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(res.bytes.toString('utf8'))).toEqual(identityDoc);
  });

  it('leaves small answers uncompressed', async () => {
    for (const url of ['/api/version', '/api/events/does-not-exist', '/api/nothing-here']) {
      const res = await raw(t, url, { 'accept-encoding': 'br, gzip' });
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.bytes.length).toBeLessThan(1024);
      expect(JSON.parse(res.bytes.toString('utf8'))).toHaveProperty('success');
    }
  });

  it('does not compress HEAD answers', async () => {
    const res = await raw(t, '/api/openapi.json', { 'accept-encoding': 'br, gzip' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.bytes.length).toBe(0);
  });

  it('keeps the sync change stream a live, uncompressed event stream', async () => {
    const admin = await t.adminToken();
    const server = await listen(t);
    const { port } = new URL(server.url);
    try {
      const events: string[] = [];
      let buffered = '';
      let onData: () => void = () => {};
      const request = http.get({
        host: '127.0.0.1',
        port,
        path: '/api/sync/stream',
        headers: { ...bearer(admin), 'accept-encoding': 'br, gzip, deflate' },
      });
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
        request.on('response', resolve);
        request.on('error', reject);
        setTimeout(() => reject(new Error('the stream did not start: held back?')), 5000);
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          if (name) events.push(name);
        }
        onData();
      });
      const waitFor = (name: string) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no "${name}" event; got ${events.join(', ')}`)), 5000);
          onData = () => {
            if (events.includes(name)) {
              clearTimeout(timer);
              resolve();
            }
          };
          onData();
        });

      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(response.headers['content-encoding']).toBeUndefined();
      // Each event arrives while the stream stays open: nothing holds it back to compress it.
      await waitFor('ready');
      await createEventVia(t, admin, { title: 'Streamed (H)' });
      await waitFor('change');
      expect(response.complete).toBe(false);
      request.destroy();
    } finally {
      await server.close();
    }
  });
});

describe('GET /api/events: cached by the write counter, with ETag and 304', () => {
  let t: TestApp;
  let admin: string;
  let fan: { id: string; token: string };
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    fan = await t.member('etagfan');
    // Enough events for a list well over the compression threshold.
    for (let i = 0; i < 8; i++) {
      await createEventVia(t, admin, { title: `Away day ${i} (A)`, description: 'Bus at 7:00 from the Bahnhof. '.repeat(4) });
    }
  });
  afterAll(() => t.close());

  const list = (token: string | null, headers: Record<string, string> = {}) =>
    raw(t, '/api/events', { ...(token ? bearer(token) : {}), ...headers });

  it('answers the list with a strong ETag that stays while nothing is written', async () => {
    const first = await list(fan.token);
    const second = await list(admin);
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toMatch(/^"events-\d+"$/);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.headers.get('content-encoding')).toBeNull();
    const body = JSON.parse(first.bytes.toString('utf8'));
    expect(body.success).toBe(true);
    expect(body.events).toHaveLength(8);
    expect(second.bytes.equals(first.bytes)).toBe(true);
  });

  it('answers compressed variants that decompress to the same JSON, each with its own tag', async () => {
    const plain = await list(fan.token);
    const counter = /^"events-(\d+)"$/.exec(plain.headers.get('etag')!)![1];
    for (const coding of ['br', 'gzip']) {
      const res = await list(fan.token, { 'accept-encoding': coding });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(coding);
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('etag')).toBe(`"events-${counter}-${coding}"`);
      expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
      expect(res.bytes.length).toBeLessThan(plain.bytes.length);
      // Compressed once by the route: the middleware leaves an answer with Content-Encoding alone.
      expect(decode(res.bytes, coding).equals(plain.bytes)).toBe(true);
    }
  });

  it('answers 304 without a body when If-None-Match names the current list', async () => {
    const current = await list(fan.token);
    const etag = current.headers.get('etag')!;
    const brTag = etag.replace(/"$/, '-br"');
    for (const ifNoneMatch of [etag, `W/${etag}`, `"events-0", ${etag}`, brTag, '*']) {
      const res = await list(fan.token, { 'if-none-match': ifNoneMatch, 'accept-encoding': 'br, gzip' });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(res.bytes.length).toBe(0);
      expect(res.headers.get('etag')).toBe(brTag);
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      expect(res.headers.get('content-encoding')).toBeNull();
    }
    const stale = await list(fan.token, { 'if-none-match': '"events-0"' });
    expect(stale.status).toBe(200);
  });

  it('changes the ETag and the body after a write, with the new counts', async () => {
    const before = await list(fan.token);
    const etag = before.headers.get('etag')!;
    const eventId = JSON.parse(before.bytes.toString('utf8')).events[0].id as string;

    const attended = await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'going' } });
    expect(attended.status).toBeLessThan(300);
    const afterAttend = await list(fan.token, { 'if-none-match': etag });
    expect(afterAttend.status).toBe(200);
    const etag2 = afterAttend.headers.get('etag')!;
    expect(etag2).not.toBe(etag);
    const event = JSON.parse(afterAttend.bytes.toString('utf8')).events.find((e: { id: string }) => e.id === eventId);
    expect(event).toMatchObject({ going_count: 1, maybe_count: 0 });

    const maybe = await t.call('POST', `/api/attendance/${eventId}`, { token: admin, body: { status: 'maybe' } });
    expect(maybe.status).toBeLessThan(300);
    const compressed = await list(fan.token, { 'if-none-match': etag2, 'accept-encoding': 'gzip' });
    expect(compressed.status).toBe(200);
    const body = JSON.parse(decode(compressed.bytes, 'gzip').toString('utf8'));
    expect(body.events.find((e: { id: string }) => e.id === eventId)).toMatchObject({ going_count: 1, maybe_count: 1 });

    const created = await createEventVia(t, admin, { title: 'New one (H)' });
    const afterCreate = await list(fan.token);
    expect(afterCreate.headers.get('etag')).not.toBe(compressed.headers.get('etag')?.replace('-gzip', ''));
    expect(JSON.parse(afterCreate.bytes.toString('utf8')).events.map((e: { id: string }) => e.id)).toContain(created.id);
  });

  it('still answers 401 to anonymous callers and void tokens, If-None-Match or not', async () => {
    const etag = (await list(fan.token)).headers.get('etag')!;
    for (const token of [null, 'garbage']) {
      const res = await list(token, { 'if-none-match': etag, 'accept-encoding': 'br' });
      expect(res.status).toBe(401);
      expect(res.headers.get('etag')).toBeNull();
      expect(JSON.parse(res.bytes.toString('utf8'))).toMatchObject({ success: false });
    }
  });

  it('is still documented in the OpenAPI document', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).body;
    expect(doc.paths['/api/events'].get).toMatchObject({ tags: ['Events'], security: [{ bearer: [] }] });
  });

  it('builds the list once per counter value, however many requests miss at the same time', async () => {
    let builds = 0;
    let endBuild: () => void = () => {};
    const cache = createEventsListCache(t.runtime.deps.store, async () => {
      builds++;
      // A build runs until the test lets it end, so that every request made meanwhile misses.
      await new Promise<void>((resolve) => (endBuild = resolve));
      return { built: builds };
    });
    // deps.ts wires the app's own cache to the commit bus; this one is wired here.
    const unsubscribe = t.runtime.deps.store.commits.subscribe(cache.onCommit);
    /** `count` requests at once, all made while one build runs: one build serves them all. */
    const missTogether = async (count: number) => {
      const before = builds;
      const calls = Array.from({ length: count }, () => cache.current());
      await vi.waitFor(() => expect(builds).toBe(before + 1));
      endBuild();
      const answers = await Promise.all(calls);
      expect(builds).toBe(before + 1);
      return answers;
    };
    const first = await missTogether(10);
    expect(new Set(first).size).toBe(1);
    await cache.current();
    expect(builds).toBe(1);
    await createEventVia(t, admin, { title: 'Counter moves (H)' });
    const second = await missTogether(5);
    expect(builds).toBe(2);
    expect(second[0]!.counter).toBeGreaterThan(first[0]!.counter);
    expect(JSON.parse((await second[0]!.body('identity')).toString())).toEqual({ built: 2 });
    // Each compressed variant is made once per snapshot.
    const [a, b] = await Promise.all([second[0]!.body('br'), second[1]!.body('br')]);
    expect(a).toBe(b);
    unsubscribe();
  });
});

describe('compression of static files', () => {
  let t: TestApp;
  let clientDir: string;
  const script = Array.from({ length: 200 }, (_, i) => `export const value${i} = 'fankurve ${i}';`).join('\n') + '\n';
  const page = `<!doctype html><html><head><title>Fankurve</title></head><body>${'<p>Eisern!</p>'.repeat(100)}</body></html>`;

  beforeAll(async () => {
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-client-'));
    fs.mkdirSync(path.join(clientDir, 'assets'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), page);
    fs.writeFileSync(path.join(clientDir, 'assets', 'x-abc123.js'), script);
    fs.writeFileSync(path.join(clientDir, 'assets', 'tiny-abc123.js'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(clientDir, 'assets', 'logo-abc123.png'), Buffer.alloc(4096, 7));
    t = await createTestApp({ CLIENT_DIR: clientDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it.each(['br', 'gzip'])('serves a hashed asset with %s, immutable, and decompressing to the file', async (coding) => {
    const res = await raw(t, '/assets/x-abc123.js', { 'accept-encoding': coding });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(coding);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
    expect(decode(res.bytes, coding).toString('utf8')).toBe(script);
    expect(res.bytes.length).toBeLessThan(script.length / 2);
  });

  it('compresses an asset once and answers later requests from the cache (keyed by size and mtime)', async () => {
    const file = path.join(clientDir, 'assets', 'x-abc123.js');
    const { mtime } = fs.statSync(file);
    const first = await raw(t, '/assets/x-abc123.js', { 'accept-encoding': 'br' });
    // Same size and time, other bytes: only a cached variant still answers the old text.
    fs.writeFileSync(file, script.replaceAll('fankurve', 'FANKURVE'));
    fs.utimesSync(file, mtime, mtime);
    const second = await raw(t, '/assets/x-abc123.js', { 'accept-encoding': 'br' });
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(zlib.brotliDecompressSync(second.bytes).toString('utf8')).toBe(script);
    // A file that changed in size or time is compressed again.
    const later = new Date(mtime.getTime() + 5000);
    fs.utimesSync(file, later, later);
    const third = await raw(t, '/assets/x-abc123.js', { 'accept-encoding': 'br' });
    expect(zlib.brotliDecompressSync(third.bytes).toString('utf8')).toBe(script.replaceAll('fankurve', 'FANKURVE'));
    fs.writeFileSync(file, script);
  });

  it('serves the asset plain without Accept-Encoding, for HEAD and for a byte range', async () => {
    const plain = await raw(t, '/assets/x-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.toString('utf8')).toBe(script);
    const head = await raw(t, '/assets/x-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers.get('content-encoding')).toBeNull();
    const range = await raw(t, '/assets/x-abc123.js', { 'accept-encoding': 'br', range: 'bytes=0-99' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-encoding')).toBeNull();
    expect(range.bytes.toString('utf8')).toBe(script.slice(0, 100));
  });

  it('leaves small files and images alone', async () => {
    const tiny = await raw(t, '/assets/tiny-abc123.js', { 'accept-encoding': 'br' });
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(tiny.bytes.toString('utf8')).toBe('export const a = 1;\n');
    const png = await raw(t, '/assets/logo-abc123.png', { 'accept-encoding': 'br' });
    expect(png.headers.get('content-encoding')).toBeNull();
    expect(png.bytes.length).toBe(4096);
  });

  it('compresses the app shell per response (index.html and the SPA fallback)', async () => {
    for (const url of ['/index.html', '/events/some-id']) {
      const res = await raw(t, url, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(zlib.gunzipSync(res.bytes).toString('utf8')).toBe(page);
    }
  });
});

describe('compression middleware on its own', () => {
  const big = JSON.stringify({ text: 'x'.repeat(5000) });
  const app = new Hono();
  app.use('*', compression());
  app.get('/precompressed', (c) =>
    c.body(zlib.gzipSync(big), 200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }),
  );
  app.get('/no-transform', (c) => c.body(big, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-transform' }));
  app.get('/empty', (c) => c.body(null, 204));
  app.get('/tagged', (c) => c.body(big, 200, { 'Content-Type': 'application/json', ETag: '"v1"' }));
  app.get('/live', (c) => {
    // An event stream that never ends by itself (and, unlike streamSSE's, names no Transfer-Encoding).
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`event: ready\ndata: ${'x'.repeat(2000)}\n\n`));
      },
    });
    return c.body(body, 200, { 'Content-Type': 'text/event-stream' });
  });

  it('leaves an answer that already has a Content-Encoding alone', async () => {
    const res = await app.request('/precompressed', { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).toBe(big);
  });

  it('leaves no-transform answers and 204 alone', async () => {
    const res = await app.request('/no-transform', { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe(big);
    const empty = await app.request('/empty', { headers: { 'accept-encoding': 'br' } });
    expect(empty.status).toBe(204);
    expect(empty.headers.get('content-encoding')).toBeNull();
  });

  it('passes an event stream through unread', async () => {
    const answer = app.request('/live', { headers: { 'accept-encoding': 'br, gzip' } });
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('held back')), 2000));
    const res = await Promise.race([answer, timeout]);
    expect(res.headers.get('content-encoding')).toBeNull();
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toMatch(/^event: ready/);
    await reader.cancel();
  });

  it('weakens a strong ETag of an answer it compresses', async () => {
    const res = await app.request('/tagged', { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('etag')).toBe('W/"v1"');
    expect(zlib.brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).toBe(big);
  });
});
