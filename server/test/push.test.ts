import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@fankurve/shared';
import { MEMBER_PUSH_TOPICS, PUSH_TOPICS } from '@fankurve/shared/push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { loadConfig } from '../src/config.js';
import { PUSH_CONCURRENCY } from '../src/notify/delivery.js';
import { resolveVapid } from '../src/notify/vapid.js';
import { expectRefusal, GENERIC, type BodyRoute } from './bad-input-cases.js';
import { ADMIN, createEventVia, createTestApp, type TestApp } from './helpers.js';
import {
  checkVapid as checkPushVapid,
  decrypt,
  LocalPushService,
  newKeys as newPushKeys,
  subscriptionOf,
  type Device,
  type Payload,
} from './push-endpoint.js';

/*
 * Web push end to end (docs/architecture.md, web push). The server sends to a real push endpoint
 * that this test runs: an HTTPS server on 127.0.0.1 with a self-signed certificate (web-push always
 * speaks TLS; the notifier's agent trusts the certificate). For every message the endpoint received
 * the test checks the VAPID Authorization header (the JWT's ES256 signature against the server's
 * public key, aud = the endpoint's origin, exp, sub) and decrypts the body (RFC 8291 / RFC 8188
 * aes128gcm) with the private key and auth secret the test generated for the "device", then looks
 * at who got what, in which language.
 */

const SUBJECT = 'mailto:push-test@fankurve.example';
const PUBLIC_URL = 'https://fankurve.example';

let t: TestApp;
let service: LocalPushService;
let serverKey: string;
/** Fresh keys of a device on the local push service. */
const newKeys = (name: string) => newPushKeys(service, name);

/** Signs in (a new session: a new device) and registers a fresh subscription for it. */
async function device(username: string, password: string): Promise<Device> {
  const token = await t.login(username, password);
  const keys = newKeys(username);
  const res = await t.call('POST', '/api/fcm/token', {
    token,
    body: { token: subscriptionOf(keys), deviceName: `${username}'s phone` },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data).toMatchObject({ enabled: true, endpoint: keys.endpoint });
  return { ...keys, token };
}

/** Checks a message's VAPID header against this server's key and the local push service. */
const checkVapid = (authorization: string | undefined) =>
  checkPushVapid(authorization, { serverKey, origin: service.origin, subject: SUBJECT });

/** Runs an action, waits until the notifier has sent everything, and decrypts what each device got. */
async function round(action: () => Promise<unknown>): Promise<(device: Device) => Payload[]> {
  await t.runtime.deps.push.idle();
  service.reset();
  await action();
  await t.runtime.deps.push.idle();
  const all = [...service.received];
  return (device: Device) =>
    all
      .filter((message) => message.deviceId === device.id)
      .map((message) => {
        checkVapid(message.headers.authorization as string | undefined);
        expect(message.headers['content-encoding']).toBe('aes128gcm');
        expect(Number(message.headers.ttl)).toBeGreaterThan(0);
        return JSON.parse(decrypt(message.body, device)) as Payload;
      });
}

/** The received messages of these devices, asserting every other device of `all` got nothing. */
function onlyThese(got: (device: Device) => Payload[], all: Device[], these: Device[]): void {
  for (const other of all.filter((d) => !these.includes(d))) expect(got(other), `${other.id} got something`).toEqual([]);
}

const subscriptionCount = async () =>
  Number(
    (
      await t.runtime.deps.store.db
        .selectFrom('push_subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  service = await LocalPushService.start();
  t = await createTestApp({ VAPID_SUBJECT: SUBJECT, PUBLIC_URL, PUSH_ENDPOINT_HOSTS: '127.0.0.1' });
  t.runtime.deps.push.agent = new https.Agent({ ca: service.cert });
  const status = await t.call('GET', '/api/fcm/token/status', { token: await t.adminToken() });
  serverKey = status.body.data.publicKey;
});
afterAll(async () => {
  await t.close();
  await service.close();
});

describe('the VAPID identity', () => {
  it('is generated once into DATA_DIR with mode 0600 and used again on the next start', () => {
    const file = path.join(t.dataDir, 'vapid-keys');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = resolveVapid(loadConfig({ DATA_DIR: t.dataDir, VAPID_SUBJECT: SUBJECT }));
    expect(again).toMatchObject({ configured: true, publicKey: serverKey, subject: SUBJECT, problems: [] });
    expect(Buffer.from(serverKey, 'base64url')).toHaveLength(65);
  });

  it('takes the keys from the environment, and refuses broken ones or a subject that is no mailto:/https: address', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-vapid-'));
    try {
      // web-push's generator pads the private key to 32 bytes (node's ECDH gives 31 when it starts with a zero byte).
      const generated = webpush.generateVAPIDKeys();
      const keys = { VAPID_PUBLIC_KEY: generated.publicKey, VAPID_PRIVATE_KEY: generated.privateKey };
      const fromEnv = resolveVapid(loadConfig({ DATA_DIR: dataDir, ...keys, VAPID_SUBJECT: 'https://club.example' }));
      expect(fromEnv).toMatchObject({ configured: true, publicKey: keys.VAPID_PUBLIC_KEY, warnings: [] });
      expect(fs.existsSync(path.join(dataDir, 'vapid-keys'))).toBe(false);

      const other = webpush.generateVAPIDKeys();
      const mismatched = resolveVapid(
        loadConfig({
          DATA_DIR: dataDir,
          ...keys,
          VAPID_PRIVATE_KEY: other.privateKey,
          VAPID_SUBJECT: SUBJECT,
        }),
      );
      expect(mismatched).toMatchObject({ configured: false, publicKey: null });
      expect(mismatched.problems.join()).toMatch(/does not belong/);
      expect(
        resolveVapid(loadConfig({ DATA_DIR: dataDir, VAPID_PUBLIC_KEY: keys.VAPID_PUBLIC_KEY, VAPID_SUBJECT: SUBJECT }))
          .configured,
      ).toBe(false);
      for (const subject of ['ftp://club.example', 'mailto:nobody', 'club@example.org']) {
        const identity = resolveVapid(loadConfig({ DATA_DIR: dataDir, ...keys, VAPID_SUBJECT: subject }));
        expect(identity.configured, subject).toBe(false);
        expect(identity.problems.join()).toMatch(/VAPID_SUBJECT must be a mailto: or https: address/);
      }
      // Missing or localhost: push works, and the log says Apple refuses it.
      const missing = resolveVapid(loadConfig({ DATA_DIR: dataDir, ...keys }));
      expect(missing.configured).toBe(true);
      expect(missing.warnings.join()).toMatch(/VAPID_SUBJECT is missing.*Apple/);
      const local = resolveVapid(loadConfig({ DATA_DIR: dataDir, ...keys, VAPID_SUBJECT: 'mailto:admin@localhost' }));
      expect(local.configured).toBe(true);
      expect(local.warnings.join()).toMatch(/localhost.*Apple/);
      // Unset, with a public https address: that is the contact.
      const site = resolveVapid(loadConfig({ DATA_DIR: dataDir, ...keys, PUBLIC_URL: 'https://fans.example/' }));
      expect(site).toMatchObject({ configured: true, subject: 'https://fans.example' });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('without a usable identity the server says push is not configured and takes no subscription', async () => {
    const off = await createTestApp({ VAPID_SUBJECT: 'ftp://nowhere.example', PUSH_ENDPOINT_HOSTS: '127.0.0.1' });
    try {
      const token = await off.adminToken();
      const status = await off.call('GET', '/api/fcm/token/status', { token });
      expect(status.body).toEqual({
        success: true,
        data: {
          enabled: false,
          configured: false,
          publicKey: null,
          endpoint: null,
          updatedAt: null,
          deviceName: null,
          devices: 0,
        },
      });
      const keys = newKeys('off');
      const refused = await off.call('POST', '/api/fcm/token', { token, body: { token: subscriptionOf(keys) } });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ success: false, code: 'pushNotConfigured', message: MESSAGES.pushNotConfigured });
    } finally {
      await off.close();
    }
  });
});

describe('the subscription routes', () => {
  let fan: { id: string; token: string };
  beforeAll(async () => {
    fan = await t.member('route-fan');
  });

  it('answers the state of this device, with the key to subscribe with', async () => {
    const status = await t.call('GET', '/api/fcm/token/status', { token: fan.token });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      success: true,
      data: {
        enabled: false,
        configured: true,
        publicKey: serverKey,
        endpoint: null,
        updatedAt: null,
        deviceName: null,
        devices: 0,
      },
    });
  });

  it('keeps one subscription per device: a new one replaces the old, another sign-in is another device', async () => {
    const first = newKeys('route');
    const saved = await t.call('POST', '/api/fcm/token', {
      token: fan.token,
      body: { token: subscriptionOf(first), deviceName: 'Pixel' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      success: true,
      message: MESSAGES.pushEnabled,
      data: { enabled: true, endpoint: first.endpoint, deviceName: 'Pixel', devices: 1 },
    });
    const second = newKeys('route');
    await t.call('POST', '/api/fcm/token', { token: fan.token, body: { token: subscriptionOf(second) } });
    const rows = await t.runtime.deps.store.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('user_id', '=', fan.id)
      .execute();
    expect(rows.map((row) => row.endpoint)).toEqual([second.endpoint]);
    // No device name given: the session's (from the User-Agent at sign-in).
    expect(rows[0]!.device_name).toEqual(expect.any(String));

    const laptop = await t.login('route-fan', 'member-pass');
    const third = newKeys('route');
    await t.call('POST', '/api/fcm/token', { token: laptop, body: { token: subscriptionOf(third), deviceName: 'Laptop' } });
    const status = await t.call('GET', '/api/fcm/token/status', { token: fan.token });
    expect(status.body.data).toMatchObject({ enabled: true, endpoint: second.endpoint, devices: 2 });

    // The same browser subscription registered by another account's session (the browser changed hands) moves over.
    const other = await t.member('route-other');
    await t.call('POST', '/api/fcm/token', { token: other.token, body: { token: subscriptionOf(third) } });
    expect((await t.call('GET', '/api/fcm/token/status', { token: laptop })).body.data).toMatchObject({
      enabled: false,
      devices: 1,
    });
    expect((await t.call('GET', '/api/fcm/token/status', { token: other.token })).body.data).toMatchObject({
      enabled: true,
      endpoint: third.endpoint,
    });
  });

  it("DELETE removes this device's subscription only, and answers the same when there is none", async () => {
    const phone = await t.login('route-fan', 'member-pass');
    const keys = newKeys('route');
    await t.call('POST', '/api/fcm/token', { token: phone, body: { token: subscriptionOf(keys) } });
    const before = (await t.call('GET', '/api/fcm/token/status', { token: phone })).body.data.devices;
    const removed = await t.call('DELETE', '/api/fcm/token', { token: phone });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({
      success: true,
      message: MESSAGES.pushDisabled,
      data: { enabled: false, devices: before - 1 },
    });
    expect((await t.call('DELETE', '/api/fcm/token', { token: phone })).status).toBe(200);
    expect((await t.call('GET', '/api/fcm/token/status', { token: fan.token })).body.data.enabled).toBe(true);
  });

  it('signing out, ending a session and a password change remove the subscriptions of those sessions', async () => {
    const m = await t.member('route-leaver');
    const phone = await device('route-leaver', 'member-pass');
    const laptop = await device('route-leaver', 'member-pass');
    const tablet = await device('route-leaver', 'member-pass');
    const mine = () =>
      t.runtime.deps.store.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', m.id).execute();
    expect(await mine()).toHaveLength(3);
    expect((await t.call('POST', '/api/auth/logout', { token: phone.token })).status).toBe(200);
    expect((await mine()).map((row) => row.endpoint).sort()).toEqual([laptop.endpoint, tablet.endpoint].sort());
    expect((await t.call('POST', '/api/auth/sessions/end-others', { token: laptop.token })).status).toBe(200);
    expect((await mine()).map((row) => row.endpoint)).toEqual([laptop.endpoint]);
    const changed = await t.call('POST', '/api/auth/change-password', {
      token: laptop.token,
      body: { currentPassword: 'member-pass', newPassword: 'new-member-pass' },
    });
    expect(changed.status).toBe(200);
    expect(await mine()).toEqual([]);
  });

  it('refuses endpoints of push services it does not know', async () => {
    const keys = { ...newKeys('route'), endpoint: 'https://attacker.example/collect' };
    const res = await t.call('POST', '/api/fcm/token', { token: fan.token, body: { token: subscriptionOf(keys) } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'pushEndpointNotAllowed', message: MESSAGES.pushEndpointNotAllowed });
  });

  it('lists and sets topics; members have no admin topics and cannot switch one', async () => {
    const topics = await t.call('GET', '/api/fcm/topics', { token: fan.token });
    expect(topics.body.data.topics).toEqual(MEMBER_PUSH_TOPICS.map((topic) => ({ topic, enabled: true, admin: false })));
    const off = await t.call('PUT', '/api/fcm/topics', {
      token: fan.token,
      body: { topics: { comment: false, newEvent: false } },
    });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe(MESSAGES.pushTopicsSaved);
    expect(
      off.body.data.topics.filter((topic: { enabled: boolean }) => !topic.enabled).map((topic: { topic: string }) => topic.topic),
    ).toEqual(['newEvent', 'comment']);
    const on = await t.call('PUT', '/api/fcm/topics', { token: fan.token, body: { topics: { comment: true } } });
    expect(on.body.data.topics.find((topic: { topic: string }) => topic.topic === 'comment').enabled).toBe(true);

    const refused = await t.call('PUT', '/api/fcm/topics', { token: fan.token, body: { topics: { adminRequest: true } } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Admin access required');
    const admin = await t.call('GET', '/api/fcm/topics', { token: await t.adminToken() });
    expect(admin.body.data.topics.map((topic: { topic: string }) => topic.topic)).toEqual([...PUSH_TOPICS]);
  });
});

describe('bad input on the push routes', () => {
  let token: string;
  // Built when the test file is collected (before the push service runs): a fixed endpoint.
  const valid = () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return subscriptionOf({
      endpoint: 'https://127.0.0.1/push/bad-input',
      publicKey: ecdh.getPublicKey(),
      auth: randomBytes(16),
    });
  };
  const tables = async () => ({
    subscriptions: await t.runtime.deps.store.db.selectFrom('push_subscriptions').selectAll().orderBy('id').execute(),
    topics: await t.runtime.deps.store.db.selectFrom('push_topics_off').selectAll().orderBy('user_id').orderBy('topic').execute(),
  });
  beforeAll(async () => {
    token = (await t.member('bad-push')).token;
  });

  const bad = MESSAGES.pushSubscriptionInvalid;
  const ROUTES: BodyRoute[] = [
    {
      name: 'POST /api/fcm/token',
      method: 'POST',
      url: () => '/api/fcm/token',
      token: () => token,
      valid: () => ({ token: valid(), deviceName: 'Phone' }),
      bad: [
        ['no token', { deviceName: 'Phone' }, bad],
        ['the token as a string', { token: JSON.stringify(valid()) }, bad],
        ['an http endpoint', { token: { ...valid(), endpoint: `http://127.0.0.1/push/x` } }, bad],
        ['an endpoint with a password', { token: { ...valid(), endpoint: `https://user:pw@127.0.0.1/push/x` } }, bad],
        ['an endpoint that is no URL', { token: { ...valid(), endpoint: 'not a url' } }, bad],
        ['an endpoint too long', { token: { ...valid(), endpoint: `https://127.0.0.1/${'x'.repeat(2100)}` } }, bad],
        ['no keys', { token: { endpoint: valid().endpoint } }, bad],
        ['p256dh too short', { token: { ...valid(), keys: { ...valid().keys, p256dh: 'BAAA' } } }, bad],
        ['p256dh not base64url', { token: { ...valid(), keys: { ...valid().keys, p256dh: '!'.repeat(87) } } }, bad],
        [
          'auth of 8 bytes',
          { token: { ...valid(), keys: { ...valid().keys, auth: randomBytes(8).toString('base64url') } } },
          bad,
        ],
        ['auth a number', { token: { ...valid(), keys: { ...valid().keys, auth: 16 } } }, bad],
        ['device name a number', { token: valid(), deviceName: 7 }, MESSAGES.invalidInput + ': deviceName'],
        ['device name too long', { token: valid(), deviceName: 'x'.repeat(101) }, MESSAGES.invalidInput + ': deviceName'],
      ],
    },
    {
      name: 'PUT /api/fcm/topics',
      method: 'PUT',
      url: () => '/api/fcm/topics',
      token: () => token,
      valid: () => ({ topics: { comment: false } }),
      bad: [
        ['no topics', {}, null],
        ['an unknown topic', { topics: { everything: false } }, null],
        ['a topic set to a string', { topics: { comment: 'off' } }, null],
        ['topics as a list', { topics: ['comment'] }, null],
        ['another field', { topics: { comment: false }, all: true }, null],
      ],
    },
  ];

  describe.each(ROUTES)('$name', (route) => {
    it.each(route.bad)('refuses %s', async (_label, body, message) => {
      const before = await tables();
      const res = await t.call(route.method, route.url(), { token: route.token(), body });
      expectRefusal(res, 400, message);
      expect(await tables()).toEqual(before);
    });

    it.each(GENERIC)('refuses %s', async (_label, send, status, message) => {
      const before = await tables();
      const { raw, headers } = send(route);
      const res = await t.call(route.method, route.url(), { token: route.token(), raw, headers });
      expectRefusal(res, status, message);
      expect(await tables()).toEqual(before);
    });
  });
});

describe('who gets which notification', () => {
  let adminToken: string;
  let ids: Record<'admin' | 'chef' | 'anna' | 'ben' | 'carl' | 'dora', string>;
  let tokens: Record<'chef' | 'anna' | 'ben' | 'carl' | 'dora', string>;
  let admin1: Device;
  let chef1: Device;
  let anna1: Device;
  let anna2: Device;
  let ben1: Device;
  let carl1: Device;
  let all: Device[];
  let matchId: string;
  const link = (pathname: string) => `${PUBLIC_URL}${pathname}`;

  beforeAll(async () => {
    adminToken = await t.adminToken();
    const chef = await t.member('chef');
    await t.call('PUT', `/api/auth/users/${chef.id}`, { token: adminToken, body: { scope: 'admin', language: 'en' } });
    const anna = await t.member('anna');
    const ben = await t.member('ben');
    expect((await t.call('PUT', `/api/auth/users/${ben.id}`, { token: ben.token, body: { language: 'en' } })).status).toBe(200);
    const carl = await t.member('carl');
    const dora = await t.member('dora');
    const profile = await t.call('GET', '/api/auth/profile', { token: adminToken });
    ids = { admin: profile.body.user.id, chef: chef.id, anna: anna.id, ben: ben.id, carl: carl.id, dora: dora.id };
    admin1 = await device(ADMIN.username, ADMIN.password);
    chef1 = await device('chef', 'member-pass');
    tokens = { chef: chef1.token, anna: anna.token, ben: ben.token, carl: carl.token, dora: dora.token };
    anna1 = await device('anna', 'member-pass');
    anna2 = await device('anna', 'member-pass');
    ben1 = await device('ben', 'member-pass');
    carl1 = await device('carl', 'member-pass');
    all = [admin1, chef1, anna1, anna2, ben1, carl1];
    // A match that ben (going) and carl (maybe) attend, anna and the admins do not.
    matchId = (
      await createEventVia(t, adminToken, { title: 'Union – Hertha (H)', date: '2030-03-01 15:30', location: 'Alte Försterei' })
    ).id;
    for (const [token, status] of [
      [ben.token, 'going'],
      [carl.token, 'maybe'],
    ] as const) {
      expect((await t.call('POST', `/api/attendance/${matchId}`, { token, body: { status } })).status).toBe(200);
    }
  });

  beforeEach(async () => {
    await t.runtime.deps.push.idle();
  });

  it('a new match: every member with push on, in their language, on every device, but not its creator', async () => {
    let eventId = '';
    const got = await round(async () => {
      eventId = (
        await createEventVia(t, tokens.anna, { title: 'Bochum – Union (A)', date: '2030-04-12 18:30', location: 'Bochum' })
      ).id;
    });
    onlyThese(got, all, [admin1, chef1, ben1, carl1]);
    expect(got(admin1)).toEqual([
      {
        web_push: 8030,
        notification: {
          title: 'Neues Spiel',
          body: 'Bochum – Union (A) · 12.04.2030, 18:30 · Bochum',
          navigate: link(`/events/${eventId}`),
          lang: 'de',
        },
        app_badge: 0,
      },
    ]);
    expect(got(ben1)).toEqual([
      expect.objectContaining({
        notification: {
          title: 'New match',
          body: 'Bochum – Union (A) · 12 Apr 2030, 18:30 · Bochum',
          navigate: link(`/events/${eventId}`),
          lang: 'en',
        },
      }),
    ]);
    expect(got(chef1)[0]!.notification.lang).toBe('en');
    expect(got(carl1)[0]!.notification.title).toBe('Neues Spiel');
  });

  it('a changed date, place or price (UPDATED): the members who attend, not the admin who changed it', async () => {
    const got = await round(() =>
      t.call('PUT', `/api/events/${matchId}`, { token: adminToken, body: { date: '2030-03-02 13:30', ticket_price: 18.5 } }),
    );
    onlyThese(got, all, [ben1, carl1]);
    expect(got(ben1).map((p) => p.notification)).toEqual([
      {
        title: 'Changed: Union – Hertha (H)',
        body: 'Date: 2 Mar 2030, 13:30 · Ticket price: €18.50',
        navigate: link(`/events/${matchId}`),
        lang: 'en',
      },
    ]);
    expect(got(carl1)[0]!.notification).toMatchObject({
      title: 'Geändert: Union – Hertha (H)',
      body: 'Termin: 02.03.2030, 13:30 · Ticketpreis: 18,50\u00a0€', // Intl's no-break space
    });
    // A change that does not mark the event UPDATED (the description) tells nobody.
    const quiet = await round(() =>
      t.call('PUT', `/api/events/${matchId}`, { token: adminToken, body: { description: 'Treffpunkt 12 Uhr' } }),
    );
    onlyThese(quiet, all, []);
  });

  it('a bought ticket: its debtor only (for a guest, the member who brought them)', async () => {
    const got = await round(() =>
      t.call('PUT', `/api/tickets/event/${matchId}/user/${ids.ben}/status`, {
        token: adminToken,
        body: { bought: true, price: 18.5 },
      }),
    );
    onlyThese(got, all, [ben1]);
    expect(got(ben1).map((p) => p.notification)).toEqual([
      {
        title: 'Ticket bought',
        body: 'Your ticket for Union – Hertha (H) (2 Mar 2030, 13:30) has been bought.',
        navigate: link('/my-tickets'),
        lang: 'en',
      },
    ]);

    const guest = await t.call('POST', '/api/guests', {
      token: tokens.anna,
      body: { event_id: matchId, guest_name: 'Onkel Otto' },
    });
    expect(guest.status).toBe(201);
    const guestBought = await round(() =>
      t.call('PUT', `/api/attendees/${guest.body.guest.id}`, { token: adminToken, body: { bought: true, price: 10 } }),
    );
    onlyThese(guestBought, all, [anna1, anna2]);
    for (const annas of [anna1, anna2]) {
      expect(guestBought(annas)[0]!.notification.body).toBe(
        'Das Ticket deines Gastes Onkel Otto für Union – Hertha (H) (02.03.2030, 13:30) wurde gekauft.',
      );
    }
  });

  it('a paid request: the admins (not the member); accepting it: the member (not the admins)', async () => {
    const ticket = (await t.call('GET', '/api/attendance/my', { token: tokens.ben })).body.attendance.find(
      (row: { event_id: string }) => row.event_id === matchId,
    );
    const requested = await round(() => t.call('PUT', `/api/tickets/${ticket.id}/request-paid`, { token: tokens.ben }));
    onlyThese(requested, all, [admin1, chef1]);
    expect(requested(admin1)[0]!.notification).toEqual({
      title: 'Neue Zahlungsmeldung',
      body: 'ben meldet bezahlt: Union – Hertha (H), 02.03.2030, 13:30',
      navigate: link('/admin/tasks'),
      lang: 'de',
    });
    expect(requested(chef1)[0]!.notification.title).toBe('New paid request');

    const accepted = await round(() => t.call('PUT', `/api/admin/accept-paid-request/${ticket.id}`, { token: tokens.chef }));
    onlyThese(accepted, all, [ben1]);
    expect(accepted(ben1)[0]!.notification).toEqual({
      title: 'Payment confirmed',
      body: 'An admin confirmed that the ticket for Union – Hertha (H) is paid.',
      navigate: link('/my-tickets'),
      lang: 'en',
    });
  });

  it('a seat reserved or moved to the waiting list: that member; back to outstanding: nobody', async () => {
    const url = `/api/attendance/${matchId}/user/${ids.carl}/transfer-status`;
    const reserved = await round(() => t.call('PUT', url, { token: adminToken, body: { transfer_status: 'reserved' } }));
    onlyThese(reserved, all, [carl1]);
    expect(reserved(carl1)[0]!.notification).toMatchObject({
      title: 'Platz reserviert',
      body: 'Dein Platz für die Fahrt zu Union – Hertha (H) ist reserviert.',
      navigate: link(`/events/${matchId}`),
    });
    const waiting = await round(() => t.call('PUT', url, { token: adminToken, body: { transfer_status: 'waiting_list' } }));
    onlyThese(waiting, all, [carl1]);
    expect(waiting(carl1)[0]!.notification.title).toBe('Warteliste');
    const outstanding = await round(() => t.call('PUT', url, { token: adminToken, body: { transfer_status: 'outstanding' } }));
    onlyThese(outstanding, all, []);
  });

  it('a returned ticket: the offer to the next in line; its acceptance to the member who returned it', async () => {
    const away = (await createEventVia(t, adminToken, { title: 'Köln – Union (A)', date: '2030-05-02 20:30', ticket_price: 30 }))
      .id;
    expect((await t.call('PUT', `/api/events/${away}/contingent`, { token: adminToken, body: { tickets: 1 } })).status).toBe(200);
    const needs = (token: string) =>
      t.call('POST', `/api/attendance/${away}`, { token, body: { status: 'going', needs_ticket: true } });
    const holder = await round(() => needs(adminToken));
    // Allocated at once: the system bought it, so the admin hears of it like of any bought ticket.
    expect(holder(admin1).map((p) => p.notification.title)).toEqual(['Ticket gekauft']);
    expect((await needs(tokens.chef)).status).toBe(200);
    const mine = await t.call('GET', '/api/attendance/my', { token: adminToken });
    const ticketId = mine.body.attendance.find((row: { event_id: string }) => row.event_id === away).id as string;
    const offered = await round(async () =>
      expect((await t.call('PUT', `/api/tickets/${ticketId}/return`, { token: adminToken })).body).toMatchObject({
        offered: true,
      }),
    );
    onlyThese(offered, all, [chef1]);
    expect(offered(chef1)[0]!.notification).toMatchObject({
      title: 'A ticket for you',
      body: expect.stringMatching(
        /^A returned ticket for Köln – Union \(A\) is waiting\. Accept it by \d+ \w+ \d{4}, \d\d:\d\d\.$/,
      ),
      navigate: link(`/events/${away}`),
    });
    const offerId = (await t.call('GET', '/api/tickets/offers/my', { token: tokens.chef })).body.offers[0].id;
    const taken = await round(() => t.call('PUT', `/api/tickets/offers/${offerId}/accept`, { token: tokens.chef }));
    onlyThese(taken, all, [admin1]);
    expect(taken(admin1)[0]!.notification).toEqual({
      title: 'Ticket übernommen',
      body: 'Dein zurückgegebenes Ticket für Köln – Union (A) wurde übernommen. Du schuldest dafür nichts mehr.',
      navigate: link('/my-tickets'),
      lang: 'de',
    });
  });

  it('a self-registration: the admins; an account an admin creates: nobody', async () => {
    const registered = await round(() =>
      t.call('POST', '/api/auth/register', {
        body: { username: 'newbie', email: 'newbie@example.org', password: 'newbie-pass' },
      }),
    );
    onlyThese(registered, all, [admin1, chef1]);
    expect(registered(admin1)[0]!.notification).toEqual({
      title: 'Neue Registrierung',
      body: 'newbie (newbie@example.org) wartet auf Freigabe.',
      navigate: link('/admin/tasks'),
      lang: 'de',
    });
    expect(registered(chef1)[0]!.notification.body).toBe('newbie (newbie@example.org) is waiting for approval.');
    const created = await round(() =>
      t.call('POST', '/api/auth/users', { token: adminToken, body: { username: 'made', email: 'made@example.org' } }),
    );
    onlyThese(created, all, []);
  });

  it('club news: every member but the admin who posted it, in their language, opening the news or its event; not to a member who switched news off', async () => {
    const got = await round(() =>
      t.call('POST', '/api/announcements', {
        token: adminToken,
        body: { title: 'Busabfahrt', text: 'Abfahrt\num 9 Uhr am Stadion', event_id: matchId },
      }),
    );
    onlyThese(got, all, [chef1, anna1, anna2, ben1, carl1]);
    expect(got(ben1).map((p) => p.notification)).toEqual([
      { title: 'News: Busabfahrt', body: 'Abfahrt um 9 Uhr am Stadion', navigate: link(`/events/${matchId}`), lang: 'en' },
    ]);
    expect(got(carl1)[0]!.notification.title).toBe('Neuigkeit: Busabfahrt');

    expect((await t.call('PUT', '/api/fcm/topics', { token: tokens.carl, body: { topics: { news: false } } })).status).toBe(200);
    const quiet = await round(() =>
      t.call('POST', '/api/announcements', { token: tokens.chef, body: { title: 'Stammtisch', text: 'Freitag' } }),
    );
    onlyThese(quiet, all, [admin1, anna1, anna2, ben1]);
    expect(got(anna1)[0]!.notification.navigate).toBe(link(`/events/${matchId}`));
    expect(quiet(anna1)[0]!.notification.navigate).toBe(link('/events'));
    // Changing or deleting news tells nobody.
    const list = await t.call('GET', '/api/announcements', { token: adminToken });
    const id = list.body.announcements.find((a: { title: string }) => a.title === 'Stammtisch').id as string;
    onlyThese(
      await round(() => t.call('PUT', `/api/announcements/${id}`, { token: adminToken, body: { pinned: true } })),
      all,
      [],
    );
    await t.call('PUT', '/api/fcm/topics', { token: tokens.carl, body: { topics: { news: true } } });
  });

  it('a new poll: every member but the admin who asked it, in their language, opening its event or /events; votes and changes tell nobody', async () => {
    const got = await round(() =>
      t.call('POST', '/api/polls', {
        token: adminToken,
        body: { question: 'Welcher Bus?', options: ['Bus 1', 'Bus 2'], event_id: matchId },
      }),
    );
    onlyThese(got, all, [chef1, anna1, anna2, ben1, carl1]);
    expect(got(ben1).map((p) => p.notification)).toEqual([
      { title: 'New poll: Welcher Bus?', body: 'Bus 1 · Bus 2', navigate: link(`/events/${matchId}`), lang: 'en' },
    ]);
    expect(got(carl1)[0]!.notification).toMatchObject({ title: 'Neue Umfrage: Welcher Bus?', lang: 'de' });

    expect((await t.call('PUT', '/api/fcm/topics', { token: tokens.carl, body: { topics: { news: false } } })).status).toBe(200);
    let pollId = '';
    const quiet = await round(async () => {
      const res = await t.call('POST', '/api/polls', {
        token: tokens.chef,
        body: { question: 'Grillen?', options: ['Ja', 'Nein'] },
      });
      pollId = res.body.poll.id;
      return res;
    });
    onlyThese(quiet, all, [admin1, anna1, anna2, ben1]);
    expect(quiet(anna1)[0]!.notification.navigate).toBe(link('/events'));
    // Votes and changes tell nobody.
    const detail = await t.call('GET', `/api/polls/${pollId}`, { token: tokens.anna });
    const voted = await round(() =>
      t.call('PUT', `/api/polls/${pollId}/vote`, { token: tokens.anna, body: { option_ids: [detail.body.options[0].id] } }),
    );
    onlyThese(voted, all, []);
    const changed = await round(() =>
      t.call('PUT', `/api/polls/${pollId}`, { token: adminToken, body: { question: 'Grillen am Freitag?' } }),
    );
    onlyThese(changed, all, []);
    await t.call('PUT', '/api/fcm/topics', { token: tokens.carl, body: { topics: { news: true } } });
  });

  it('switched-off topics are not sent; admin topics are switched per admin', async () => {
    expect(
      (await t.call('PUT', '/api/fcm/topics', { token: tokens.carl, body: { topics: { newEvent: false, eventChanged: false } } }))
        .status,
    ).toBe(200);
    expect(
      (await t.call('PUT', '/api/fcm/topics', { token: adminToken, body: { topics: { adminRegistration: false } } })).status,
    ).toBe(200);
    const created = await round(() => createEventVia(t, tokens.anna, { title: 'Testspiel', date: '2030-05-01 19:00' }));
    onlyThese(created, all, [admin1, chef1, ben1]);
    const changed = await round(() =>
      t.call('PUT', `/api/events/${matchId}`, { token: adminToken, body: { location: 'Olympiastadion' } }),
    );
    onlyThese(changed, all, [ben1]);
    const registered = await round(() =>
      t.call('POST', '/api/auth/register', {
        body: { username: 'newbie2', email: 'newbie2@example.org', password: 'newbie-pass' },
      }),
    );
    onlyThese(registered, all, [chef1]);
    // On again: carl hears of the next change.
    await t.call('PUT', '/api/fcm/topics', { token: tokens.carl, body: { topics: { newEvent: true, eventChanged: true } } });
    await t.call('PUT', '/api/fcm/topics', { token: adminToken, body: { topics: { adminRegistration: true } } });
    const again = await round(() =>
      t.call('PUT', `/api/events/${matchId}`, { token: adminToken, body: { location: 'Alte Försterei' } }),
    );
    onlyThese(again, all, [ben1, carl1]);
  });

  it('a comment: a mention to the member named, the answer request to the admins, the comment to those who attend; one each', async () => {
    const comment = (token: string, text: string, requiresAnswer = false) =>
      t.call('POST', `/api/comments/event/${matchId}`, { token, body: { comment: text, requires_answer: requiresAnswer } });
    let commentId = '';
    const asked = await round(async () => {
      const res = await comment(tokens.ben, "Who takes the 11 o'clock train? @anna are you in?", true);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      commentId = res.body.comment.id;
    });
    onlyThese(asked, all, [admin1, chef1, anna1, anna2, carl1]);
    const target = link(`/events/${matchId}#comment-${commentId}`);
    for (const annas of [anna1, anna2]) {
      expect(asked(annas)).toEqual([
        {
          web_push: 8030,
          notification: {
            title: 'ben hat dich erwähnt',
            body: "Union – Hertha (H): Who takes the 11 o'clock train? @anna are you in?",
            navigate: target,
            lang: 'de',
          },
          app_badge: 1,
        },
      ]);
    }
    expect(asked(carl1).map((p) => p.notification)).toEqual([
      {
        title: 'Neuer Kommentar: Union – Hertha (H)',
        body: "ben: Who takes the 11 o'clock train? @anna are you in?",
        navigate: target,
        lang: 'de',
      },
    ]);
    expect(asked(carl1)[0]!.app_badge).toBe(0);
    expect(asked(admin1).map((p) => p.notification.title)).toEqual(['Kommentar wartet auf Antwort']);
    expect(asked(chef1).map((p) => p.notification)).toEqual([
      {
        title: 'Comment needs an answer',
        body: "ben (Union – Hertha (H)): Who takes the 11 o'clock train? @anna are you in?",
        navigate: target,
        lang: 'en',
      },
    ]);

    // A plain comment naming an attendee: the mention only (not the comment too); nothing for the admins.
    const named = await round(() => comment(tokens.carl, 'Ich bin dabei, @ben'));
    onlyThese(named, all, [ben1]);
    expect(named(ben1).map((p) => [p.notification.title, p.app_badge])).toEqual([['carl mentioned you', 1]]);

    // Mentions switched off: an attendee gets the comment instead; someone who does not attend gets nothing.
    await t.call('PUT', '/api/fcm/topics', { token: tokens.carl, body: { topics: { mention: false } } });
    await t.call('PUT', '/api/fcm/topics', { token: tokens.anna, body: { topics: { mention: false } } });
    const quiet = await round(() => comment(tokens.ben, '@carl @anna Treffpunkt 10 Uhr'));
    onlyThese(quiet, all, [carl1]);
    expect(quiet(carl1).map((p) => p.notification.title)).toEqual(['Neuer Kommentar: Union – Hertha (H)']);
    await t.call('PUT', '/api/fcm/topics', { token: tokens.carl, body: { topics: { mention: true } } });
    await t.call('PUT', '/api/fcm/topics', { token: tokens.anna, body: { topics: { mention: true } } });
  });

  it('removes a subscription the push service answers 410 or 404 for, and keeps one it answers 500 for', async () => {
    const gone = await device('dora', 'member-pass');
    const missing = await device('dora', 'member-pass');
    const broken = await device('dora', 'member-pass');
    service.answers.set(gone.id, 410);
    service.answers.set(missing.id, 404);
    service.answers.set(broken.id, 500);
    const before = await subscriptionCount();
    const got = await round(() => createEventVia(t, tokens.anna, { title: 'Pokal (A)', date: '2030-06-01 20:45' }));
    // Each was tried once.
    for (const dev of [gone, missing, broken]) expect(service.received.filter((m) => m.deviceId === dev.id)).toHaveLength(1);
    expect(got(gone)[0]!.notification.title).toBe('Neues Spiel');
    expect(await subscriptionCount()).toBe(before - 2);
    expect((await t.call('GET', '/api/fcm/token/status', { token: gone.token })).body.data.enabled).toBe(false);
    expect((await t.call('GET', '/api/fcm/token/status', { token: missing.token })).body.data.enabled).toBe(false);
    expect((await t.call('GET', '/api/fcm/token/status', { token: broken.token })).body.data.enabled).toBe(true);
    await t.call('DELETE', '/api/fcm/token', { token: broken.token });
  });

  it('never holds up a write: a push service that does not answer costs the write nothing, and at most a few wait at once', async () => {
    const push = t.runtime.deps.push;
    push.timeoutMs = 1_500;
    const silent: Device[] = [];
    for (let i = 0; i < PUSH_CONCURRENCY + 4; i++) {
      const dev = await device('dora', 'member-pass');
      service.answers.set(dev.id, 'hang');
      silent.push(dev);
    }
    try {
      await push.idle();
      service.reset();
      const started = Date.now();
      const res = await t.call('POST', '/api/events', {
        token: tokens.anna,
        body: { title: 'Stille (H)', date: '2030-07-01 15:30', location: 'Berlin' },
      });
      expect(res.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(1_000);
      await push.idle();
      // Every silent device was tried, never more than PUSH_CONCURRENCY at the same time, and timed out (kept: no 404/410).
      for (const dev of silent) expect(service.received.filter((m) => m.deviceId === dev.id)).toHaveLength(1);
      expect(service.maxInFlight).toBeLessThanOrEqual(PUSH_CONCURRENCY);
      expect(service.maxInFlight).toBeGreaterThan(1);
      expect((await t.call('GET', '/api/fcm/token/status', { token: silent[0]!.token })).body.data.enabled).toBe(true);
    } finally {
      push.timeoutMs = 10_000;
      for (const dev of silent) await t.call('DELETE', '/api/fcm/token', { token: dev.token });
    }
  });
});
