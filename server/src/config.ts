import path from 'node:path';
import { DEFAULT_TIME_ZONE, REGISTRATIONS_PER_ADDRESS } from '@fankurve/shared';

/** Typed configuration from the environment (README.md, Configuration). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Uploaded images (UPLOADS_DIR, default DATA_DIR/uploads); instances behind one address share it. */
  uploadsDir: string;
  databaseUrl: string | null;
  adminUsername: string;
  adminPassword: string | null;
  jwtSecret: string | null;
  vapidPublicKey: string | null;
  vapidPrivateKey: string | null;
  /** The contact of the VAPID JWT (`mailto:` or `https:`); null: unset (notify/vapid.ts decides). */
  vapidSubject: string | null;
  /** Push service hosts besides the well-known ones that subscriptions may point at (PUSH_ENDPOINT_HOSTS, comma-separated). */
  pushEndpointHosts: string[];
  smtpUrl: string | null;
  mailFrom: string;
  publicUrl: string;
  footballDataUrl: string;
  clubTimeZone: string;
  /** Reverse proxies in front of the server whose X-Forwarded-For is believed (0: none, the socket's address counts). */
  trustProxy: number;
  /** Registrations accepted per client address and hour. */
  registrationsPerHour: number;
  /** How often an instance looks for due jobs (JOB_INTERVAL_SECONDS; docs/architecture.md, "Jobs"). */
  jobIntervalSeconds: number;
  /** Built client to serve; null serves none (API only). */
  clientDir: string | null;
  /** Where `npm run backup` writes its archives (BACKUP_DIR, default DATA_DIR/backups). */
  backupDir: string;
  /** Archives `npm run backup` keeps; older ones are deleted (BACKUP_KEEP). */
  backupKeep: number;
}

const text = (value: string | undefined): string | null => (value && value.trim() !== '' ? value.trim() : null);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const host = text(env.HOST) ?? '127.0.0.1';
  const databaseUrl = text(env.DATABASE_URL);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite database)');
  }
  // Relative to where the command was started (npm runs workspace scripts in server/, INIT_CWD keeps the caller's folder).
  const startDir = text(env.INIT_CWD) ?? process.cwd();
  const dataDir = path.resolve(startDir, text(env.DATA_DIR) ?? './data');
  return {
    port,
    host,
    dataDir,
    uploadsDir: path.resolve(startDir, text(env.UPLOADS_DIR) ?? path.join(dataDir, 'uploads')),
    databaseUrl,
    adminUsername: text(env.ADMIN_USERNAME) ?? 'admin',
    adminPassword: text(env.ADMIN_PASSWORD),
    jwtSecret: text(env.JWT_SECRET),
    vapidPublicKey: text(env.VAPID_PUBLIC_KEY),
    vapidPrivateKey: text(env.VAPID_PRIVATE_KEY),
    vapidSubject: text(env.VAPID_SUBJECT),
    pushEndpointHosts: (text(env.PUSH_ENDPOINT_HOSTS) ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
    smtpUrl: text(env.SMTP_URL),
    mailFrom: text(env.MAIL_FROM) ?? 'Fankurve <noreply@localhost>',
    publicUrl: text(env.PUBLIC_URL) ?? `http://localhost:${port}`,
    footballDataUrl: text(env.FOOTBALL_DATA_URL) ?? 'https://api.openligadb.de',
    clubTimeZone: text(env.CLUB_TIME_ZONE) ?? DEFAULT_TIME_ZONE,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    registrationsPerHour: wholeNumber('REGISTRATIONS_PER_HOUR', env.REGISTRATIONS_PER_HOUR, REGISTRATIONS_PER_ADDRESS),
    jobIntervalSeconds: positiveSeconds('JOB_INTERVAL_SECONDS', env.JOB_INTERVAL_SECONDS, 60),
    clientDir: text(env.CLIENT_DIR) ?? path.resolve(import.meta.dirname, '../../client/dist'),
    backupDir: path.resolve(startDir, text(env.BACKUP_DIR) ?? path.join(dataDir, 'backups')),
    backupKeep: wholeNumber('BACKUP_KEEP', env.BACKUP_KEEP, 7),
  };
}

/** TRUST_PROXY: unset/false/0 = no proxy; true = one; a number = that many proxies in a row. */
function parseTrustProxy(value: string | undefined): number {
  const setting = text(value)?.toLowerCase();
  if (!setting || setting === 'false') return 0;
  if (setting === 'true') return 1;
  const hops = Number(setting);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10)
    throw new Error(`TRUST_PROXY must be true, false or a number of proxies, got ${value}`);
  return hops;
}

function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  const setting = text(value);
  if (setting === null) return fallback;
  const number = Number(setting);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a whole number of at least 1, got ${value}`);
  return number;
}

/** A number of seconds above 0 (fractions allowed: the tests look every few milliseconds). */
function positiveSeconds(name: string, value: string | undefined, fallback: number): number {
  const setting = text(value);
  if (setting === null) return fallback;
  const seconds = Number(setting);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 24 * 60 * 60)
    throw new Error(`${name} must be a number of seconds above 0, got ${value}`);
  return seconds;
}
