import SQLite from 'better-sqlite3';
import { MESSAGES } from '@fankurve/shared';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as initial from '../src/db/migrations/001_initial.js';
import * as noticeContext from '../src/db/migrations/002_notice_context.js';
import * as usernameKeyMigration from '../src/db/migrations/003_username_key.js';
import { usernameKeys } from '../src/db/migrations/003_username_key.js';
import * as sessionsMigration from '../src/db/migrations/004_sessions.js';
import * as eventArchive from '../src/db/migrations/005_event_archive.js';
import * as push from '../src/db/migrations/006_push.js';
import * as comments from '../src/db/migrations/007_comments.js';
import * as matchImports from '../src/db/migrations/008_match_imports.js';
import * as usernameSkeletonMigration from '../src/db/migrations/009_username_skeleton.js';
import { usernameSkeleton } from '../src/db/usernameSkeleton.js';
import { countRows, createTestApp, register as registerAccount, testDatabase, type TestApp } from './helpers.js';

/** Usernames compared by a key folded in code, and the characters a name may not have (docs/architecture.md, "Rules once"). */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  // Registrations are limited per address: each one here comes from its own (forwarded) address.
  t = await createTestApp({ TRUST_PROXY: '1' });
  admin = await t.adminToken();
});
afterAll(() => t.close());

let registrations = 0;
/** A registration from an address and with an email of its own (names with spaces make no email). */
const register = (username: string, password = 'secret-1') => {
  registrations += 1;
  return registerAccount(t, username, {
    email: `fan${registrations}@example.org`,
    password,
    headers: { 'x-forwarded-for': `198.51.100.${registrations}` },
  });
};
/** Registers and approves; returns the id. */
const member = async (username: string, password: string) => {
  const res = await register(username, password);
  expect(res.status).toBe(201);
  expect((await t.call('PUT', `/api/auth/users/${res.body.user.id}/approve`, { token: admin })).status).toBe(200);
  return res.body.user.id as string;
};
const login = (username: string, password = 'secret-1') => t.call('POST', '/api/auth/login', { body: { username, password } });
const userRow = (id: string) =>
  t.runtime.deps.store.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('registration and sign-in fold the case in code', () => {
  let ozil: string;

  it('registers Özil and signs in as özil, ÖZIL and Özil', async () => {
    const res = await register('  Özil ');
    expect(res.status).toBe(201);
    expect(res.body.user.username).toBe('Özil');
    ozil = res.body.user.id;
    expect((await userRow(ozil)).username_key).toBe('özil');
    expect((await t.call('PUT', `/api/auth/users/${ozil}/approve`, { token: admin })).status).toBe(200);
    for (const name of ['özil', 'ÖZIL', 'Özil', 'O\u0308zil']) {
      const signIn = await login(name);
      expect(signIn.status, name).toBe(200);
      expect(signIn.body.user.id).toBe(ozil);
    }
    expect((await login('özil', 'wrong-pass')).body.code).toBe('invalidCredentials');
  });

  it('refuses özil and ÖZIL as taken (409 usernameTaken)', async () => {
    for (const name of ['özil', 'ÖZIL', 'O\u0308ZIL']) {
      const res = await register(name);
      expect(res.status, name).toBe(409);
      expect(res.body).toMatchObject({ success: false, code: 'usernameTaken', message: MESSAGES.usernameTaken });
    }
  });

  it('folds ß and SS together', async () => {
    expect((await register('Straße')).status).toBe(201);
    expect((await register('STRASSE')).body.code).toBe('usernameTaken');
  });

  it('frees the folded name when its account is deleted', async () => {
    const res = await register('Ärger');
    expect(res.status).toBe(201);
    expect((await t.call('DELETE', `/api/auth/users/${res.body.user.id}`, { token: admin })).status).toBe(200);
    expect((await register('ärger')).status).toBe(201);
  });
});

describe('refused usernames write nothing', () => {
  it.each([
    ['NUL', 'ad\u0000min', 'usernameInvalidCharacters'],
    ['zero-width space', 'ad\u200bmin', 'usernameInvalidCharacters'],
    ['right-to-left override', 'fan\u202egpj', 'usernameInvalidCharacters'],
    ['byte order mark', '\ufeffadmin', 'usernameInvalidCharacters'],
    ['Cyrillic а in a Latin name', '\u0430dmin', 'usernameMixedScripts'],
    ['Latin and Greek', 'r\u03bfot', 'usernameMixedScripts'],
  ])('%s: 400 with its message', async (_, username, code) => {
    const before = await countRows(t, 'users');
    const res = await register(username);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code, message: MESSAGES[code as keyof typeof MESSAGES] });
    expect(await countRows(t, 'users')).toBe(before);
  });

  it('allows pure Cyrillic and Greek names', async () => {
    expect((await register('Иван')).status).toBe(201);
    expect((await register('Πέτρος')).status).toBe(201);
  });

  it('answers a sign-in with such a name only invalidCredentials', async () => {
    for (const username of ['ad\u0000min', '\u0430dmin']) {
      const res = await login(username);
      expect(res.status, JSON.stringify(username)).toBe(401);
      expect(res.body.code).toBe('invalidCredentials');
    }
    const blank = await login(' \u00a0');
    expect(blank.status).toBe(400);
    expect(blank.body.code).toBe('invalidCredentials');
  });
});

describe('admin renames', () => {
  it('refuses a name that folds to a taken one (409) and stores the new key otherwise', async () => {
    const a = await register('Müller');
    const b = await register('Meier');
    const rename = (id: string, username: string) => t.call('PUT', `/api/auth/users/${id}`, { token: admin, body: { username } });
    const taken = await rename(b.body.user.id, 'MÜLLER');
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('usernameTaken');
    expect((await userRow(b.body.user.id)).username).toBe('Meier');
    // The same name in another case is the account's own.
    const own = await rename(a.body.user.id, 'MÜLLER');
    expect(own.status).toBe(200);
    expect(await userRow(a.body.user.id)).toMatchObject({ username: 'MÜLLER', username_key: 'müller' });
    const bad = await rename(b.body.user.id, 'Me\u200bier');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('usernameInvalidCharacters');
    const moved = await rename(b.body.user.id, 'Maier');
    expect(moved.status).toBe(200);
    expect((await userRow(b.body.user.id)).username_key).toBe('maier');
  });
});

describe('look-alike names in another script (confusable skeleton)', () => {
  const looksTaken = { success: false, code: 'usernameLooksTaken', message: MESSAGES.usernameLooksTaken };

  it('refuses Cyrillic сосо beside coco and раураӏ beside paypal at registration, writing nothing', async () => {
    expect((await register('coco')).status).toBe(201);
    expect((await register('PayPal')).status).toBe(201);
    for (const name of ['\u0441\u043e\u0441\u043e', '\u0440\u0430\u0443\u0440\u0430\u04cf', '\u0421\u041e\u0421\u041e']) {
      const before = await countRows(t, 'users');
      const res = await register(name);
      expect(res.status, name).toBe(409);
      expect(res.body, name).toEqual(looksTaken);
      expect(await countRows(t, 'users')).toBe(before);
    }
  });

  it('refuses a look-alike when an admin creates a user or renames one', async () => {
    const created = await t.call('POST', '/api/auth/users', {
      token: admin,
      body: { username: '\u0441\u043e\u0441\u043e', email: 'coco-cyr@example.org' },
    });
    expect(created.status).toBe(409);
    expect(created.body).toEqual(looksTaken);
    const other = await register('Bernd');
    const renamed = await t.call('PUT', `/api/auth/users/${other.body.user.id}`, {
      token: admin,
      body: { username: '\u0440\u0430\u0443\u0440\u0430\u04cf' },
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body).toEqual(looksTaken);
    expect((await userRow(other.body.user.id)).username).toBe('Bernd');
  });

  it('lets different names live side by side and a user rename to a look-alike of their own name', async () => {
    const anna = await register('anna');
    expect(anna.status).toBe(201);
    expect((await register('anja')).status).toBe(201);
    expect((await register('\u0410\u043d\u044f')).status).toBe(201);
    const own = await t.call('PUT', `/api/auth/users/${anna.body.user.id}`, { token: admin, body: { username: 'ANNA' } });
    expect(own.status).toBe(200);
    expect((await userRow(anna.body.user.id)).username_skeleton).toBe(usernameSkeleton('anna'));
  });

  it('the skeleton: one for look-alikes, apart for different names; rn and m are known look-alikes', () => {
    expect(usernameSkeleton('\u0441\u043e\u0441\u043e')).toBe(usernameSkeleton('coco'));
    expect(usernameSkeleton('\u0440\u0430\u0443\u0440\u0430\u04cf')).toBe(usernameSkeleton('paypal'));
    expect(usernameSkeleton('COCO')).toBe(usernameSkeleton('coco'));
    expect(usernameSkeleton('anna')).not.toBe(usernameSkeleton('anja'));
    expect(usernameSkeleton('Jürgen')).not.toBe(usernameSkeleton('Jurgen'));
    expect(usernameSkeleton('rn')).toBe(usernameSkeleton('m'));
  });

  it('every user has a skeleton, the admin created at start-up included', async () => {
    const rows = await t.runtime.deps.store.db.selectFrom('users').select(['username', 'username_skeleton', 'scope']).execute();
    expect(rows.some((row) => row.scope === 'admin')).toBe(true);
    for (const row of rows) expect(row.username_skeleton, row.username).toBe(usernameSkeleton(row.username));
  });
});

describe('migration 003: username_key backfill', () => {
  it('gives the oldest of colliding live users the plain key, later ones <key>#<id>', () => {
    const keys = usernameKeys([
      { id: 'b', username: 'özil', created_at: '2024-01-02T00:00:00.000Z', deleted: 0 },
      { id: 'a', username: 'Özil', created_at: '2024-01-01T00:00:00.000Z', deleted: 0 },
      { id: 'c', username: 'ÖZIL', created_at: '2024-01-01T00:00:00.000Z', deleted: 0 },
      { id: 'd', username: 'özil', created_at: '2023-01-01T00:00:00.000Z', deleted: 1 },
      { id: 'e', username: 'Straße', created_at: '2024-01-01T00:00:00.000Z', deleted: 0 },
    ]);
    expect(Object.fromEntries(keys)).toEqual({ a: 'özil', c: 'özil#c', b: 'özil#b', d: 'özil', e: 'strasse' });
  });

  it('migrates a database at 002 with two colliding users', async () => {
    const scratch = await scratchDatabase();
    try {
      const migrator = (migrations: Record<string, Migration>) =>
        new Migrator({ db: scratch.db, provider: { getMigrations: async () => migrations } });
      const at002 = { '001_initial': initial, '002_notice_context': noticeContext };
      expect((await migrator(at002).migrateToLatest()).error).toBeUndefined();
      const user = (id: string, username: string, created_at: string, deleted = 0) => ({
        id,
        username,
        email: `${id}@example.org`,
        password_hash: 'x',
        created_at,
        updated_at: created_at,
        seq: 1,
        deleted,
      });
      // Both allowed by the old lower(username) index on SQLite and PostgreSQL (lower() never maps ß to ss).
      await scratch.db
        .insertInto('users')
        .values([
          user('u-late', 'STRASSE', '2024-05-01T00:00:00.000Z'),
          user('u-early', 'Straße', '2024-01-01T00:00:00.000Z'),
          user('u-gone', 'strasse', '2023-01-01T00:00:00.000Z', 1),
          user('u-other', 'Jürgen', '2024-02-01T00:00:00.000Z'),
        ])
        .execute();
      const result = await migrator({ ...at002, '003_username_key': usernameKeyMigration }).migrateToLatest();
      expect(result.error).toBeUndefined();
      const rows = await scratch.db.selectFrom('users').select(['id', 'username_key']).orderBy('id').execute();
      expect(Object.fromEntries(rows.map((row: { id: string; username_key: string }) => [row.id, row.username_key]))).toEqual({
        'u-early': 'strasse',
        'u-late': 'strasse#u-late',
        'u-gone': 'strasse',
        'u-other': 'jürgen',
      });
      // The new index holds the key unique among live users.
      await expect(
        scratch.db
          .insertInto('users')
          .values({ ...user('u-new', 'Strasse', '2025-01-01T00:00:00.000Z'), username_key: 'strasse' })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await scratch.close();
    }
  });
});

describe('migration 009: username_skeleton backfill', () => {
  it('gives every user of a database at 008 their skeleton, look-alikes kept, and indexes it', async () => {
    const scratch = await scratchDatabase();
    try {
      const migrator = (migrations: Record<string, Migration>) =>
        new Migrator({ db: scratch.db, provider: { getMigrations: async () => migrations } });
      const at008 = {
        '001_initial': initial,
        '002_notice_context': noticeContext,
        '003_username_key': usernameKeyMigration,
        '004_sessions': sessionsMigration,
        '005_event_archive': eventArchive,
        '006_push': push,
        '007_comments': comments,
        '008_match_imports': matchImports,
      };
      expect((await migrator(at008).migrateToLatest()).error).toBeUndefined();
      const user = (id: string, username: string, username_key: string) => ({
        id,
        username,
        username_key,
        email: `${id}@example.org`,
        password_hash: 'x',
        created_at: '2024-01-01T00:00:00.000Z',
        updated_at: '2024-01-01T00:00:00.000Z',
        seq: 1,
        deleted: 0,
      });
      await scratch.db
        .insertInto('users')
        .values([
          user('u-latin', 'coco', 'coco'),
          user('u-cyrillic', '\u0441\u043e\u0441\u043e', '\u0441\u043e\u0441\u043e'),
          user('u-anna', 'Anna', 'anna'),
        ])
        .execute();
      const result = await migrator({ ...at008, '009_username_skeleton': usernameSkeletonMigration }).migrateToLatest();
      expect(result.error).toBeUndefined();
      const rows = await scratch.db.selectFrom('users').select(['id', 'username_skeleton']).orderBy('id').execute();
      expect(
        Object.fromEntries(rows.map((row: { id: string; username_skeleton: string }) => [row.id, row.username_skeleton])),
      ).toEqual({
        'u-anna': 'anna',
        'u-cyrillic': 'coco',
        'u-latin': 'coco',
      });
      expect(await indexNames(scratch.db)).toContain('users_username_skeleton_live');
    } finally {
      await scratch.close();
    }
  });
});

describe('accounts the migration gave a <key>#<id> key', () => {
  it('sign in by their exact name, and keep the folded name taken', async () => {
    const early = { id: await member('Weiß', 'early-pass') };
    const late = { id: await member('Weiss-tmp', 'late-pass') };
    // What migration 003 leaves for two live accounts whose names came to fold together.
    await t.runtime.deps.store.db
      .updateTable('users')
      .set({ username: 'WEISS', username_key: `weiss#${late.id}` })
      .where('id', '=', late.id)
      .execute();
    expect((await login('WEISS', 'late-pass')).body.user?.id).toBe(late.id);
    expect((await login('Weiß', 'early-pass')).body.user?.id).toBe(early.id);
    expect((await login('weiss', 'early-pass')).body.user?.id).toBe(early.id);
    expect((await register('weiss')).body.code).toBe('usernameTaken');
    expect((await t.call('DELETE', `/api/auth/users/${early.id}`, { token: admin })).status).toBe(200);
    expect((await register('WeiSS')).body.code).toBe('usernameTaken');
    // An admin resolves it by renaming the account.
    const renamed = await t.call('PUT', `/api/auth/users/${late.id}`, { token: admin, body: { username: 'Weiss 2' } });
    expect(renamed.status).toBe(200);
    expect((await register('WeiSS')).status).toBe(201);
  });
});

/** The names of the database's indexes, on SQLite or PostgreSQL (scratchDatabase's kind). */
async function indexNames(db: Kysely<any>): Promise<string[]> {
  const query = process.env.TEST_DATABASE_URL
    ? sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`
    : sql<{ name: string }>`select name from sqlite_master where type = 'index'`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

/** An empty database of the kind under test: SQLite in memory, or a fresh PostgreSQL database. */
async function scratchDatabase(): Promise<{ db: Kysely<any>; close(): Promise<void> }> {
  const postgres = await testDatabase();
  if (!postgres) {
    const db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    return { db, close: () => db.destroy() };
  }
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: postgres.url, max: 2 }) }) });
  return {
    db,
    close: async () => {
      await db.destroy();
      await postgres.drop();
    },
  };
}
