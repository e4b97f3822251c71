import { PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE } from '@fankurve/shared';
import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { tooManyRequests } from '../domain/errors.js';

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
 * At most PASSWORD_HASH_CONCURRENCY argon2 computations run at once, PASSWORD_HASH_QUEUE wait; a
 * further one is refused with 429 at once. argon2 runs on libuv's thread pool, which file serving
 * and DNS share: unbounded, a flood of sign-ins or registrations stalls the app shell for everyone.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** The most that ever ran at once (tests and the bench read it). */
  peak = 0;

  constructor(
    private readonly concurrency = PASSWORD_HASH_CONCURRENCY,
    private readonly queueSize = PASSWORD_HASH_QUEUE,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueSize) throw tooManyRequests('serverBusy', 2000);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    this.peak = Math.max(this.peak, this.running);
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter, or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** The process's gate (one server process; tests read its peak). */
export const hashGate = new HashGate();

export const hashPassword = (password: string): Promise<string> =>
  hashGate.run(() => argon2.hash(password, { type: argon2.argon2id, ...hashCost }));

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  return hashGate.run(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

/** A readable random password for the bootstrap admin and admin-created users (shown once). */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}
