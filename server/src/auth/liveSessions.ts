import type { Kysely } from 'kysely';
import type { Database, SessionRow } from '../db/schema.js';
import type { Commit, Store } from '../db/store.js';
import { endsSessionsOf } from '../domain/domainEvents.js';
import { findSession, isSessionAlive, recordSessionUse } from '../domain/people/sessions.js';

/** A session's last use is written to the database at most this often (the 90-day idle limit needs no finer grain). */
const USE_WRITE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The sessions requests and change streams are checked against, kept in memory (like LiveUsers)
 * and forgotten on the domain events that end them: `session.ended`, and a password change,
 * deletion or decline of the user. So a request costs no query per session check and an ended
 * session stops working at once, on every instance (docs/architecture.md, "Several instances").
 * Last use is remembered here and written through hourly.
 */
export class LiveSessions {
  private readonly rows = new Map<string, Promise<SessionRow | undefined>>();
  private readonly lastUse = new Map<string, number>();
  private readonly writing = new Set<string>();

  constructor(private readonly db: Kysely<Database>) {}

  /** A cache subscribed to the store's commits, other instances' included (deps.ts wires it so). */
  static subscribedTo(store: Store): LiveSessions {
    const sessions = new LiveSessions(store.db);
    store.commits.subscribe(sessions.onCommit, { remote: true });
    return sessions;
  }

  /** The commit-bus subscriber: forgets the sessions a commit ended (all of them when commits were missed). */
  readonly onCommit = (commit: Commit): void => {
    if (commit.missed) this.rows.clear();
    for (const event of commit.events) {
      if (event.type === 'session.ended') this.forget(event.sessionId);
      else if (endsSessionsOf(event)) this.rows.clear();
    }
  };

  /** The live session `id` of `userId`, or undefined (unknown, ended, someone else's, or idle too long). */
  async find(id: string, userId: string, now = Date.now()): Promise<SessionRow | undefined> {
    let row = this.rows.get(id);
    if (!row) {
      row = findSession(this.db, id);
      this.rows.set(id, row);
      row.catch(() => this.rows.delete(id));
    }
    const session = await row;
    if (!session || session.user_id !== userId) return undefined;
    const seen = Math.max(this.lastUse.get(id) ?? 0, Date.parse(session.last_seen_at));
    return isSessionAlive(seen, now) ? session : undefined;
  }

  /** Notes a use of the session; writes it through when the stored one is an hour old. */
  touch(session: SessionRow, now = Date.now()): void {
    this.lastUse.set(session.id, now);
    if (now - Date.parse(session.last_seen_at) < USE_WRITE_INTERVAL_MS || this.writing.has(session.id)) return;
    const at = new Date(now).toISOString();
    this.writing.add(session.id);
    recordSessionUse(this.db, session.id, at)
      .then(() => {
        if (this.rows.has(session.id)) this.rows.set(session.id, Promise.resolve({ ...session, last_seen_at: at }));
      })
      .catch(() => undefined) // bookkeeping: the next use tries again
      .finally(() => this.writing.delete(session.id));
  }

  private forget(id: string): void {
    this.rows.delete(id);
    this.lastUse.delete(id);
  }
}
