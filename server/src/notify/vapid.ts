import { createECDH } from 'node:crypto';
import webpush from 'web-push';
import { loadOrCreateSecret } from '../auth/secrets.js';
import type { Config } from '../config.js';

/*
 * The VAPID identity of this server (RFC 8292): a P-256 key pair, from VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY or generated once into DATA_DIR/vapid-keys (mode 0600), and a contact
 * (VAPID_SUBJECT, a mailto: or https: address; unset: PUBLIC_URL when that is a public https
 * address). Push is "configured" when the keys are usable and the subject is a mailto: or https:
 * address. A localhost contact still works with Google's and Mozilla's push services, but Apple's
 * refuses it (BadJwtToken): the start-up log says so.
 */

export interface VapidIdentity {
  /** Keys usable and a mailto:/https: subject: the server can send. */
  configured: boolean;
  /** The application server key the browser subscribes with (base64url, 65 bytes); null when not configured. */
  publicKey: string | null;
  privateKey: string | null;
  subject: string | null;
  /** What the start-up log says: problems (push off) and warnings (push on, but not for everyone). */
  problems: string[];
  warnings: string[];
}

const FILE = 'vapid-keys';

interface KeyPair {
  publicKey: string;
  privateKey: string;
}

/** The key pair's problem, or null when the public key is the private key's (both base64url). */
export function keyPairProblem(pair: KeyPair): string | null {
  const publicKey = decode(pair.publicKey);
  const privateKey = decode(pair.privateKey);
  if (!publicKey || publicKey.length !== 65 || publicKey[0] !== 4)
    return 'the public key is not a base64url P-256 point (65 bytes)';
  if (!privateKey || privateKey.length !== 32) return 'the private key is not 32 bytes of base64url';
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(privateKey);
    if (!ecdh.getPublicKey().equals(publicKey)) return 'the public key does not belong to the private key';
  } catch {
    return 'the private key is not a P-256 key';
  }
  return null;
}

function decode(value: string): Buffer | null {
  return /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url') : null;
}

const isLocalHost = (host: string) =>
  host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.local');

/** Where a mailto: or https: subject points (the mail domain or the host); null when it is neither. */
function subjectHost(subject: string): string | null {
  let url: URL;
  try {
    url = new URL(subject);
  } catch {
    return null;
  }
  if (url.protocol === 'https:') return url.hostname.toLowerCase();
  if (url.protocol !== 'mailto:') return null;
  const address = decodeURIComponent(url.pathname);
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1 || /\s/.test(address)) return null;
  return address.slice(at + 1).toLowerCase();
}

export function resolveVapid(
  config: Pick<Config, 'dataDir' | 'vapidPublicKey' | 'vapidPrivateKey' | 'vapidSubject' | 'publicUrl'>,
): VapidIdentity {
  const problems: string[] = [];
  const warnings: string[] = [];

  let keys: KeyPair | null = null;
  if (config.vapidPublicKey && config.vapidPrivateKey) {
    keys = { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey };
    const problem = keyPairProblem(keys);
    if (problem) {
      problems.push(`VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY: ${problem}`);
      keys = null;
    }
  } else if (config.vapidPublicKey || config.vapidPrivateKey) {
    problems.push('only one of VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY is set: set both, or neither to use generated keys');
  } else {
    const stored = loadOrCreateSecret(config.dataDir, FILE, null, () => JSON.stringify(webpush.generateVAPIDKeys()));
    try {
      const parsed = JSON.parse(stored) as Partial<KeyPair>;
      keys = { publicKey: String(parsed.publicKey ?? ''), privateKey: String(parsed.privateKey ?? '') };
    } catch {
      keys = null;
    }
    const problem = keys ? keyPairProblem(keys) : 'it is not the JSON this server wrote';
    if (problem) {
      problems.push(`${FILE} in DATA_DIR: ${problem} (delete the file to generate new keys)`);
      keys = null;
    }
  }

  let subject = config.vapidSubject;
  if (subject) {
    const host = subjectHost(subject);
    if (host === null) {
      problems.push(`VAPID_SUBJECT must be a mailto: or https: address (e.g. mailto:board@your-club.example), got "${subject}"`);
      subject = null;
    } else if (isLocalHost(host)) {
      warnings.push(
        `VAPID_SUBJECT "${subject}" is a localhost address: Apple's push service refuses it, so iPhones, iPads and Macs get no notifications. Set a real mailto: or https: address.`,
      );
    }
  } else {
    const site = subjectHost(config.publicUrl);
    if (config.publicUrl.startsWith('https:') && site && !isLocalHost(site)) {
      subject = new URL(config.publicUrl).origin;
      warnings.push(
        `VAPID_SUBJECT is not set: push services see ${subject} (PUBLIC_URL) as the contact. Better set a mailto: address.`,
      );
    } else {
      subject = 'mailto:webpush@localhost';
      warnings.push(
        `VAPID_SUBJECT is missing: using ${subject}. Apple's push service refuses localhost contacts, so iPhones, iPads and Macs get no notifications. Set VAPID_SUBJECT=mailto:you@your-club.example.`,
      );
    }
  }

  const configured = keys !== null && subject !== null;
  return {
    configured,
    publicKey: configured ? keys!.publicKey : null,
    privateKey: configured ? keys!.privateKey : null,
    subject: configured ? subject : null,
    problems,
    warnings,
  };
}

/** The start-up log lines: push off and why, or on with its warnings. */
export function logVapid(identity: VapidIdentity, log: Pick<Console, 'warn' | 'error'> = console): void {
  if (!identity.configured) {
    log.error(`Web push is OFF: ${identity.problems.join('; ')}`);
    return;
  }
  for (const warning of identity.warnings) log.warn(`Web push: ${warning}`);
}
