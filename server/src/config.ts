import path from 'node:path';
import { DEFAULT_TIME_ZONE } from '@fankurve/shared';

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
  vapidSubject: string;
  smtpUrl: string | null;
  mailFrom: string;
  publicUrl: string;
  footballDataUrl: string;
  clubTimeZone: string;
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
    vapidSubject: text(env.VAPID_SUBJECT) ?? 'mailto:admin@localhost',
    smtpUrl: text(env.SMTP_URL),
    mailFrom: text(env.MAIL_FROM) ?? 'Fankurve <noreply@localhost>',
    publicUrl: text(env.PUBLIC_URL) ?? `http://localhost:${port}`,
    footballDataUrl: text(env.FOOTBALL_DATA_URL) ?? 'https://api.openligadb.de',
    clubTimeZone: text(env.CLUB_TIME_ZONE) ?? DEFAULT_TIME_ZONE,
    clientDir: text(env.CLIENT_DIR) ?? path.resolve(import.meta.dirname, '../../client/dist'),
  };
}
