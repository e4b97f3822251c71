import { execFileSync } from 'node:child_process';
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify as verifySignature,
  type ECDH,
} from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

/*
 * A real push endpoint for the server tests (docs/architecture.md, web push; push.test.ts and
 * reminders.test.ts): an HTTPS server on 127.0.0.1 with a self-signed certificate (web-push always
 * speaks TLS; the notifier's agent trusts the certificate), test "devices" with their own keys, the
 * check of a message's VAPID Authorization header (the JWT's ES256 signature against the server's
 * public key, aud = the endpoint's origin, exp, sub) and the decryption of its body (RFC 8291 /
 * RFC 8188 aes128gcm) with the device's private key and auth secret.
 */

export interface Received {
  deviceId: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The local push service: records what arrives per device path, answers what the test says. */
export class LocalPushService {
  readonly received: Received[] = [];
  /** Per device: the status to answer, or 'hang' (never answer). Default 201. */
  readonly answers = new Map<string, number | 'hang'>();
  inFlight = 0;
  maxInFlight = 0;
  private hanging: (() => void)[] = [];

  private readonly server: https.Server;
  origin = '';

  private constructor(
    key: string,
    readonly cert: string,
  ) {
    this.server = https.createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const deviceId = decodeURIComponent((req.url ?? '').replace(/^\/push\//, ''));
        this.received.push({ deviceId, headers: req.headers, body: Buffer.concat(chunks) });
        const answer = this.answers.get(deviceId) ?? 201;
        if (answer === 'hang') {
          this.inFlight++;
          this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
          this.hanging.push(() => res.destroy());
          req.socket.on('close', () => this.inFlight--);
          return;
        }
        res.writeHead(answer).end();
      });
    });
  }

  /** Starts it on a random port of 127.0.0.1 with a fresh self-signed certificate for that address. */
  static async start(): Promise<LocalPushService> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-push-'));
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'];
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
    execFileSync('openssl', ['req', '-x509', ...ec, '-nodes', '-days', '1', ...subject, '-keyout', keyFile, '-out', certFile], {
      stdio: 'ignore',
    });
    const service = new LocalPushService(fs.readFileSync(keyFile, 'utf8'), fs.readFileSync(certFile, 'utf8'));
    fs.rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
    service.origin = `https://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
    return service;
  }

  /** A TLS agent that trusts this service's certificate (for the notifier: `push.agent = …`). */
  agent(): https.Agent {
    return new https.Agent({ ca: this.cert });
  }

  reset(): void {
    this.received.length = 0;
    this.maxInFlight = this.inFlight;
  }

  async close(): Promise<void> {
    for (const release of this.hanging) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A browser's push subscription: its keys stay here, the server gets the public part. */
export interface PushKeys {
  id: string;
  ecdh: ECDH;
  publicKey: Buffer;
  auth: Buffer;
  endpoint: string;
}

/** A subscribed device: its keys and the bearer token of the session (signed-in device) the subscription belongs to. */
export interface Device extends PushKeys {
  token: string;
}

/** The declarative web push message as the server sends it (notify/recipients.ts). */
export interface Payload {
  web_push: number;
  notification: { title: string; body: string; navigate: string; lang: string };
  app_badge: number;
}

let deviceCounter = 0;

/** The subscription JSON a browser hands over (`PushSubscription.toJSON()`). */
export function subscriptionOf(device: Pick<PushKeys, 'endpoint' | 'publicKey' | 'auth'>) {
  return {
    endpoint: device.endpoint,
    expirationTime: null,
    keys: { p256dh: device.publicKey.toString('base64url'), auth: device.auth.toString('base64url') },
  };
}

/** Fresh keys of a device whose endpoint is a path of `service`. */
export function newKeys(service: LocalPushService, name: string): PushKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const id = `${name}-${++deviceCounter}`;
  return { id, ecdh, publicKey: ecdh.getPublicKey(), auth: randomBytes(16), endpoint: `${service.origin}/push/${id}` };
}

/** Checks the VAPID header of a message (RFC 8292): ES256 over header.payload with the server's key; aud, exp, sub. */
export function checkVapid(
  authorization: string | undefined,
  expected: { serverKey: string; origin: string; subject: string },
): void {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  expect(match, `Authorization: ${authorization}`).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(expected.serverKey);
  const [header, claims, signature] = jwt!.split('.');
  expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'ES256' });
  const raw = Buffer.from(expected.serverKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = verifySignature(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  expect(signed, 'VAPID signature').toBe(true);
  const payload = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  expect(payload.aud).toBe(expected.origin);
  expect(payload.sub).toBe(expected.subject);
  const now = Math.floor(Date.now() / 1000);
  expect(payload.exp).toBeGreaterThan(now);
  expect(payload.exp).toBeLessThanOrEqual(now + 24 * 60 * 60);
}

/** Decrypts an aes128gcm message body (RFC 8188) with the device's keys (RFC 8291). */
export function decrypt(body: Buffer, device: PushKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20]!;
  expect(keyIdLength).toBe(65);
  const senderKey = body.subarray(21, 21 + keyIdLength);
  const ciphertext = body.subarray(21 + keyIdLength);
  expect(ciphertext.length).toBeLessThanOrEqual(recordSize);
  const secret = device.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  expect(plain[end], 'the last record ends with the delimiter 0x02').toBe(2);
  return plain.subarray(0, end).toString('utf8');
}
