import fs from 'node:fs';
import path from 'node:path';
import { LiveUsers } from './auth/liveUsers.js';
import { LiveSessions } from './auth/liveSessions.js';
import { GuessThrottle, RateLimit } from './auth/throttle.js';
import { loadOrCreateSecret, randomSecret } from './auth/secrets.js';
import { TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import { openConnection, type Connection } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { CommitBus, write, type Store } from './db/store.js';
import { deleteIdleSessions } from './domain/sessions.js';
import { prepareNewPassword } from './domain/newPassword.js';
import { ensureBootstrapAdmin, hasAdmin } from './domain/userAdmin.js';
import { randomPassword } from './auth/passwords.js';
import type { AppDeps } from './http/context.js';
import { eventsListAnswer } from './http/events.js';
import { createEventsListCache } from './http/eventsListCache.js';
import { createPasswordResetLimits } from './http/recovery.js';
import { AdminDigest } from './mail/adminDigest.js';
import { Mailer } from './mail/mailer.js';
import { PushNotifier } from './notify/pushSubscriber.js';
import { DailyMatchImport } from './matches/dailyImport.js';

function readVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

export interface Runtime {
  deps: AppDeps;
  connection: Connection;
  /** The bootstrap admin's generated password, when one was just created (print it once). */
  bootstrapPassword: string | null;
}

/** Opens the database, runs migrations, creates the first admin: everything createApp needs. */
export async function prepareRuntime(config: Config): Promise<Runtime> {
  const connection = openConnection(config);
  await migrateToLatest(connection.db, connection.dialect);
  const store: Store = {
    db: connection.db,
    dialect: connection.dialect,
    commits: new CommitBus(),
    clubTimeZone: config.clubTimeZone,
  };
  const bootstrapPassword = await bootstrapAdmin(store, config);
  await deleteIdleSessions(store.db);
  const jwtSecret = loadOrCreateSecret(config.dataDir, 'jwt-secret', config.jwtSecret, randomSecret);
  const mailer = new Mailer(config);
  store.commits.onClose(() => mailer.close());

  // The commit bus's subscribers, all wired here (docs/architecture.md, "Adding a subscriber").
  const users = LiveUsers.subscribedTo(store);
  const sessions = LiveSessions.subscribedTo(store);
  const adminDigest = AdminDigest.subscribedTo(store, mailer, config);
  const push = PushNotifier.subscribedTo(store, config);
  const eventsList = createEventsListCache(store, () => eventsListAnswer(store.db));
  store.commits.subscribe(eventsList.onCommit);
  // Open change streams come and go: one subscriber fans each commit out to those open now.
  const changeStreams = new CommitBus();
  store.commits.subscribe((commit) => changeStreams.publish(commit));
  store.commits.onClose(() => changeStreams.close());

  const deps: AppDeps = {
    config,
    store,
    tokens: new TokenService(jwtSecret),
    users,
    sessions,
    throttle: new GuessThrottle(),
    registrations: new RateLimit(config.registrationsPerHour, 60 * 60 * 1000),
    mailer,
    adminDigest,
    push,
    eventsList,
    changeStreams,
    passwordResets: createPasswordResetLimits(),
    version: readVersion(),
  };
  // The optional daily fixture import (setting auto_import_matches); stops when the commit bus closes.
  DailyMatchImport.start(store, config);
  return { deps, connection, bootstrapPassword };
}

/** Creates the first admin on an empty database; returns the generated password to print once, if one was generated. */
async function bootstrapAdmin(store: Store, config: Config): Promise<string | null> {
  if (await hasAdmin(store.db)) return null;
  const password = config.adminPassword ?? randomPassword();
  const prepared = await prepareNewPassword(password);
  const mustChangePassword = config.adminPassword === null;
  const created = await write(store, (w) =>
    ensureBootstrapAdmin(w, { username: config.adminUsername, password: prepared, mustChangePassword }),
  );
  return created && mustChangePassword ? password : null;
}
