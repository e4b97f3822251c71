import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ledgerMembersAnswer, siteConfigAnswer } from '@fankurve/shared';
import { MEMBER_PUSH_TOPICS } from '@fankurve/shared/push';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { scheduleJobBy } from '../src/db/jobs.js';
import { nextPaymentReminderAt, owingSince, PAYMENT_REMINDER_JOB } from '../src/domain/money/paymentReminders.js';
import { createTestApp, testDatabase, type TestApp } from './helpers.js';
import { checkVapid, decrypt, LocalPushService, newKeys, subscriptionOf, type Device, type Payload } from './push-endpoint.js';

/*
 * Reminders to pay (docs/product.md, Tickets and money, "Reminders to pay"), end to end: the job
 * `payment-reminders` of a real app (looking every 50 ms) sends web pushes to the real local push
 * endpoint (push-endpoint.ts), which checks each message's VAPID header and decrypts it. Members:
 * anna (German) and ben (English) owe money; carl owes but switched the topic off; dora owes nothing;
 * emil owes but has no device. Every member switched the other topics off, so only these arrive.
 * The clock moves by faking Date: the app's timers stay real.
 */

const SUBJECT = 'mailto:payments-test@fankurve.example';
const PUBLIC_URL = 'https://fankurve.example';
const NAMES = ['anna', 'ben', 'carl', 'dora', 'emil'] as const;
type Name = (typeof NAMES)[number];
const DAY_MS = 24 * 60 * 60 * 1000;

describe('when a debt is due a reminder', () => {
  const created = (iso: string, amount_cents: number) => ({ amount_cents, created_at: iso });

  it('dates the debt from the entry that raised the balance above zero and kept it there', () => {
    expect(owingSince([])).toBeNull();
    expect(owingSince([created('2026-01-01T10:00:00Z', 1000)])).toBe('2026-01-01T10:00:00Z');
    // Paying part of it changes nothing; a further charge neither.
    expect(
      owingSince([
        created('2026-01-01T10:00:00Z', 1000),
        created('2026-01-05T10:00:00Z', -400),
        created('2026-01-09T10:00:00Z', 700),
      ]),
    ).toBe('2026-01-01T10:00:00Z');
    // Paid in full, then a new charge: a new debt.
    expect(
      owingSince([
        created('2026-01-01T10:00:00Z', 1000),
        created('2026-01-05T10:00:00Z', -1000),
        created('2026-02-01T10:00:00Z', 500),
      ]),
    ).toBe('2026-02-01T10:00:00Z');
    // Credit first: the balance rises above zero only with the second charge.
    expect(
      owingSince([
        created('2026-01-01T10:00:00Z', -2000),
        created('2026-01-02T10:00:00Z', 1500),
        created('2026-01-03T10:00:00Z', 1000),
      ]),
    ).toBe('2026-01-03T10:00:00Z');
    expect(owingSince([created('2026-01-01T10:00:00Z', 1000), created('2026-01-05T10:00:00Z', -1200)])).toBeNull();
  });

  it('is due the days after the debt arose, then the days after the latest reminder, three times at most', () => {
    const since = '2026-01-01T10:00:00.000Z';
    expect(nextPaymentReminderAt(since, { count: 0, lastAt: null }, 14)).toBe(Date.parse(since) + 14 * DAY_MS);
    const late = '2026-02-01T08:00:00.000Z';
    expect(nextPaymentReminderAt(since, { count: 1, lastAt: late }, 14)).toBe(Date.parse(late) + 14 * DAY_MS);
    expect(nextPaymentReminderAt(since, { count: 2, lastAt: late }, 7)).toBe(Date.parse(late) + 7 * DAY_MS);
    expect(nextPaymentReminderAt(since, { count: 3, lastAt: late }, 14)).toBeNull();
    expect(nextPaymentReminderAt(since, { count: 0, lastAt: null }, 0)).toBeNull();
  });
});

let service: LocalPushService;
const open: TestApp[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  service = await LocalPushService.start();
});
afterEach(async () => {
  vi.useRealTimers();
  for (const t of open.splice(0)) {
    await t.runtime.jobs.stop();
    await t.close();
  }
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(() => service.close());

interface World {
  t: TestApp;
  env: Record<string, string>;
  admin: string;
  users: Record<Name, { id: string; token: string }>;
  devices: Partial<Record<Name, Device>>;
  serverKey: string;
}

async function sharedEnv(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-payment-reminders-'));
  const database = await testDatabase();
  cleanups.push(async () => {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    DATA_DIR: dataDir,
    JOB_INTERVAL_SECONDS: '0.05',
    VAPID_SUBJECT: SUBJECT,
    PUBLIC_URL,
    PUSH_ENDPOINT_HOSTS: '127.0.0.1',
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
}

async function startApp(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp(env);
  open.push(t);
  t.runtime.deps.push.agent = service.agent();
  return t;
}

const ONLY_PAYMENTS = Object.fromEntries(MEMBER_PUSH_TOPICS.map((topic) => [topic, topic === 'payments']));

async function device(t: TestApp, username: string): Promise<Device> {
  const token = await t.login(username, 'member-pass');
  const keys = newKeys(service, username);
  const res = await t.call('POST', '/api/fcm/token', { token, body: { token: subscriptionOf(keys), deviceName: 'Phone' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect((await t.call('PUT', '/api/fcm/topics', { token, body: { topics: ONLY_PAYMENTS } })).status).toBe(200);
  return { ...keys, token };
}

async function book(w: Pick<World, 't' | 'admin'>, userId: string, kind: 'charge' | 'payment', amount: number): Promise<void> {
  const res = await w.t.call('POST', '/api/ledger/entries', { token: w.admin, body: { user_id: userId, kind, amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function world(): Promise<World> {
  service.reset();
  const env = await sharedEnv();
  const t = await startApp(env);
  const admin = await t.adminToken();
  const users = {} as World['users'];
  for (const name of NAMES) users[name] = await t.member(`pay-${name}`);
  expect(
    (await t.call('PUT', `/api/auth/users/${users.ben.id}`, { token: users.ben.token, body: { language: 'en' } })).status,
  ).toBe(200);
  const devices: World['devices'] = {};
  for (const name of NAMES.filter((n) => n !== 'emil')) devices[name] = await device(t, `pay-${name}`);
  const off = await t.call('PUT', '/api/fcm/topics', { token: users.carl.token, body: { topics: { payments: false } } });
  expect(off.status).toBe(200);
  const status = await t.call('GET', '/api/fcm/token/status', { token: admin });
  const w = { t, env, admin, users, devices, serverKey: status.body.data.publicKey as string };
  await book(w, users.anna.id, 'charge', 25.5);
  await book(w, users.ben.id, 'charge', 12);
  await book(w, users.carl.id, 'charge', 10);
  await book(w, users.emil.id, 'charge', 10);
  return w;
}

function received(w: World): Partial<Record<Name, Payload[]>> {
  const byName: Partial<Record<Name, Payload[]>> = {};
  for (const name of NAMES) {
    const device = w.devices[name];
    if (!device) continue;
    const messages = service.received.filter((message) => message.deviceId === device.id);
    if (messages.length === 0) continue;
    byName[name] = messages.map((message) => {
      checkVapid(message.headers.authorization as string | undefined, {
        serverKey: w.serverKey,
        origin: service.origin,
        subject: SUBJECT,
      });
      return JSON.parse(decrypt(message.body, device)) as Payload;
    });
  }
  return byName;
}

const job = (t: TestApp) =>
  t.db.selectFrom('jobs').selectAll().where('name', '=', PAYMENT_REMINDER_JOB).executeTakeFirstOrThrow();
const reminderRows = (t: TestApp) =>
  t.db.selectFrom('payment_reminders').selectAll().orderBy('user_id').orderBy('round').execute();

/** Waits until the job ran after `since` (its claim released), then until every push went out. */
async function ranAfter(t: TestApp, since: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const row = await job(t);
      expect(row.last_run_at !== null && row.last_run_at > since && row.claimed_by === null).toBe(true);
    },
    { timeout: 5_000, interval: 20 },
  );
  await t.runtime.deps.push.idle();
}

/** Moves the clock to `at` and makes the job look then; answers when it has run and its pushes are out. */
async function lookAt(t: TestApp, at: number): Promise<void> {
  await t.runtime.jobs.tick();
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  const since = new Date().toISOString();
  await scheduleJobBy(t.db, PAYMENT_REMINDER_JOB, since);
  t.runtime.jobs.wake(new Date());
  await ranAfter(t, since);
}

describe('reminders to pay', () => {
  it('remind each member a push reaches once the debt is 14 days old, again every 14 days, three times at most', async () => {
    const w = await world();
    const { t } = w;
    const start = Date.now();
    expect((await t.callTyped(siteConfigAnswer, 'GET', '/api/config', { token: w.admin })).config.payment_reminder_days).toBe(14);
    // The first reminders are 14 days away: the job looks again in a day (at least daily).
    await vi.waitFor(
      async () => {
        const due = Date.parse((await job(t)).due_at!);
        expect(due).toBeGreaterThan(start + DAY_MS - 60_000);
        expect(due).toBeLessThanOrEqual(start + DAY_MS + 60_000);
      },
      { timeout: 5_000, interval: 20 },
    );

    await lookAt(t, start + 13 * DAY_MS);
    expect(service.received).toEqual([]);

    await lookAt(t, start + 14 * DAY_MS + 60_000);
    const first = received(w);
    expect(Object.keys(first).sort()).toEqual(['anna', 'ben']);
    expect(first.anna!.map((p) => p.notification)).toEqual([
      {
        title: 'Offener Betrag: 25,50\u00a0€',
        body: 'Du schuldest der Kasse 25,50\u00a0€. Unter „Meine Tickets“ ist der GiroCode für die Überweisung.',
        navigate: `${PUBLIC_URL}/my-tickets`,
        lang: 'de',
      },
    ]);
    expect(first.ben!.map((p) => p.notification)).toEqual([
      {
        title: 'You owe €12.00',
        body: 'You owe the club €12.00. "My tickets" has the GiroCode for the transfer.',
        navigate: `${PUBLIC_URL}/my-tickets`,
        lang: 'en',
      },
    ]);

    // The treasurer sees who was reminded, and when.
    const balances = await t.callTyped(ledgerMembersAnswer, 'GET', '/api/ledger', { token: w.admin });
    const byId = new Map(balances.members.map((m) => [m.user_id, m]));
    expect(byId.get(w.users.anna.id)?.reminder_count).toBe(1);
    expect(Math.abs(Date.parse(byId.get(w.users.anna.id)!.reminded_at!) - (start + 14 * DAY_MS + 60_000))).toBeLessThan(60_000);
    expect(byId.get(w.users.carl.id)).toMatchObject({ reminder_count: 0, reminded_at: null });
    expect(byId.get(w.users.emil.id)).toMatchObject({ reminder_count: 0, reminded_at: null });

    // Looking again the same day sends nothing.
    service.reset();
    await lookAt(t, start + 14 * DAY_MS + 2 * 60_000);
    expect(service.received).toEqual([]);

    // ben pays part: still owing, so still reminded; anna too. The second says "still".
    await book(w, w.users.ben.id, 'payment', 2);
    await lookAt(t, start + 28 * DAY_MS + 2 * 60_000);
    const second = received(w);
    expect(second.anna!.map((p) => p.notification.title)).toEqual(['Noch offen: 25,50\u00a0€']);
    expect(second.ben!.map((p) => p.notification.title)).toEqual(['Still open: €10.00']);

    service.reset();
    await lookAt(t, start + 42 * DAY_MS + 3 * 60_000);
    expect(Object.keys(received(w)).sort()).toEqual(['anna', 'ben']);
    service.reset();
    await lookAt(t, start + 56 * DAY_MS + 4 * 60_000);
    await lookAt(t, start + 90 * DAY_MS);
    expect(service.received).toEqual([]);
    expect((await reminderRows(t)).map((row) => [row.user_id, Number(row.round)])).toEqual(
      [
        [w.users.anna.id, 1],
        [w.users.anna.id, 2],
        [w.users.anna.id, 3],
        [w.users.ben.id, 1],
        [w.users.ben.id, 2],
        [w.users.ben.id, 3],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1])),
    );
  });

  it('start again for a new debt after the old one was paid, follow the configured days, and stop at 0', async () => {
    const w = await world();
    const { t } = w;
    const start = Date.now();
    const saved = await t.call('PUT', '/api/config', {
      token: w.admin,
      body: { team_id: 1, team_name: 'Union', site_title: 'Fankurve', theme_color: '#d4001a', payment_reminder_days: 7 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.config.payment_reminder_days).toBe(7);

    await lookAt(t, start + 7 * DAY_MS + 60_000);
    expect(Object.keys(received(w)).sort()).toEqual(['anna', 'ben']);

    // anna pays all; a new charge later is a new debt, reminded seven days after it.
    service.reset();
    vi.useRealTimers();
    await book(w, w.users.anna.id, 'payment', 25.5);
    await book(w, w.users.anna.id, 'charge', 5);
    const newDebt = Date.now();
    await lookAt(t, newDebt + 7 * DAY_MS + 60_000);
    // ben's second is due seven days after his first, not yet.
    const got = received(w);
    expect(Object.keys(got)).toEqual(['anna']);
    expect(got.anna!.map((p) => p.notification.title)).toEqual(['Offener Betrag: 5,00\u00a0€']);
    const annas = (await reminderRows(t)).filter((row) => row.user_id === w.users.anna.id);
    expect(annas.map((row) => Number(row.round))).toEqual([1, 1]);
    expect(new Set(annas.map((row) => row.owing_since)).size).toBe(2);

    // 0 switches them off: the job is idle, and nothing more goes out.
    service.reset();
    vi.useRealTimers();
    const off = await t.call('PUT', '/api/config', {
      token: w.admin,
      body: { team_id: 1, team_name: 'Union', site_title: 'Fankurve', theme_color: '#d4001a', payment_reminder_days: 0 },
    });
    expect(off.status).toBe(200);
    await lookAt(t, newDebt + 30 * DAY_MS);
    expect(service.received).toEqual([]);
    expect((await job(t)).due_at).toBeNull();
  });

  it('refuse a reminder time that is no whole number of days from 0 to 90, and change nothing', async () => {
    const t = await startApp(await sharedEnv());
    const admin = await t.adminToken();
    const base = { team_id: 1, team_name: 'Union', site_title: 'Fankurve', theme_color: '#d4001a' };
    for (const bad of [-1, 91, 2.5, 'zwei', true]) {
      const res = await t.call('PUT', '/api/config', { token: admin, body: { ...base, payment_reminder_days: bad } });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.code).toBe('paymentReminderDaysInvalid');
    }
    const config = await t.callTyped(siteConfigAnswer, 'GET', '/api/config', { token: admin });
    expect(config.config.payment_reminder_days).toBe(14);
    const member = await t.member('pay-plain');
    const memberView = await t.callTyped(siteConfigAnswer, 'GET', '/api/config', { token: member.token });
    expect(memberView.config.payment_reminder_days).toBeUndefined();
  });
});
