import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import type { Commit, Store } from '../db/store.js';
import { findLiveUser } from '../domain/accounts.js';

/**
 * The user rows the session checks on every request, kept in memory and dropped whenever a
 * committed write touches users: every write to the users table records a user.* or password.*
 * domain event (domain/accounts.ts, userAdmin.ts) and takes a members seq where members see it. So a
 * deleted, declined or re-passworded user still loses access at once. One process, like the
 * change stream (docs/architecture.md, domain events).
 */
export class LiveUsers {
  private readonly rows = new Map<string, Promise<UserRow | undefined>>();

  constructor(private readonly db: Kysely<Database>) {}

  static subscribedTo(store: Store): LiveUsers {
    const users = new LiveUsers(store.db);
    store.commits.subscribe((commit) => {
      if (touchesUsers(commit)) users.rows.clear();
    });
    return users;
  }

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
    commit.collections.has('members') ||
    commit.events.some((event) => event.type.startsWith('user.') || event.type.startsWith('password.'))
  );
}
