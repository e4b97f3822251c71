import {
  SIGN_IN_ADDRESS_MAX_ATTEMPTS,
  SIGN_IN_DELAY_MAX_MS,
  SIGN_IN_FREE_FAILURES,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_MAX_FAILURES,
} from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { tooManyRequests } from '../domain/errors.js';

/** One hit counted, or refused with the wait until the window allows another. */
export type TakeResult = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * A limit per key: RateLimit in memory (SQLite, one process), SharedRateLimit in the database
 * (PostgreSQL, where several instances count together; sharedThrottle.ts). `db` lets a shared
 * limit count inside the caller's transaction.
 */
export interface Limit {
  take(key: string, now?: number, db?: Kysely<Database>): TakeResult | Promise<TakeResult>;
}

/** The sign-in throttle: GuessThrottle in memory, or SharedGuessThrottle in the database. */
export interface SignInThrottle {
  begin(account: string, origin: string | SignInOrigin, now?: number): GuessTicket | Promise<GuessTicket>;
}

/**
 * Throttles guessing of a secret (sign-in; password reset later) — docs/architecture.md, security.
 * Every attempt counts from the moment it arrives, so parallel guesses cannot slip past while the
 * first ones are still being checked. Three keys:
 * - account + address: at most LOGIN_MAX_FAILURES failed or running attempts per window, then
 *   429 for that address only;
 * - address alone: at most SIGN_IN_ADDRESS_MAX_ATTEMPTS per window across all names (spraying),
 *   except for accounts the address signed in to before;
 * - account alone (any address): after SIGN_IN_FREE_FAILURES, one attempt at a time with a delay that
 *   doubles per failure up to SIGN_IN_DELAY_MAX_MS. Never a lock: a victim waits a minute at most,
 *   and an address that signed in to the account before is not delayed at all.
 * A device that signed in to the account before (its device cookie, http/auth.ts) is trusted like
 * such an address, and a trusted attempt's ticket says so: its password check goes first
 * (HashGate in passwords.ts). In memory, for one server process (SQLite); on PostgreSQL
 * SharedGuessThrottle counts the same in the database (sharedThrottle.ts).
 */
export class GuessThrottle implements SignInThrottle {
  private readonly pairs = new Counter();
  private readonly addresses = new Counter();
  private readonly accounts = new Map<string, AccountState>();
  private lastSweep = 0;

  constructor(
    private readonly limits = {
      windowMs: LOGIN_FAILURE_WINDOW_MS,
      pairMax: LOGIN_MAX_FAILURES,
      addressMax: SIGN_IN_ADDRESS_MAX_ATTEMPTS,
      freeFailures: SIGN_IN_FREE_FAILURES,
      maxDelayMs: SIGN_IN_DELAY_MAX_MS,
    },
  ) {}

  /**
   * Admits one attempt for `account` (already normalised by the caller) from `origin` (an address,
   * or an address and the id of the device's cookie), or throws 429. The attempt must be settled
   * with `succeeded` or `failed` on the returned ticket.
   */
  begin(account: string, origin: string | SignInOrigin, now = Date.now()): GuessTicket {
    const { address, device } = typeof origin === 'string' ? { address: origin, device: undefined } : origin;
    this.sweep(now);
    const { windowMs } = this.limits;
    const pair = `${account}|${address}`;
    if (this.pairs.count(pair, now, windowMs) >= this.limits.pairMax) throw tooManyRequests('tooManyLoginAttempts', windowMs);
    const state = this.accountState(account);
    // An address or device that signed in to this account before is its owner's: neither others' guessing
    // on the account nor the address's own spraying (a shared NAT, a stadium Wi-Fi) holds them up.
    const trusted = state.trusted.has(address) || (device !== undefined && state.trustedDevices.has(device));
    if (!trusted && this.addresses.count(address, now, windowMs) >= this.limits.addressMax) {
      throw tooManyRequests('tooManyLoginAttempts', windowMs);
    }
    if (!trusted) this.admitAccount(state, now);
    const pairTicket = this.pairs.add(pair);
    const addressTicket = this.addresses.add(address);
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      state.running -= 1;
      return true;
    };
    state.running += 1;
    return {
      trusted,
      succeeded: () => {
        if (!settle()) return;
        pairTicket.done();
        this.pairs.forget(pair);
        addressTicket.done();
        state.failures = [];
        remember(state.trusted, address);
        if (device !== undefined) remember(state.trustedDevices, device);
      },
      failed: (at = Date.now()) => {
        if (!settle()) return;
        pairTicket.failed(at);
        addressTicket.failed(at);
        state.failures.push(at);
        state.lastFailure = at;
      },
      /** Neither a success nor a guess (e.g. the server was too busy to check it). */
      cancelled: () => {
        if (!settle()) return;
        pairTicket.done();
        addressTicket.done();
      },
    };
  }

  private admitAccount(state: AccountState, now: number): void {
    state.failures = state.failures.filter((at) => now - at < this.limits.windowMs);
    const used = state.failures.length + state.running;
    if (used < this.limits.freeFailures) return;
    const delay = Math.min(this.limits.maxDelayMs, 1000 * 2 ** (used - this.limits.freeFailures));
    const waitMs = state.running > 0 ? delay : state.lastFailure + delay - now;
    if (waitMs > 0) throw tooManyRequests('signInDelayed', waitMs);
  }

  private accountState(account: string): AccountState {
    let state = this.accounts.get(account);
    if (!state) {
      state = { failures: [], lastFailure: 0, running: 0, trusted: new Set(), trustedDevices: new Set() };
      this.accounts.set(account, state);
    }
    return state;
  }

  /** How many keys are remembered (tests: names chosen by strangers must not pile up). */
  get size(): number {
    return this.pairs.size + this.addresses.size + this.accounts.size;
  }

  /** Forgets expired keys at most once per window: every name ever tried would stay in memory otherwise. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.limits.windowMs) return;
    this.lastSweep = now;
    this.pairs.sweep(now, this.limits.windowMs);
    this.addresses.sweep(now, this.limits.windowMs);
    for (const [account, state] of this.accounts) {
      state.failures = state.failures.filter((at) => now - at < this.limits.windowMs);
      const remembers = state.trusted.size + state.trustedDevices.size > 0;
      if (state.failures.length === 0 && state.running === 0 && !remembers) this.accounts.delete(account);
    }
  }
}

/** Where a sign-in comes from: the client's address and, when it sent one, its device cookie's id. */
export interface SignInOrigin {
  address: string;
  device?: string;
}

/** The most trusted addresses, and devices, kept per account (the oldest goes first). */
const TRUSTED_PER_ACCOUNT = 20;

function remember(trusted: Set<string>, key: string): void {
  trusted.delete(key);
  trusted.add(key);
  if (trusted.size > TRUSTED_PER_ACCOUNT) trusted.delete(trusted.values().next().value!);
}

export interface GuessTicket {
  /** The address or device signed in to the account before: not delayed, and checked first. */
  readonly trusted: boolean;
  /** Settling a shared ticket writes to the database; await it before answering. */
  succeeded(): void | Promise<void>;
  failed(at?: number): void | Promise<void>;
  cancelled(): void | Promise<void>;
}

interface AccountState {
  failures: number[];
  lastFailure: number;
  running: number;
  /** Addresses that signed in to this account successfully: not delayed by others' guessing. */
  trusted: Set<string>;
  /** Device cookie ids that signed in to this account successfully: trusted like those addresses. */
  trustedDevices: Set<string>;
}

/** Attempts per key: failures within the window plus the ones still running. */
class Counter {
  private readonly entries = new Map<string, { failures: number[]; running: number }>();

  count(key: string, now: number, windowMs: number): number {
    const entry = this.entries.get(key);
    if (!entry) return 0;
    entry.failures = entry.failures.filter((at) => now - at < windowMs);
    return entry.failures.length + entry.running;
  }

  add(key: string) {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { failures: [], running: 0 };
      this.entries.set(key, entry);
    }
    const held = entry;
    held.running += 1;
    return {
      failed: (at: number) => {
        held.running -= 1;
        held.failures.push(at);
      },
      done: () => {
        held.running -= 1;
      },
    };
  }

  forget(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.failures = [];
  }

  sweep(now: number, windowMs: number): void {
    for (const [key, entry] of this.entries) {
      entry.failures = entry.failures.filter((at) => now - at < windowMs);
      if (entry.failures.length === 0 && entry.running === 0) this.entries.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Counts events per key in a sliding window, from the moment they arrive (registrations per
 * address, comments per member, password resets). In memory; SharedRateLimit on PostgreSQL.
 */
export class RateLimit implements Limit {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit for `key`; returns how long to wait when the limit is reached (the hit is then not counted). */
  take(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterMs: number } {
    this.sweep(now);
    const recent = (this.hits.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (recent.length >= this.max) return { ok: false, retryAfterMs: recent[0]! + this.windowMs - now };
    recent.push(now);
    this.hits.set(key, recent);
    return { ok: true };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, list] of this.hits) {
      if (list.every((at) => now - at >= this.windowMs)) this.hits.delete(key);
    }
  }

  get size(): number {
    return this.hits.size;
  }
}
