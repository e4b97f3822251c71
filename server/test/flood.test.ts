import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE } from '@fankurve/shared';
import { hashGate, setPasswordHashCost } from '../src/domain/people/passwords.js';
import { createTestApp, listen, type TestApp } from './helpers.js';

/*
 * 60 parallel sign-ins with random names (argon2 for each, on libuv's thread
 * pool, which file serving shares) stalled the app shell for 5.3 s. With the hashing gate the shell
 * keeps answering while they run. Real argon2 cost here (the other test files lower it), a real
 * HTTP server and a built-client stand-in served from disk.
 */
describe('a flood of sign-ins', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let clientDir: string;

  beforeAll(async () => {
    setPasswordHashCost({});
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-shell-'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), `<!doctype html><title>Fankurve</title>${'<!-- shell -->'.repeat(200)}`);
    t = await createTestApp({ CLIENT_DIR: clientDir, TRUST_PROXY: '1' });
    server = await listen(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  async function shellTimes(count: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const res = await fetch(`${server.url}/`);
      expect(res.status).toBe(200);
      await res.text();
      times.push(performance.now() - started);
    }
    return times;
  }

  it('keeps the app shell answering while 60 sign-ins with random names run; at most 2 hashes at once', async () => {
    await shellTimes(5);
    const idle = Math.max(...(await shellTimes(10)));
    const logins = Array.from({ length: 60 }, (_, i) =>
      fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${Math.floor(i / 200)}.${i % 200}` },
        body: JSON.stringify({ username: `random-${Math.random().toString(36).slice(2)}`, password: 'whatever' }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { code?: string } })),
    );
    const underFlood = await shellTimes(10);
    const answers = await Promise.all(logins);
    const worst = Math.max(...underFlood);
    console.log(`app shell: idle worst ${idle.toFixed(1)} ms, during 60 sign-ins worst ${worst.toFixed(1)} ms`);
    expect(hashGate.peak).toBeLessThanOrEqual(2);
    const busy = answers.filter((a) => a.status === 429);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((a) => a.body.code === 'serverBusy')).toBe(true);
    expect(answers.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(2);
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    // Main took 5.3 s here; a generous bound so a loaded CI machine does not fail it (the bench has the figure).
    expect(worst).toBeLessThan(1500);
  }, 60_000);

  /** A sign-in over HTTP from `address` (X-Forwarded-For, TRUST_PROXY=1), with the device cookie when given. */
  async function signIn(username: string, password: string, address: string, cookie?: string) {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ username, password }),
    });
    const body = (await res.json()) as { code?: string };
    return { status: res.status, code: body.code, setCookie: res.headers.getSetCookie() };
  }

  it('lets a member in from an address or device that signed in before while strangers flood the sign-in', async () => {
    await t.member('flood-owner', 'owner-pass');
    const first = await signIn('flood-owner', 'owner-pass', '192.0.2.10');
    expect(first.status).toBe(200);
    const deviceCookie = first.setCookie.find((cookie) => cookie.startsWith('fankurve_device='));
    expect(deviceCookie).toMatch(/HttpOnly/i);
    const cookie = deviceCookie!.split(';')[0]!;

    // 40 attackers keep sending wrong sign-ins with random names from ever new addresses.
    let flooding = true;
    let strangers = 0;
    const refused: string[] = [];
    const attacker = async () => {
      while (flooding) {
        const n = strangers++;
        const answer = await signIn(`random-${Math.random().toString(36).slice(2)}`, 'whatever', `198.19.${n >> 8}.${n & 255}`);
        if (answer.status === 429) refused.push(answer.code ?? '');
      }
    };
    // The gate's slots and its queue are held by hashes that end only when the test says so, so the
    // queue is full for as long as the test needs it, however fast or slow the machine is.
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const holders = Array.from({ length: PASSWORD_HASH_CONCURRENCY + PASSWORD_HASH_QUEUE }, () => hashGate.run(() => held));
    const attackers = Array.from({ length: 40 }, attacker);
    try {
      expect(hashGate.queued).toBe(PASSWORD_HASH_QUEUE);
      // A stranger's sign-in now is refused: the server is busy.
      expect((await signIn('flood-owner', 'owner-pass', '203.0.113.50')).code).toBe('serverBusy');
      // The member from home (a known address) and from their phone on another network (the device
      // cookie) wait in the trusted queue and go first once the held hashes end.
      const trusted = Promise.all([
        signIn('flood-owner', 'owner-pass', '192.0.2.10'),
        signIn('flood-owner', 'owner-pass', '203.0.113.77', cookie),
      ]);
      await vi.waitFor(() => expect(hashGate.queued).toBe(PASSWORD_HASH_QUEUE + 2), { timeout: 10_000, interval: 5 });
      await vi.waitFor(() => expect(refused.length).toBeGreaterThan(0), { timeout: 10_000, interval: 5 });
      releaseHeld();
      const [fromHome, fromPhone] = await trusted;
      expect(fromHome.status).toBe(200);
      expect(fromPhone.status).toBe(200);
      expect(refused.every((code) => code === 'serverBusy')).toBe(true);
    } finally {
      releaseHeld();
      flooding = false;
      await Promise.all([...attackers, ...holders]);
    }
  }, 60_000);
});
