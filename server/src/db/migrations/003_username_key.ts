import { usernameKey } from '@fankurve/shared';
import { sql, type Kysely } from 'kysely';

/*
 * Usernames are compared by a key folded in code (docs/product.md, Accounts and security), no longer by SQL lower(): SQLite's folds
 * ASCII only, so 'Özil' could not sign in and 'Özil' and 'özil' could both register. The key is
 * usernameKey() of shared/src/rules/usernames.ts as it is when this migration runs; should that
 * fold ever change, a new migration must recompute the keys.
 */

export interface UserKeyRow {
  id: string;
  username: string;
  created_at: string;
  deleted: number;
}

/**
 * The key of every user. Live users whose names fold together under the new key (possible before,
 * as the old index only knew ASCII case) must not share it: the oldest (created_at, then id, a
 * time-ordered UUIDv7) keeps the plain key, each later one gets `<key>#<id>`. Nobody is locked out
 * or renamed silently: the later account keeps its name and signs in by typing it exactly (see
 * findByUsername in domain/users.ts), the folded name stays taken while any of them lives, and an
 * admin can rename it. Deleted users get the plain key (the unique index ignores them).
 */
export function usernameKeys(rows: readonly UserKeyRow[]): Map<string, string> {
  const ordered = [...rows].sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.created_at < b.created_at ? -1 : 1,
  );
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const row of ordered) {
    const key = usernameKey(row.username);
    if (Number(row.deleted) !== 0) keys.set(row.id, key);
    else if (taken.has(key)) keys.set(row.id, `${key}#${row.id}`);
    else {
      taken.add(key);
      keys.set(row.id, key);
    }
  }
  return keys;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The default exists only because SQLite cannot add a NOT NULL column without one; every row gets its key below.
  await db.schema
    .alterTable('users')
    .addColumn('username_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const rows: UserKeyRow[] = await db.selectFrom('users').select(['id', 'username', 'created_at', 'deleted']).execute();
  for (const [id, key] of usernameKeys(rows)) {
    await db.updateTable('users').set({ username_key: key }).where('id', '=', id).execute();
  }
  // The key replaces the old lower(username) index, which would otherwise still answer for the names.
  await sql`DROP INDEX users_username_live`.execute(db);
  await sql`CREATE UNIQUE INDEX users_username_key_live ON users (username_key) WHERE deleted = 0`.execute(db);
}
