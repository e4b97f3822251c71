import { PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE } from '@fankurve/shared';
import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { tooManyRequests } from '../errors.js';

/** Cost parameters of new hashes; each hash carries its own, so verifying works whatever they were. */
export interface PasswordHashCost {
  memoryCost?: number;
  timeCost?: number;
  parallelism?: number;
}

/** argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes: ~170 ms per hash on 2 cores). */
let hashCost: PasswordHashCost = {};

/**
 * Lowers (or raises) the cost of new hashes for this process. Only the test harness lowers it, so
 * hundreds of sign-ins per test file stay fast; the server never calls it.
 */
export function setPasswordHashCost(cost: PasswordHashCost): void {
  hashCost = { ...cost };
}

/**
 * Places in the gate's queue kept for trusted sign-ins only (an address or device that signed in to
 * the account before; GuessThrottle), beyond the PASSWORD_HASH_QUEUE everyone else shares.
 */
export const PASSWORD_HASH_TRUSTED_QUEUE = 8;

/** A trusted sign-in is served before every other waiting computation and has its own places. */
export type HashPriority = 'trusted' | 'normal';

/**
 * At most PASSWORD_HASH_CONCURRENCY argon2 computations run at once, PASSWORD_HASH_QUEUE wait; a
 * further one is refused with 429 at once. argon2 runs on libuv's thread pool, which file serving
 * and DNS share: unbounded, a flood of sign-ins or registrations stalls the app shell for everyone.
 * Trusted sign-ins wait in a queue of their own (PASSWORD_HASH_TRUSTED_QUEUE places) that is served
 * first, so a flood of strangers' sign-ins does not lock members out (docs/architecture.md,
 * "Sessions, throttles and limits").
 */
export class HashGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly trustedWaiting: Array<() => void> = [];
  /** The most that ever ran at once (tests and the bench read it). */
  peak = 0;

  constructor(
    private readonly concurrency = PASSWORD_HASH_CONCURRENCY,
    private readonly queueSize = PASSWORD_HASH_QUEUE,
    private readonly trustedQueueSize = PASSWORD_HASH_TRUSTED_QUEUE,
  ) {}

  /** How many computations wait for a slot (tests wait for a full queue). */
  get queued(): number {
    return this.waiting.length + this.trustedWaiting.length;
  }

  async run<T>(task: () => Promise<T>, priority: HashPriority = 'normal'): Promise<T> {
    if (this.running >= this.concurrency) {
      const [queue, size] =
        priority === 'trusted' ? [this.trustedWaiting, this.trustedQueueSize] : [this.waiting, this.queueSize];
      if (queue.length >= size) throw tooManyRequests('serverBusy', 2000);
      await new Promise<void>((resolve) => queue.push(resolve));
    } else {
      this.running += 1;
    }
    this.peak = Math.max(this.peak, this.running);
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter, trusted ones first, or free it.
      const next = this.trustedWaiting.shift() ?? this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** The process's gate (one server process; tests read its peak). */
export const hashGate = new HashGate();

export const hashPassword = (password: string): Promise<string> =>
  hashGate.run(() => argon2.hash(password, { type: argon2.argon2id, ...hashCost }));

/** Checks a password against its hash; a trusted sign-in (see HashGate) passes `'trusted'`. */
export async function verifyPassword(hash: string, password: string, priority: HashPriority = 'normal'): Promise<boolean> {
  return hashGate.run(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }, priority);
}

/** A readable random password for the bootstrap admin and admin-created users (shown once). */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}
