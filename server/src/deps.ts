import fs from 'node:fs';
import path from 'node:path';
import { COMMENTS_PER_MINUTE } from '@fankurve/shared';
import { LiveUsers } from './auth/liveUsers.js';
import { LiveSessions } from './auth/liveSessions.js';
import { GuessThrottle, RateLimit, type Limit, type SignInThrottle } from './auth/throttle.js';
import { SharedCounters, SharedGuessThrottle, SharedRateLimit } from './auth/sharedThrottle.js';
import { loadOrCreateSecret, randomSecret } from './auth/secrets.js';
import { TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import { openConnection, type Connection } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { analyzeUnanalyzedTables } from './db/statistics.js';
import { CommitSignal } from './db/commitSignal.js';
import { CommitBus, write, type Store } from './db/store.js';
import { recordTicketRequests } from './domain/tickets/contingentAllocation.js';
import { bumpEventsOfAttendeeRows } from './domain/events/events.js';
import { followTicketsInLedger } from './domain/money/ledgerTickets.js';
import { deleteIdleSessions } from './domain/people/sessions.js';
import { prepareNewPassword } from './domain/people/newPassword.js';
import { ensureBootstrapAdmin, hasAdmin } from './domain/people/userAdmin.js';
import { randomPassword } from './domain/people/passwords.js';
import type { AppDeps } from './http/context.js';
import { eventsListAnswer } from './http/events.js';
import { createEventsListCache } from './http/eventsListCache.js';
import { createPasswordResetLimits } from './http/recovery.js';
import { AdminDigest } from './mail/adminDigest.js';
import { Mailer } from './mail/mailer.js';
import { COLLECTION_MODULES } from './collections/index.js';
import { joinNotifyHandlers } from './notify/handlers.js';
import { PushNotifier } from './notify/pushSubscriber.js';
import { DailyMatchImport } from './matches/dailyImport.js';
import { JobRunner } from './jobs/runner.js';
import { startContingentJob } from './jobs/ticketJobs.js';
import { startReminderJob } from './jobs/reminderJobs.js';
import { startPaymentReminderJob } from './jobs/paymentReminderJobs.js';
import { startRetentionJob } from './jobs/retentionJobs.js';
import { startPollJob } from './jobs/pollJobs.js';
import { startFareJob } from './jobs/fareJobs.js';

function readVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

export interface Runtime {
  deps: AppDeps;
  connection: Connection;
  /** This instance's runner of scheduled work (docs/architecture.md, "Jobs"); started here, stopped on shutdown. */
  jobs: JobRunner;
  /** The bootstrap admin's generated password, when one was just created (print it once). */
  /** The admin created on this start (an empty database): the password only when it was generated. */
  bootstrapAdmin: { username: string; password: string | null } | null;
}

/** Opens the database, runs migrations, creates the first admin: everything createApp needs. */
export async function prepareRuntime(config: Config): Promise<Runtime> {
  const connection = openConnection(config);
  await migrateToLatest(connection.db, connection.dialect);
  if (connection.dialect === 'postgres') await analyzeUnanalyzedTables(connection.db);
  const store: Store = {
    db: connection.db,
    writer: connection.writer,
    dialect: connection.dialect,
    commits: new CommitBus(),
    clubTimeZone: config.clubTimeZone,
    // The event document carries its going and maybe counts (docs/architecture.md, What a device keeps).
    // Ticket requests are recorded and contingents settled first (docs/architecture.md, Ticket contingents).
    // The ledger follows the tickets (docs/architecture.md, Ledger) before the events take their seqs.
    // A folder collection's own step (e.g. the rides' seats taken) runs before the events take theirs.
    beforeCommit: [
      recordTicketRequests,
      followTicketsInLedger,
      ...COLLECTION_MODULES.flatMap((module) => module.beforeCommit ?? []),
      bumpEventsOfAttendeeRows,
    ],
  };
  // Several instances on one PostgreSQL hear each other's commits (docs/architecture.md, "Several instances").
  if (connection.dialect === 'postgres' && config.databaseUrl) await CommitSignal.start(store, config.databaseUrl);
  const createdAdmin = await bootstrapAdmin(store, config);
  await deleteIdleSessions(store.db);
  const jwtSecret = loadOrCreateSecret(config.dataDir, 'jwt-secret', config.jwtSecret, randomSecret);
  const mailer = new Mailer(config);
  store.commits.onClose(() => mailer.close());
  const jobs = new JobRunner(store.db, { intervalMs: config.jobIntervalSeconds * 1000 });
  store.commits.onClose(() => void jobs.stop());

  // The commit bus's subscribers, all wired here (docs/architecture.md, "Adding a subscriber"). Caches
  // and change streams take other instances' commits too ({ remote: true }); web push and the mail
  // digest act on this instance's own commits only, so each commit is acted on once.
  const users = new LiveUsers(store.db);
  store.commits.subscribe(users.onCommit, { remote: true });
  const sessions = new LiveSessions(store.db);
  store.commits.subscribe(sessions.onCommit, { remote: true });
  const tokens = new TokenService(jwtSecret);
  store.commits.subscribe(tokens.onCommit, { remote: true });
  const adminDigest = AdminDigest.subscribedTo(store, mailer, config, jobs);
  const push = PushNotifier.subscribedTo(store, config, joinNotifyHandlers(COLLECTION_MODULES.flatMap((m) => m.notify ?? [])));
  const eventsList = createEventsListCache(store, () => eventsListAnswer(store.db));
  store.commits.subscribe(eventsList.onCommit, { remote: true });
  // Open change streams come and go: one subscriber fans each commit out to those open now.
  const changeStreams = new CommitBus();
  store.commits.subscribe((commit) => changeStreams.publish(commit), { remote: true });
  store.commits.onClose(() => changeStreams.close());

  const limits = createLimits(store, config);

  const deps: AppDeps = {
    config,
    store,
    tokens,
    users,
    sessions,
    ...limits,
    mailer,
    adminDigest,
    push,
    eventsList,
    changeStreams,
    version: readVersion(),
    warmUps: [],
  };
  // The optional daily fixture import (setting auto_import_matches), a job like the admins' digest.
  DailyMatchImport.start(store, config, jobs);
  // Ticket contingents: allocation at the request deadline, offers whose window ran out.
  startContingentJob(store, config, jobs);
  // Reminders to answer, to members who have not (docs/architecture.md, Answer deadlines and reminders).
  startReminderJob(store, config, jobs);
  // Reminders to pay, to members who have owed money for a while (docs/architecture.md, Ledger).
  startPaymentReminderJob(store, jobs);
  // Retention: what the books kept of erased members goes once its time has ended (docs/architecture.md, Erasure and retention).
  startRetentionJob(store, jobs);
  // Polls: a poll's close published when its closing time passes.
  startPollJob(store, jobs);
  // The bus fare, charged at the departure of options that say so (docs/architecture.md, The bus).
  startFareJob(store, jobs);
  jobs.start();
  return { deps, connection, jobs, bootstrapAdmin: createdAdmin };
}

/**
 * The sign-in throttle and the limits: in memory on SQLite (one process), in the database on
 * PostgreSQL, where several instances count together (docs/architecture.md, "Several instances").
 */
function createLimits(
  store: Store,
  config: Config,
): Pick<AppDeps, 'throttle' | 'registrations' | 'commentPace' | 'passwordResets'> {
  const HOUR = 60 * 60 * 1000;
  let throttle: SignInThrottle = new GuessThrottle();
  let limit = (_name: string, max: number, windowMs: number): Limit => new RateLimit(max, windowMs);
  if (store.dialect === 'postgres') {
    const counters = new SharedCounters(store.db);
    throttle = new SharedGuessThrottle(counters);
    limit = (name, max, windowMs) => new SharedRateLimit(counters, name, max, windowMs);
  }
  return {
    throttle,
    registrations: limit('registrations', config.registrationsPerHour, HOUR),
    commentPace: limit('comment-pace', COMMENTS_PER_MINUTE, 60_000),
    passwordResets: createPasswordResetLimits(limit),
  };
}

/**
 * Creates the first admin on an empty database; returns its name, and the password to print once
 * when it was generated (not when ADMIN_PASSWORD chose it), or null when an admin existed.
 */
async function bootstrapAdmin(store: Store, config: Config): Promise<{ username: string; password: string | null } | null> {
  if (await hasAdmin(store.db)) return null;
  const password = config.adminPassword ?? randomPassword();
  const prepared = await prepareNewPassword(password);
  const mustChangePassword = config.adminPassword === null;
  const created = await write(store, (w) =>
    ensureBootstrapAdmin(w, { username: config.adminUsername, password: prepared, mustChangePassword }),
  );
  if (!created) return null;
  return { username: config.adminUsername, password: mustChangePassword ? password : null };
}
