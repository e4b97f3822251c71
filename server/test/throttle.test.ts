import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../src/auth/throttle.js';

const WINDOW = 15 * 60 * 1000;

describe('LoginThrottle', () => {
  it('blocks after the 10th failure within 15 minutes, per username (any case) and IP', () => {
    const throttle = new LoginThrottle();
    const start = 1_000_000;
    for (let i = 0; i < 9; i++) throttle.recordFailure('Fan', '10.0.0.1', start + i);
    expect(throttle.isBlocked('fan', '10.0.0.1', start + 10)).toBe(false);
    throttle.recordFailure(' FAN ', '10.0.0.1', start + 10);
    expect(throttle.isBlocked('fan', '10.0.0.1', start + 11)).toBe(true);
    expect(throttle.isBlocked('fan', '10.0.0.2', start + 11)).toBe(false);
    expect(throttle.isBlocked('other', '10.0.0.1', start + 11)).toBe(false);
  });

  it('forgets failures older than the window (sliding)', () => {
    const throttle = new LoginThrottle();
    const start = 5_000_000;
    for (let i = 0; i < 10; i++) throttle.recordFailure('fan', 'ip', start + i * 1000);
    expect(throttle.isBlocked('fan', 'ip', start + WINDOW - 1)).toBe(true);
    // The first failure has left the window: 9 remain.
    expect(throttle.isBlocked('fan', 'ip', start + WINDOW + 1)).toBe(false);
    expect(throttle.isBlocked('fan', 'ip', start + WINDOW + 9 * 1000 + 1)).toBe(false);
  });

  it('is cleared by a successful sign-in', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 10; i++) throttle.recordFailure('fan', 'ip', 100 + i);
    expect(throttle.isBlocked('fan', 'ip', 200)).toBe(true);
    throttle.reset('FAN', 'ip');
    expect(throttle.isBlocked('fan', 'ip', 200)).toBe(false);
  });

  it('does not keep every name ever tried in memory', () => {
    const throttle = new LoginThrottle();
    const start = 10_000_000;
    for (let i = 0; i < 1000; i++) throttle.recordFailure(`guess-${i}`, 'ip', start + i);
    expect(throttle.size).toBe(1000);
    // Long after the window, the next failure sweeps the expired names away.
    throttle.recordFailure('late', 'ip', start + 2 * WINDOW);
    expect(throttle.size).toBe(1);
  });
});
