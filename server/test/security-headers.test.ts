import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/** The Content-Security-Policy header as directive → sources (throws when it is missing). */
function policyOf(headers: Headers): Map<string, string[]> {
  const header = headers.get('content-security-policy');
  if (!header) throw new Error('no Content-Security-Policy header');
  const directives = new Map<string, string[]>();
  for (const part of header.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(directives.has(name.toLowerCase()), `directive ${name} given twice`).toBe(false);
    directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

const REQUIRED: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'connect-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'form-action': ["'self'"],
};

function expectStrictPolicy(headers: Headers): void {
  const policy = policyOf(headers);
  for (const [directive, sources] of Object.entries(REQUIRED)) {
    expect(policy.get(directive), directive).toEqual(sources);
  }
  // No inline or evaluated script, and no inline style, anywhere in the policy.
  for (const [directive, sources] of policy) {
    for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'", '*', 'http:', 'https:']) {
      expect(sources, `${directive} allows ${unsafe}`).not.toContain(unsafe);
    }
  }
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
}

describe('Content-Security-Policy on every answer', () => {
  let t: TestApp;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-client-'));
    fs.mkdirSync(path.join(clientDir, 'assets'));
    fs.writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html><head><title>Fankurve</title><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div><script src="/shell.js"></script></body></html>',
    );
    fs.writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(clientDir, 'shell.js'), 'void 0;\n');
    fs.writeFileSync(path.join(clientDir, 'sw.js'), 'self.skipWaiting();\n');
    t = await createTestApp({ CLIENT_DIR: clientDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.request(url, { headers });

  it.each(['/', '/index.html', '/events/some-id'])('on the app shell %s', async (url) => {
    const res = await get(url, { accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expectStrictPolicy(res.headers);
  });

  it.each(['/assets/index-abc123.js', '/shell.js', '/sw.js'])('on the static file %s (also compressed)', async (url) => {
    for (const encoding of ['identity', 'br']) {
      const res = await get(url, { 'accept-encoding': encoding });
      expect(res.status).toBe(200);
      expectStrictPolicy(res.headers);
    }
  });

  it('on the API: /api/version and the OpenAPI document', async () => {
    for (const url of ['/api/version', '/api/openapi.json']) {
      const res = await get(url);
      expect(res.status).toBe(200);
      expectStrictPolicy(res.headers);
    }
  });

  it('on error answers: 404 (API, uploads), 401 and 400', async () => {
    const notFound = await get('/api/no-such-thing');
    expect(notFound.status).toBe(404);
    expectStrictPolicy(notFound.headers);

    const noUpload = await get('/uploads/not-a-valid-name');
    expect(noUpload.status).toBe(404);
    expectStrictPolicy(noUpload.headers);

    const unauthorized = await get('/api/events');
    expect(unauthorized.status).toBe(401);
    expectStrictPolicy(unauthorized.headers);

    const badBody = await t.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(badBody.status).toBeGreaterThanOrEqual(400);
    expect(badBody.status).toBeLessThan(500);
    expectStrictPolicy(badBody.headers);
  });

  it('on a 404 without a built client (the helpers default)', async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.app.request('/');
      expect(res.status).toBe(404);
      expectStrictPolicy(res.headers);
    } finally {
      await bare.close();
    }
  });
});
