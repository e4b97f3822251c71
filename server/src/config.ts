import path from 'node:path';
import { DEFAULT_TIME_ZONE, REGISTRATIONS_PER_ADDRESS } from '@fankurve/shared';

/** Typed configuration from the environment (README.md, Configuration). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
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
  /** Built client to serve; null serves none (API only). */
  clientDir: string | null;
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
  return {
    port,
    host,
    // Relative to where the command was started (npm runs workspace scripts in server/, INIT_CWD keeps the caller's folder).
    dataDir: path.resolve(text(env.INIT_CWD) ?? process.cwd(), text(env.DATA_DIR) ?? './data'),
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
    clientDir: text(env.CLIENT_DIR) ?? path.resolve(import.meta.dirname, '../../client/dist'),
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
