import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** A secret from the environment, or one generated once into DATA_DIR with mode 0600. */
export function loadOrCreateSecret(dataDir: string, name: string, fromEnv: string | null, create: () => string): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = create();
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export const randomSecret = (): string => randomBytes(48).toString('base64url');
