import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT_BYTES, MESSAGES } from '@fankurve/shared';
import { createTestApp, listen, type TestApp } from './helpers.js';

/*
 * A body over the limit is answered 413 and left unread, so the server closes the socket after the
 * answer (docs/architecture.md, Sessions, throttles and limits). The answer says `Connection: close`,
 * so a client that keeps connections alive opens a new one for its next request instead of failing
 * on the closed socket. A real HTTP server and a keep-alive agent with one socket.
 */
describe('413 over a kept-alive connection', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
  });
  afterAll(async () => {
    agent.destroy();
    await server.close();
    await t.close();
  });

  function request(method: string, path: string, body?: string, chunked = false) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; socket: unknown }>(
      (resolve, reject) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (body !== undefined && !chunked) headers['content-length'] = String(Buffer.byteLength(body));
        const req = http.request(`${server.url}${path}`, { method, agent, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, socket: req.socket }));
        });
        req.on('error', reject);
        if (body !== undefined) req.write(body);
        req.end();
      },
    );
  }

  const huge = () => JSON.stringify({ username: 'x', password: 'y', padding: 'a'.repeat(JSON_BODY_LIMIT_BYTES + 10) });

  it.each([
    ['with a Content-Length', false],
    ['sent chunked, without a length', true],
  ])('says Connection: close on a 413 %s, and the next request on the same agent is answered', async (_name, chunked) => {
    const first = await request('GET', '/api/version');
    expect(first.status).toBe(200);
    expect(first.headers.connection).toBe('keep-alive');

    const tooLarge = await request('POST', '/api/auth/login', huge(), chunked);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.connection).toBe('close');
    expect(JSON.parse(tooLarge.text)).toMatchObject({ success: false, code: 'bodyTooLarge', message: MESSAGES.bodyTooLarge });

    // The agent does not reuse the closed socket: the next request gets a fresh one and its answer.
    const next = await request('GET', '/api/version');
    expect(next.status).toBe(200);
    expect(next.socket).not.toBe(tooLarge.socket);
  });
});
