import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/** The robots file's rules as [field, value] pairs (comments and blank lines left out). */
function rulesOf(body: string): [string, string][] {
  return body
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      expect(colon, `"${line}" is no "field: value" line`).toBeGreaterThan(0);
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
}

describe('GET /robots.txt (docs/architecture.md, Transfer and caching)', () => {
  let t: TestApp;
  let clientDir: string;

  beforeAll(async () => {
    // A built client whose SPA fallback would answer every unknown path with the app's HTML.
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-client-'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    t = await createTestApp({ CLIENT_DIR: clientDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it('answers a plain-text robots file, not the app shell', async () => {
    const res = await t.app.request('/robots.txt', { headers: { accept: 'text/html,*/*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain\b/);
    const body = await res.text();
    expect(body).not.toMatch(/<html|<!doctype/i);
    expect(rulesOf(body)).toEqual([
      ['user-agent', '*'],
      ['disallow', '/api/'],
      ['disallow', '/uploads/'],
    ]);
  });

  it('keeps the pages themselves crawlable (no "Disallow: /")', async () => {
    const body = await (await t.app.request('/robots.txt')).text();
    const disallowed = rulesOf(body)
      .filter(([field]) => field === 'disallow')
      .map(([, value]) => value);
    for (const page of ['/login', '/events', '/']) {
      expect(
        disallowed.some((prefix) => prefix !== '' && page.startsWith(prefix)),
        page,
      ).toBe(false);
    }
  });

  it('is there without a built client too', async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.app.request('/robots.txt');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain\b/);
      expect(await res.text()).toContain('Disallow: /api/');
    } finally {
      await bare.close();
    }
  });
});
