import type { OpenAPIHono } from '@hono/zod-openapi';
import type { LiveUsers } from '../auth/liveUsers.js';
import type { LiveSessions } from '../auth/liveSessions.js';
import type { Limit, SignInThrottle } from '../auth/throttle.js';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema.js';
import type { CommitBus, Store } from '../db/store.js';
import type { AdminDigest } from '../mail/adminDigest.js';
import type { Mailer } from '../mail/mailer.js';
import type { PushNotifier } from '../notify/pushSubscriber.js';
import type { CounterKeyedCache } from './eventsListCache.js';

/**
 * Limits of the password-reset routes (docs/architecture.md, "Sessions, throttles and limits"),
 * counted as requests arrive: reset mails per client address (a club evening on one Wi-Fi still
 * fits) and per email address (nobody's inbox is flooded), and token attempts per client address.
 * Made by `createPasswordResetLimits` (recovery.ts).
 */
export interface PasswordResetLimits {
  requestsPerAddress: Limit;
  requestsPerEmail: Limit;
  attemptsPerAddress: Limit;
}

/** Everything the app needs from outside; tests build it on a temp folder and run the real app. */
export interface AppDeps {
  config: Config;
  store: Store;
  tokens: TokenService;
  /** The user rows sessions are checked against (dropped on every committed change to users). */
  users: LiveUsers;
  /** The sessions tokens belong to (forgotten on the domain events that end them). */
  sessions: LiveSessions;
  /** Sign-in guessing, counted as attempts arrive (in the database on PostgreSQL: docs/architecture.md, "Several instances"). */
  throttle: SignInThrottle;
  /** Registrations per client address. */
  registrations: Limit;
  /** New comments per member over REST (COMMENTS_PER_MINUTE). */
  commentPace: Limit;
  /** Mail out (SMTP_URL, else the log); tests read what it sent. */
  mailer: Mailer;
  /** The admins' digest of new registrations and requests (subscribed when SMTP is configured). */
  adminDigest: AdminDigest;
  /** Web push: the VAPID identity and the notifier on the commit bus (notify/pushSubscriber.ts). */
  push: PushNotifier;
  /** The built answer of GET /api/events, made stale by the commits deps.ts hands it. */
  eventsList: CounterKeyedCache;
  /** The commits as the open change streams receive them: one subscriber of the bus in deps.ts fans out to each stream. */
  changeStreams: CommitBus;
  /** Reset mails per address and email, token attempts per address. */
  passwordResets: PasswordResetLimits;
  version: string;
  /**
   * Work done before the server takes requests (main.ts awaits it): the sync routes read the shared
   * lists and compress their pages, so a server started on match day meets the phones ready.
   */
  warmUps: Array<() => Promise<void>>;
  /** Interval of the sync stream's keep-alive comment (tests shorten it). */
  syncHeartbeatMs?: number;
}

export interface AppEnv {
  Variables: {
    /** The signed-in user, loaded fresh on every request (null when anonymous or the token is void). */
    user: UserRow | null;
    /** Why a presented token was refused, so the guard can answer 401 with the right message. */
    tokenProblem: 'invalid' | null;
    /** The session of the presented token (null when anonymous). */
    sessionId: string | null;
  };
}

export type Api = OpenAPIHono<AppEnv>;
