import {
  SIGN_IN_ADDRESS_MAX_ATTEMPTS,
  SIGN_IN_DELAY_MAX_MS,
  SIGN_IN_FREE_FAILURES,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_MAX_FAILURES,
} from '@fankurve/shared';
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { tooManyRequests } from '../domain/errors.js';
import type { GuessTicket, Limit, SignInOrigin, SignInThrottle, TakeResult } from './throttle.js';

/*
 * The throttles and limits of throttle.ts counted in the database (table shared_counters, migration
 * 013), for several server instances on one PostgreSQL: guesses spread over instances are counted
 * together (docs/architecture.md, "Several instances"). Each counter's window runs from its first
 * hit; when it has passed, the count starts again. Each check is one conditional UPSERT.
 */

/** The largest count PostgreSQL's integer column compares with. */
const COUNT_MAX = 2_147_483_647;
/** A sign-in attempt still "running" after this long was lost with its process: it no longer counts. */
const RUNNING_STALE_MS = 2 * 60 * 1000;
/** Expired counters are deleted at most this often per instance. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const TRUSTED_PER_ACCOUNT = 20;

/**
 * A key or name as stored: printable ASCII as it is, anything else (umlauts, a NUL byte PostgreSQL
 * refuses, a name of a thousand characters) as its SHA-256.
 */
export function storedKey(text: string): string {
  return /^[\x21-\x7e]{1,120}$/.test(text) && !text.startsWith('#')
    ? text
    : `#${createHash('sha256').update(text).digest('base64url')}`;
}

const big = (value: number) => sql<number>`cast(${Math.round(value)} as bigint)`;

/** The counters table: counts hits per key and forgets expired keys now and then. */
export class SharedCounters {
  private lastSweep = 0;

  constructor(readonly db: Kysely<Database>) {}

  /** Counts one hit unless `max` are already counted in the key's window (then nothing is counted). */
  async take(name: string, max: number, windowMs: number, now: number, db = this.db): Promise<TakeResult> {
    this.sweep(now);
    const key = storedKey(name);
    const expired = sql<boolean>`shared_counters.window_start + shared_counters.window_ms <= ${big(now)}`;
    const row = await db
      .insertInto('shared_counters')
      .values({ key, window_start: now, window_ms: windowMs, hits: 1, running: 0, running_at: 0, last_at: 0 })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            window_start: sql<number>`case when ${expired} then ${big(now)} else shared_counters.window_start end`,
            window_ms: big(windowMs),
            hits: sql<number>`case when ${expired} then 1 else shared_counters.hits + 1 end`,
          })
          .where(sql<boolean>`${expired} or shared_counters.hits < ${Math.min(max, COUNT_MAX)}`),
      )
      .returning('hits')
      .executeTakeFirst();
    if (row) return { ok: true };
    const current = await db.selectFrom('shared_counters').select('window_start').where('key', '=', key).executeTakeFirst();
    return { ok: false, retryAfterMs: Math.max(1, Number(current?.window_start ?? now) + windowMs - now) };
  }

  /** Takes back one hit (an attempt that turned out to be no guess). */
  async drop(name: string): Promise<void> {
    const key = storedKey(name);
    await this.db
      .updateTable('shared_counters')
      .set({ hits: sql<number>`case when hits > 0 then hits - 1 else 0 end` })
      .where('key', '=', key)
      .execute();
  }

  async forget(name: string): Promise<void> {
    const key = storedKey(name);
    await this.db.deleteFrom('shared_counters').where('key', '=', key).execute();
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    this.db
      .deleteFrom('shared_counters')
      .where(sql<boolean>`window_start + window_ms <= ${big(now)}`)
      .where((eb) => eb.or([eb('running', '=', 0), eb('running_at', '<=', now - RUNNING_STALE_MS)]))
      .execute()
      .catch((error: unknown) => console.warn('Sweeping expired counters failed:', error));
  }
}

/** A RateLimit (throttle.ts) whose hits all instances count together; keys are prefixed with `name`. */
export class SharedRateLimit implements Limit {
  constructor(
    private readonly counters: SharedCounters,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  take(key: string, now = Date.now(), db?: Kysely<Database>): Promise<TakeResult> {
    return this.counters.take(`${this.name}:${key}`, this.max, this.windowMs, now, db);
  }
}

/**
 * GuessThrottle (throttle.ts) with the same three keys and rules, counted in the database: the
 * account+address pair and the address count attempts as they arrive (hits); the account counts
 * failures in its window (hits), the attempts still running, and the time of its latest failure, and
 * is admitted by compare-and-set so that "one attempt at a time" holds across instances. Trusted
 * addresses and devices are rows of sign_in_trust.
 */
export class SharedGuessThrottle implements SignInThrottle {
  private readonly db: Kysely<Database>;

  constructor(
    private readonly counters: SharedCounters,
    private readonly limits = {
      windowMs: LOGIN_FAILURE_WINDOW_MS,
      pairMax: LOGIN_MAX_FAILURES,
      addressMax: SIGN_IN_ADDRESS_MAX_ATTEMPTS,
      freeFailures: SIGN_IN_FREE_FAILURES,
      maxDelayMs: SIGN_IN_DELAY_MAX_MS,
    },
  ) {
    this.db = counters.db;
  }

  async begin(account: string, origin: string | SignInOrigin, now = Date.now()): Promise<GuessTicket> {
    const { address, device } = typeof origin === 'string' ? { address: origin, device: undefined } : origin;
    const { windowMs } = this.limits;
    const pairKey = `login-pair:${account}|${address}`;
    const addressKey = `login-address:${address}`;
    const accountKey = storedKey(`login-account:${account}`);
    const [trusted, pair] = await Promise.all([
      this.isTrusted(account, address, device),
      this.counters.take(pairKey, this.limits.pairMax, windowMs, now),
    ]);
    if (!pair.ok) throw tooManyRequests('tooManyLoginAttempts', windowMs);
    // A trusted address is counted but never held up by its own spraying (throttle.ts).
    const [byAddress, byAccount] = await Promise.allSettled([
      this.counters.take(addressKey, trusted ? COUNT_MAX : this.limits.addressMax, windowMs, now),
      this.admitAccount(accountKey, trusted, now),
    ]);
    const addressOk = byAddress.status === 'fulfilled' && byAddress.value.ok;
    if (!addressOk || byAccount.status === 'rejected') {
      await Promise.all([
        this.counters.drop(pairKey),
        addressOk ? this.counters.drop(addressKey) : null,
        byAccount.status === 'fulfilled' ? this.settleAccount(accountKey, 'cancelled', now) : null,
      ]).catch(() => undefined);
      if (byAddress.status === 'rejected') throw byAddress.reason;
      if (!addressOk) throw tooManyRequests('tooManyLoginAttempts', windowMs);
      throw (byAccount as PromiseRejectedResult).reason;
    }
    let settled = false;
    const settle = (work: () => Promise<unknown>) => {
      if (settled) return Promise.resolve();
      settled = true;
      return work().then(
        () => undefined,
        (error: unknown) => console.warn('Settling a sign-in attempt failed:', error),
      );
    };
    return {
      trusted,
      succeeded: () =>
        settle(() =>
          Promise.all([
            this.counters.forget(pairKey),
            this.counters.drop(addressKey),
            this.settleAccount(accountKey, 'succeeded', Date.now()),
            this.trust(account, 'address', address, Date.now()),
            device === undefined ? null : this.trust(account, 'device', device, Date.now()),
          ]),
        ),
      failed: (at = Date.now()) => settle(() => this.settleAccount(accountKey, 'failed', at)),
      cancelled: () =>
        settle(() =>
          Promise.all([
            this.counters.drop(pairKey),
            this.counters.drop(addressKey),
            this.settleAccount(accountKey, 'cancelled', Date.now()),
          ]),
        ),
    };
  }

  /** Admits one attempt on the account (running + 1) or throws 'signInDelayed'. */
  private async admitAccount(key: string, trusted: boolean, now: number): Promise<void> {
    const { windowMs, freeFailures, maxDelayMs } = this.limits;
    for (let tries = 0; tries < 8; tries++) {
      const row = await this.db.selectFrom('shared_counters').selectAll().where('key', '=', key).executeTakeFirst();
      if (!row) {
        const inserted = await this.db
          .insertInto('shared_counters')
          .values({ key, window_start: now, window_ms: windowMs, hits: 0, running: 1, running_at: now, last_at: 0 })
          .onConflict((oc) => oc.column('key').doNothing())
          .returning('key')
          .executeTakeFirst();
        if (inserted) return;
        continue;
      }
      const failures = Number(row.window_start) + windowMs > now ? row.hits : 0;
      const running = Number(row.running_at) + RUNNING_STALE_MS > now ? row.running : 0;
      if (!trusted) {
        const used = failures + running;
        if (used >= freeFailures) {
          const delay = Math.min(maxDelayMs, 1000 * 2 ** (used - freeFailures));
          const waitMs = running > 0 ? delay : Number(row.last_at) + delay - now;
          if (waitMs > 0) throw tooManyRequests('signInDelayed', waitMs);
        }
      }
      const updated = await this.db
        .updateTable('shared_counters')
        .set({ running: running + 1, running_at: now })
        .where('key', '=', key)
        .where('hits', '=', row.hits)
        .where('running', '=', row.running)
        .where('running_at', '=', row.running_at)
        .where('window_start', '=', row.window_start)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) return;
    }
    // Others kept changing the account's counter: as many attempts at once are guessing.
    throw tooManyRequests('signInDelayed', 1000);
  }

  private async settleAccount(key: string, outcome: 'succeeded' | 'failed' | 'cancelled', at: number): Promise<void> {
    const running = sql<number>`case when running > 0 then running - 1 else 0 end`;
    if (outcome === 'cancelled') {
      await this.db.updateTable('shared_counters').set({ running }).where('key', '=', key).execute();
    } else if (outcome === 'succeeded') {
      await this.db.updateTable('shared_counters').set({ running, hits: 0 }).where('key', '=', key).execute();
    } else {
      const expired = sql<boolean>`window_start + ${big(this.limits.windowMs)} <= ${big(at)}`;
      await this.db
        .updateTable('shared_counters')
        .set({
          running,
          hits: sql<number>`case when ${expired} then 1 else hits + 1 end`,
          window_start: sql<number>`case when ${expired} then ${big(at)} else window_start end`,
          last_at: at,
        })
        .where('key', '=', key)
        .execute();
    }
  }

  private async isTrusted(name: string, address: string, device: string | undefined): Promise<boolean> {
    const account = storedKey(name);
    const row = await this.db
      .selectFrom('sign_in_trust')
      .select('kind')
      .where('account', '=', account)
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', '=', 'address'), eb('value', '=', storedKey(address))]),
          ...(device === undefined ? [] : [eb.and([eb('kind', '=', 'device'), eb('value', '=', storedKey(device))])]),
        ]),
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Remembers an address or device that signed in to the account; keeps the latest TRUSTED_PER_ACCOUNT of each. */
  private async trust(name: string, kind: 'address' | 'device', text: string, now: number): Promise<void> {
    const account = storedKey(name);
    const value = storedKey(text);
    await this.db
      .insertInto('sign_in_trust')
      .values({ account, kind, value, last_at: now })
      .onConflict((oc) => oc.columns(['account', 'kind', 'value']).doUpdateSet({ last_at: now }))
      .execute();
    await this.db
      .deleteFrom('sign_in_trust')
      .where('account', '=', account)
      .where('kind', '=', kind)
      .where(
        'value',
        'not in',
        this.db
          .selectFrom('sign_in_trust')
          .select('value')
          .where('account', '=', account)
          .where('kind', '=', kind)
          .orderBy('last_at', 'desc')
          .limit(TRUSTED_PER_ACCOUNT),
      )
      .execute();
  }
}
