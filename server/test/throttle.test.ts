import { describe, expect, it, vi } from 'vitest';
import { HashGate } from '../src/domain/people/passwords.js';
import { GuessThrottle, RateLimit, type GuessTicket } from '../src/auth/throttle.js';
import { DomainError } from '../src/domain/errors.js';
import { createTestApp } from './helpers.js';

const WINDOW = 15 * 60 * 1000;

/** The error code a throttle call throws, or 'admitted'. */
function outcome(call: () => GuessTicket): string | GuessTicket {
  try {
    return call();
  } catch (error) {
    if (error instanceof DomainError) return `${error.code}:${error.status}`;
    throw error;
  }
}

describe('GuessThrottle', () => {
  it('counts attempts as they arrive: of 40 parallel guesses on one account only 5 are checked', () => {
    const throttle = new GuessThrottle();
    const now = 1_000_000;
    const results = Array.from({ length: 40 }, () => outcome(() => throttle.begin('fan', '10.0.0.1', now)));
    const admitted = results.filter((r) => typeof r !== 'string');
    expect(admitted).toHaveLength(5);
    expect(results.filter((r) => r === 'signInDelayed:429')).toHaveLength(35);
  });

  it('delays an account with a doubling wait instead of locking it', () => {
    const throttle = new GuessThrottle();
    let now = 2_000_000;
    for (let i = 0; i < 5; i++) (throttle.begin('fan', `10.0.0.${i}`, now) as GuessTicket).failed(now);
    // The sixth attempt waits 1 s after the last failure, the seventh 2 s, the eighth 4 s …
    expect(outcome(() => throttle.begin('fan', '10.9.9.9', now + 500))).toBe('signInDelayed:429');
    now += 1000;
    (throttle.begin('fan', '10.9.9.9', now) as GuessTicket).failed(now);
    expect(outcome(() => throttle.begin('fan', '10.9.9.9', now + 1500))).toBe('signInDelayed:429');
    now += 2000;
    (throttle.begin('fan', '10.9.9.9', now) as GuessTicket).failed(now);
    // The wait never grows beyond a minute.
    for (let i = 0; i < 20; i++) {
      now += 60_000;
      (throttle.begin('fan', `10.8.8.${i}`, now) as GuessTicket).failed(now);
    }
    expect(typeof throttle.begin('fan', '10.7.7.7', now + 60_000)).toBe('object');
  });

  it('lets the owner sign in from an address that signed in before while others guess', () => {
    const throttle = new GuessThrottle();
    const now = 3_000_000;
    (throttle.begin('fan', 'home', now) as GuessTicket).succeeded();
    for (let i = 0; i < 8; i++) {
      const attempt = outcome(() => throttle.begin('fan', `attacker-${i}`, now + i));
      if (typeof attempt !== 'string') attempt.failed(now + i);
    }
    expect(outcome(() => throttle.begin('fan', 'attacker-x', now + 10))).toBe('signInDelayed:429');
    expect(typeof throttle.begin('fan', 'home', now + 10)).toBe('object');
  });

  it('locks one account for one address after 10 failed or running attempts; other addresses go on', () => {
    const throttle = new GuessThrottle({ windowMs: WINDOW, pairMax: 10, addressMax: 30, freeFailures: 100, maxDelayMs: 60_000 });
    const now = 4_000_000;
    for (let i = 0; i < 9; i++) (throttle.begin('fan', 'ip', now) as GuessTicket).failed(now);
    const running = throttle.begin('fan', 'ip', now) as GuessTicket;
    expect(outcome(() => throttle.begin('fan', 'ip', now))).toBe('tooManyLoginAttempts:429');
    expect(typeof throttle.begin('fan', 'other-ip', now)).toBe('object');
    running.cancelled();
    expect(typeof throttle.begin('fan', 'ip', now)).toBe('object');
    // Sliding: after the window the failures are forgotten.
    expect(typeof throttle.begin('fan', 'ip', now + WINDOW + 1)).toBe('object');
  });

  it('limits guessing from one address across many names', () => {
    const throttle = new GuessThrottle();
    const now = 5_000_000;
    (throttle.begin('regular', 'sprayer', now) as GuessTicket).succeeded();
    for (let i = 0; i < 50; i++) (throttle.begin(`name-${i}`, 'sprayer', now) as GuessTicket).failed(now);
    expect(outcome(() => throttle.begin('name-x', 'sprayer', now))).toBe('tooManyLoginAttempts:429');
    expect(typeof throttle.begin('name-x', 'someone-else', now)).toBe('object');
    // A member who signed in from that shared address before is not held up by the spraying.
    expect(typeof throttle.begin('regular', 'sprayer', now)).toBe('object');
  });

  it('settles an attempt once, and a success clears the account and pair', () => {
    const throttle = new GuessThrottle();
    const now = 6_000_000;
    for (let i = 0; i < 4; i++) (throttle.begin('fan', 'ip', now) as GuessTicket).failed(now);
    const right = throttle.begin('fan', 'ip', now) as GuessTicket;
    right.succeeded();
    right.failed(now);
    for (let i = 0; i < 4; i++) (throttle.begin('fan', 'new-ip', now) as GuessTicket).failed(now);
    expect(typeof throttle.begin('fan', 'new-ip', now)).toBe('object');
  });

  it('leaves nothing running after a success: ten more failures fit before the lock', () => {
    const throttle = new GuessThrottle();
    const now = 7_000_000;
    (throttle.begin('fan', 'ip', now) as GuessTicket).succeeded();
    for (let i = 0; i < 9; i++) (throttle.begin('fan', 'ip', now) as GuessTicket).failed(now);
    expect(typeof throttle.begin('fan', 'ip', now)).toBe('object');
    expect(outcome(() => throttle.begin('fan', 'ip', now))).toBe('tooManyLoginAttempts:429');
  });

  it('does not keep every name ever tried in memory', () => {
    const throttle = new GuessThrottle();
    const start = 10_000_000;
    for (let i = 0; i < 1000; i++) (throttle.begin(`guess-${i}`, `ip-${i}`, start) as GuessTicket).failed(start);
    expect(throttle.size).toBeGreaterThanOrEqual(3000);
    (throttle.begin('late', 'ip', start + 2 * WINDOW) as GuessTicket).cancelled();
    expect(throttle.size).toBeLessThanOrEqual(3);
  });
});

describe('RateLimit', () => {
  it('allows max hits per window and key, then says how long to wait', () => {
    const limit = new RateLimit(5, 60_000);
    for (let i = 0; i < 5; i++) expect(limit.take('ip', 1000 + i)).toEqual({ ok: true });
    expect(limit.take('ip', 2000)).toEqual({ ok: false, retryAfterMs: 59_000 });
    expect(limit.take('other', 2000)).toEqual({ ok: true });
    expect(limit.take('ip', 61_001)).toEqual({ ok: true });
  });
});

describe('HashGate', () => {
  it('runs at most two at once, queues sixteen, refuses the rest with 429 serverBusy', async () => {
    const gate = new HashGate(2, 16);
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      new Promise<string>((resolve) => {
        running += 1;
        peak = Math.max(peak, running);
        releases.push(() => {
          running -= 1;
          resolve('done');
        });
      });
    const calls = Array.from({ length: 30 }, () => gate.run(task).catch((error: DomainError) => `${error.code}:${error.status}`));
    await vi.waitFor(() => expect(gate.queued).toBe(16));
    expect(running).toBe(2);
    // Two running and sixteen waiting: eighteen tasks end in all. Each end frees a place, and the task
    // it goes to starts and offers its own release.
    for (let ended = 0; ended < 18; ended++) {
      await vi.waitFor(() => expect(releases.length).toBeGreaterThan(0));
      releases.shift()!();
    }
    const results = await Promise.all(calls);
    expect(results.filter((r) => r === 'done')).toHaveLength(18);
    expect(results.filter((r) => r === 'serverBusy:429')).toHaveLength(12);
    expect(peak).toBe(2);
    expect(gate.peak).toBe(2);
  });
});

describe('trusted sign-ins', () => {
  it('trusts a device that signed in to the account before, from any address, like a known address', () => {
    const throttle = new GuessThrottle();
    const now = 4_000_000;
    const first = throttle.begin('fan', { address: '10.0.0.1', device: 'phone' }, now);
    expect(first.trusted).toBe(false);
    first.succeeded();
    const sameAddress = throttle.begin('fan', { address: '10.0.0.1' }, now);
    expect(sameAddress.trusted).toBe(true);
    sameAddress.cancelled();
    // Others guess on the account from elsewhere: the phone on a new network is neither delayed nor distrusted.
    for (let i = 0; i < 5; i++) (throttle.begin('fan', `10.6.6.${i}`, now) as GuessTicket).failed(now);
    expect(outcome(() => throttle.begin('fan', { address: '10.6.6.99' }, now + 10))).toBe('signInDelayed:429');
    const phone = throttle.begin('fan', { address: '172.16.0.9', device: 'phone' }, now + 10);
    expect(phone.trusted).toBe(true);
    // The device is the account's only: on another account it is a stranger.
    expect(throttle.begin('other', { address: '172.16.0.9', device: 'phone' }, now + 10).trusted).toBe(false);
  });

  it('HashGate: a trusted computation goes ahead of every waiting one and has places beyond the full queue', async () => {
    const gate = new HashGate(2, 4, 1);
    const order: string[] = [];
    const releases: Array<() => void> = [];
    const task = (name: string) => () =>
      new Promise<string>((resolve) => {
        releases.push(() => {
          order.push(name);
          resolve(name);
        });
      });
    const refused = (error: DomainError) => `${error.code}:${error.status}`;
    const strangers = Array.from({ length: 7 }, (_, i) => gate.run(task(`stranger-${i}`)).catch(refused));
    await vi.waitFor(() => expect(gate.queued).toBe(4));
    const owner = gate.run(task('owner'), 'trusted').catch(refused);
    const second = await gate.run(task('second owner'), 'trusted').catch(refused);
    expect(second).toBe('serverBusy:429');
    // One of the two running ends: the owner runs next, before the four strangers who waited longer.
    // Six strangers were admitted (two running, four waiting) and the owner: seven tasks end in all.
    // Each end frees a place, and the task it goes to starts and offers its own release.
    while (order.length < 7) {
      await vi.waitFor(() => expect(releases.length).toBeGreaterThan(0));
      releases.shift()!();
    }
    expect(await owner).toBe('owner');
    expect(order.slice(0, 3)).toEqual(['stranger-0', 'stranger-1', 'owner']);
    const results = await Promise.all(strangers);
    expect(results.filter((r) => r === 'serverBusy:429')).toHaveLength(1);
  });
});

describe('X-Forwarded-For without TRUST_PROXY', () => {
  it('warns once per process that the server is likely behind a proxy and should set TRUST_PROXY', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const t = await createTestApp();
    try {
      const login = (headers: Record<string, string>) =>
        t.call('POST', '/api/auth/login', { body: { username: 'nobody', password: 'whatever' }, headers });
      await login({});
      expect(proxyWarnings(warn.mock.calls)).toHaveLength(0);
      for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) await login({ 'x-forwarded-for': address });
      await t.call('POST', '/api/auth/forgot-password', {
        body: { email: 'nobody@example.org' },
        headers: { 'x-forwarded-for': '203.0.113.4' },
      });
      const warnings = proxyWarnings(warn.mock.calls);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/behind a reverse proxy/);
    } finally {
      warn.mockRestore();
      await t.close();
    }
  });
});

const proxyWarnings = (calls: unknown[][]) =>
  calls.map((args) => String(args[0])).filter((text) => text.includes('X-Forwarded-For') && text.includes('TRUST_PROXY'));
