import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import type { Commit, Store } from '../db/store.js';
import { findLiveUser } from '../domain/people/accounts.js';

/**
 * The user rows the session checks on every request, kept in memory and dropped whenever a
 * committed write touches users: every write to the users table records a user.* or password.*
 * domain event (domain/people/accounts.ts, userAdmin.ts) and takes a members seq where members see it. So a
 * deleted, declined or re-passworded user still loses access at once, on every instance: other
 * instances' commits drop it too (docs/architecture.md, "Several instances").
 */
export class LiveUsers {
  private readonly rows = new Map<string, Promise<UserRow | undefined>>();

  constructor(private readonly db: Kysely<Database>) {}

  /** A cache subscribed to the store's commits, other instances' included (deps.ts wires it so). */
  static subscribedTo(store: Store): LiveUsers {
    const users = new LiveUsers(store.db);
    store.commits.subscribe(users.onCommit, { remote: true });
    return users;
  }

  /** The commit-bus subscriber: drops every cached row when a commit touched users (or may have). */
  readonly onCommit = (commit: Commit): void => {
    if (touchesUsers(commit)) this.rows.clear();
  };

  find(id: string): Promise<UserRow | undefined> {
    let row = this.rows.get(id);
    if (!row) {
      row = findLiveUser(this.db, id);
      this.rows.set(id, row);
      // A failed read is not remembered.
      row.catch(() => this.rows.delete(id));
    }
    return row;
  }
}

function touchesUsers(commit: Commit): boolean {
  return (
    commit.missed === true ||
    commit.collections.has('members') ||
    commit.events.some((event) => event.type.startsWith('user.') || event.type.startsWith('password.'))
  );
}
