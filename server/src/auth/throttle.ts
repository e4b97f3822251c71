import { LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES } from '@fankurve/shared';

/** Counts failed sign-ins per username and IP in a sliding window (in memory: one server process). */
export class LoginThrottle {
  private failures = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly maxFailures = LOGIN_MAX_FAILURES,
    private readonly windowMs = LOGIN_FAILURE_WINDOW_MS,
  ) {}

  private key(username: string, ip: string): string {
    return `${username.trim().toLowerCase()}|${ip}`;
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  isBlocked(username: string, ip: string, now = Date.now()): boolean {
    return this.recent(this.key(username, ip), now).length >= this.maxFailures;
  }

  recordFailure(username: string, ip: string, now = Date.now()): void {
    this.sweep(now);
    const key = this.key(username, ip);
    this.failures.set(key, [...this.recent(key, now), now]);
  }

  /** How many username/IP pairs have failures on record. */
  get size(): number {
    return this.failures.size;
  }

  /**
   * Forgets pairs whose failures are all older than the window, at most once per window: names are
   * chosen by whoever signs in, so without this every name ever tried would stay in memory.
   */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const key of [...this.failures.keys()]) this.recent(key, now);
  }

  reset(username: string, ip: string): void {
    this.failures.delete(this.key(username, ip));
  }
}
