import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clubTimeToInstant, clubWallClock, eventRemindersAnswer, MESSAGES, siteConfigAnswer } from '@fankurve/shared';
import { MEMBER_PUSH_TOPICS } from '@fankurve/shared/push';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REMINDER_JOB } from '../src/domain/events/reminders.js';
import { scheduleJobBy } from '../src/db/jobs.js';
import { createEventVia, createTestApp, testDatabase, type TestApp } from './helpers.js';
import { checkVapid, decrypt, LocalPushService, newKeys, subscriptionOf, type Device, type Payload } from './push-endpoint.js';

/*
 * Reminders to answer (docs/product.md, Answer deadlines and reminders), end to end: the job
 * `answer-reminders` of a real app (looking every 50 ms) sends web pushes to the real local push
 * endpoint of push.test.ts (push-endpoint.ts), which checks each message's VAPID header and
 * decrypts it with the test device's keys. Members: anna (German) and ben (English) have not
 * answered; carl answered; dora said no (answered, then took it back); emil has no device; fritz
 * switched the topic off. Every member switched the other topics off, so only reminders arrive.
 */

const SUBJECT = 'mailto:reminders-test@fankurve.example';
const PUBLIC_URL = 'https://fankurve.example';
const NAMES = ['anna', 'ben', 'carl', 'dora', 'emil', 'fritz'] as const;
type Name = (typeof NAMES)[number];

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

/** One database (a SQLite file in a folder of its own, or a PostgreSQL database) that restarted apps share. */
async function sharedEnv(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-reminders-'));
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

/** An app on the shared database whose notifier trusts the local push service. */
async function startApp(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp(env);
  open.push(t);
  t.runtime.deps.push.agent = service.agent();
  return t;
}

async function stopApp(t: TestApp): Promise<void> {
  await t.runtime.jobs.stop();
  open.splice(open.indexOf(t), 1);
  await t.close();
}

/** Every topic but the reminders off: only reminders arrive. */
const ONLY_REMINDERS = Object.fromEntries(MEMBER_PUSH_TOPICS.map((topic) => [topic, topic === 'reminders']));

/** Signs in anew (a new device), subscribes it and switches every other topic off. */
async function device(t: TestApp, username: string): Promise<Device> {
  const token = await t.login(username, 'member-pass');
  const keys = newKeys(service, username);
  const res = await t.call('POST', '/api/fcm/token', { token, body: { token: subscriptionOf(keys), deviceName: 'Phone' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect((await t.call('PUT', '/api/fcm/topics', { token, body: { topics: ONLY_REMINDERS } })).status).toBe(200);
  return { ...keys, token };
}

async function world(): Promise<World> {
  service.reset();
  const env = await sharedEnv();
  const t = await startApp(env);
  const admin = await t.adminToken();
  const users = {} as World['users'];
  for (const name of NAMES) users[name] = await t.member(`rem-${name}`);
  expect(
    (await t.call('PUT', `/api/auth/users/${users.ben.id}`, { token: users.ben.token, body: { language: 'en' } })).status,
  ).toBe(200);
  const devices: World['devices'] = {};
  for (const name of NAMES.filter((n) => n !== 'emil')) devices[name] = await device(t, `rem-${name}`);
  const off = await t.call('PUT', '/api/fcm/topics', { token: users.fritz.token, body: { topics: { reminders: false } } });
  expect(off.status).toBe(200);
  const status = await t.call('GET', '/api/fcm/token/status', { token: admin });
  return { t, env, admin, users, devices, serverKey: status.body.data.publicKey as string };
}

/** carl answers going; dora answers and takes it back (not going). */
async function answer(w: World, eventId: string): Promise<void> {
  expect(
    (await w.t.call('POST', `/api/attendance/${eventId}`, { token: w.users.carl.token, body: { status: 'going' } })).status,
  ).toBe(200);
  expect(
    (await w.t.call('POST', `/api/attendance/${eventId}`, { token: w.users.dora.token, body: { status: 'maybe' } })).status,
  ).toBe(200);
  expect((await w.t.call('DELETE', `/api/attendance/${eventId}`, { token: w.users.dora.token })).status).toBe(200);
}

/** What each device received (checked and decrypted), by member name. */
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

const job = (t: TestApp) => t.db.selectFrom('jobs').selectAll().where('name', '=', REMINDER_JOB).executeTakeFirstOrThrow();
const rows = (t: TestApp, eventId: string) =>
  t.db.selectFrom('event_reminders').selectAll().where('event_id', '=', eventId).orderBy('user_id').orderBy('kind').execute();

/** Waits until the job has run (its last run noted after `since`, its claim released), then until every push went out. */
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

/**
 * Makes the job look now and waits for the run and its pushes. A run under way (one a configuration
 * change asked for) ends first: its end sets the job's next due time, which would replace the one set
 * here, and its run time could come before `since`. No run starts between the look and `since`.
 */
async function runJobNow(t: TestApp): Promise<void> {
  await t.runtime.jobs.tick();
  const since = new Date().toISOString();
  await scheduleJobBy(t.db, REMINDER_JOB, since);
  t.runtime.jobs.wake(new Date());
  await ranAfter(t, since);
}

const zoneOf = (t: TestApp) => t.runtime.deps.config.clubTimeZone;
/** The club's wall-clock time `minutes` from now, on the next quarter hour (event dates are kept to quarter hours). */
function quarterIn(t: TestApp, minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  at.setUTCMinutes(Math.ceil(at.getUTCMinutes() / 15) * 15, 0, 0);
  return clubWallClock(zoneOf(t), at).slice(0, 16);
}
/** The same wall-clock time `days` days earlier. */
function daysEarlier(wallClock: string, days: number): string {
  const [date, time] = wallClock.split(' ');
  const day = new Date(`${date}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() - days);
  return `${day.toISOString().slice(0, 10)} ${time}`;
}
const DAY_MIN = 24 * 60;

describe('the reminder before the event', () => {
  it('reaches each member without an answer exactly once, in their language, and nothing more after a restart', async () => {
    const w = await world();
    const { t } = w;
    const date = quarterIn(t, 3 * DAY_MIN + 30);
    const event = await createEventVia(t, w.admin, { title: 'Union – Hertha (A)', date, location: 'Berlin' });
    await answer(w, event.id);
    // The job has looked (the creation made it due) and waits for the reminder's time: the event's wall-clock time three days earlier.
    const due = clubTimeToInstant(daysEarlier(date, 3), zoneOf(t));
    await vi.waitFor(async () => expect((await job(t)).due_at).toBe(due.toISOString()), { timeout: 5_000, interval: 20 });
    expect(service.received).toEqual([]);

    service.reset();
    vi.useFakeTimers({ toFake: ['Date'], now: due.getTime() + 60_000 });
    await vi.waitFor(() => expect(service.received.length).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 20 });
    await t.runtime.deps.push.idle();
    const got = received(w);
    expect(Object.keys(got).sort()).toEqual(['anna', 'ben']);
    const link = `${PUBLIC_URL}/events/${event.id}`;
    expect(got.anna!.map((p) => p.notification)).toEqual([
      {
        title: 'Noch keine Antwort: Union – Hertha (A)',
        body: expect.stringMatching(/^Union – Hertha \(A\) am .+: bist du dabei\? Sag zu oder ab\.$/),
        navigate: link,
        lang: 'de',
      },
    ]);
    expect(got.ben!.map((p) => p.notification)).toEqual([
      {
        title: 'No answer yet: Union – Hertha (A)',
        body: expect.stringMatching(/^Union – Hertha \(A\) on .+: are you going\? Let the club know\.$/),
        navigate: link,
        lang: 'en',
      },
    ]);
    expect((await rows(t, event.id)).map((row) => [row.user_id, row.kind])).toEqual(
      [
        [w.users.anna.id, 'event'],
        [w.users.ben.id, 'event'],
      ].sort(),
    );

    // The admin sees who was reminded and when.
    const list = await t.callTyped(eventRemindersAnswer, 'GET', `/api/events/${event.id}/reminders`, { token: w.admin });
    expect(list.reminders.map((r) => [r.username, r.kind]).sort()).toEqual([
      ['rem-anna', 'event'],
      ['rem-ben', 'event'],
    ]);
    expect(list.reminders.every((r) => Math.abs(Date.parse(r.sent_at) - (due.getTime() + 60_000)) < 60_000)).toBe(true);

    // Looking again sends nothing; nor does a restart of the app on the same database.
    service.reset();
    await runJobNow(t);
    await stopApp(t);
    const again = await startApp(w.env);
    await runJobNow(again);
    expect(service.received).toEqual([]);
    expect(await rows(again, event.id)).toHaveLength(2);
  });

  it('is not sent for an event created inside its reminder time, nor for a deadline set inside its own', async () => {
    const w = await world();
    const { t } = w;
    const since = new Date().toISOString();
    const soon = await createEventVia(t, w.admin, { title: 'Kurzfristig (H)', date: quarterIn(t, 2 * DAY_MIN) });
    const withDeadline = await createEventVia(t, w.admin, {
      title: 'Mit Frist (H)',
      date: quarterIn(t, 5 * DAY_MIN),
      answer_deadline: clubWallClock(zoneOf(t), new Date(Date.now() + 10 * 60 * 60_000)).slice(0, 16),
    });
    await ranAfter(t, since);
    await runJobNow(t);
    expect(service.received).toEqual([]);
    expect(await rows(t, soon.id)).toEqual([]);
    expect(await rows(t, withDeadline.id)).toEqual([]);
    expect(await t.db.selectFrom('reminder_waivers').select(['event_id', 'kind']).orderBy('kind').execute()).toEqual([
      { event_id: withDeadline.id, kind: 'deadline' },
      { event_id: soon.id, kind: 'event' },
    ]);

    // One day before instead of three: the short-notice event's reminder now lies after its creation, ahead.
    const config = (await t.call('GET', '/api/config', { token: w.admin })).body.config;
    const { team_id, team_name, site_title, theme_color } = config;
    const oneDay = await t.call('PUT', '/api/config', {
      token: w.admin,
      body: { team_id, team_name, site_title, theme_color, reminder_days_before: 1, deadline_reminder_hours: 0 },
    });
    expect(oneDay.status).toBe(200);
    const due = clubTimeToInstant(daysEarlier(soon.date, 1), zoneOf(t)).toISOString();
    await vi.waitFor(async () => expect((await job(t)).due_at).toBe(due), { timeout: 5_000, interval: 20 });
    expect(service.received).toEqual([]);
  });

  it('is sent at once when the event is moved closer, past its reminder time', async () => {
    const w = await world();
    const { t } = w;
    const event = await createEventVia(t, w.admin, { title: 'Verlegt (A)', date: quarterIn(t, 10 * DAY_MIN) });
    await answer(w, event.id);
    await runJobNow(t);
    expect(service.received).toEqual([]);
    const since = new Date().toISOString();
    const moved = await t.call('PUT', `/api/events/${event.id}`, { token: w.admin, body: { date: quarterIn(t, 2 * DAY_MIN) } });
    expect(moved.status).toBe(200);
    await ranAfter(t, since);
    const got = received(w);
    expect(Object.keys(got).sort()).toEqual(['anna', 'ben']);
    expect(got.anna!.map((p) => p.notification.title)).toEqual(['Noch keine Antwort: Verlegt (A)']);
    expect((await rows(t, event.id)).map((row) => row.kind)).toEqual(['event', 'event']);
  });

  it('is never sent for a past, deleted or archived event', async () => {
    const w = await world();
    const { t } = w;
    const make = async (title: string, minutes: number) =>
      (await createEventVia(t, w.admin, { title, date: quarterIn(t, minutes) })).id;
    const live = await make('Lebt (H)', DAY_MIN);
    const past = await make('Vorbei (H)', -DAY_MIN);
    const deleted = await make('Gelöscht (H)', DAY_MIN);
    const archived = await make('Archiviert (H)', DAY_MIN);
    const ticket = await t.call('POST', `/api/attendance/${archived}`, { token: w.users.carl.token, body: { status: 'going' } });
    await t.call('PUT', `/api/attendees/${ticket.body.attendance.id}`, { token: w.admin, body: { bought: true, price: 10 } });
    expect((await t.call('DELETE', `/api/events/${deleted}`, { token: w.admin })).status).toBe(200);
    expect((await t.call('DELETE', `/api/events/${archived}`, { token: w.admin })).status).toBe(200);
    // As if all four had been created long before their reminder times, which have passed since.
    await t.db.deleteFrom('reminder_waivers').execute();
    await runJobNow(t);
    // Nobody answered the live one (carl's ticket is of the archived event).
    expect(Object.keys(received(w)).sort()).toEqual(['anna', 'ben', 'carl', 'dora']);
    expect(
      Object.values(received(w))
        .flat()
        .map((p) => p.notification.title),
    ).toEqual(Array<string>(4).fill(expect.stringContaining('Lebt (H)') as unknown as string));
    for (const id of [past, deleted, archived]) expect(await rows(t, id)).toEqual([]);
    expect(await rows(t, live)).toHaveLength(4);
  });
});

describe('the reminder before the answer deadline', () => {
  it('names the deadline; a deadline set so that its reminder time has passed reminds at once', async () => {
    const w = await world();
    const { t } = w;
    const event = await createEventVia(t, w.admin, { title: 'Auswärts (A)', date: quarterIn(t, 6 * DAY_MIN) });
    await answer(w, event.id);
    await runJobNow(t);
    expect(service.received).toEqual([]);
    const deadline = clubWallClock(zoneOf(t), new Date(Date.now() + 5 * 60 * 60_000)).slice(0, 16);
    const since = new Date().toISOString();
    const set = await t.call('PUT', `/api/events/${event.id}`, { token: w.admin, body: { answer_deadline: deadline } });
    expect(set.status).toBe(200);
    await ranAfter(t, since);
    const got = received(w);
    expect(Object.keys(got).sort()).toEqual(['anna', 'ben']);
    const [day, time] = deadline.split(' ') as [string, string];
    const [y, m, d] = day.split('-');
    expect(got.anna!.map((p) => p.notification)).toEqual([
      {
        title: 'Antwortfrist läuft ab: Auswärts (A)',
        body: expect.stringContaining(`Antworten bis ${d}.${m}.${y}, ${time}.`),
        navigate: `${PUBLIC_URL}/events/${event.id}`,
        lang: 'de',
      },
    ]);
    expect(got.ben![0]!.notification.title).toBe('Answer deadline soon: Auswärts (A)');
    expect((await rows(t, event.id)).map((row) => row.kind)).toEqual(['deadline', 'deadline']);
    // Nothing twice: changing the deadline again does not remind again.
    service.reset();
    const later = clubWallClock(zoneOf(t), new Date(Date.now() + 6 * 60 * 60_000)).slice(0, 16);
    const since2 = new Date().toISOString();
    await t.call('PUT', `/api/events/${event.id}`, { token: w.admin, body: { answer_deadline: later } });
    await ranAfter(t, since2);
    expect(service.received).toEqual([]);
  });
});

describe('the reminder times in the team configuration', () => {
  const base = { team_id: 553, team_name: '1. FC Union Berlin', site_title: 'Fankurve', theme_color: '#00397D' };

  it('default to 3 days and 24 hours, are the admin’s to read and set, and refuse bad values with nothing changed', async () => {
    const env = await sharedEnv();
    const t = await startApp(env);
    const admin = await t.adminToken();
    const member = await t.member('rem-config');
    const read = async (token: string | null) =>
      (await t.callTyped(siteConfigAnswer, 'GET', '/api/config', token ? { token } : {})).config;
    expect(await read(admin)).toMatchObject({ reminder_days_before: 3, deadline_reminder_hours: 24 });
    expect(await read(member.token)).not.toHaveProperty('reminder_days_before');
    expect(await read(null)).not.toHaveProperty('deadline_reminder_hours');

    const settings = () => t.db.selectFrom('settings').selectAll().orderBy('key').execute();
    const before = await settings();
    const bad: [Record<string, unknown>, keyof typeof MESSAGES][] = [
      [{ reminder_days_before: 15 }, 'reminderDaysInvalid'],
      [{ reminder_days_before: -1 }, 'reminderDaysInvalid'],
      [{ reminder_days_before: 2.5 }, 'reminderDaysInvalid'],
      [{ reminder_days_before: 'drei' }, 'reminderDaysInvalid'],
      [{ reminder_days_before: true }, 'reminderDaysInvalid'],
      [{ deadline_reminder_hours: 169 }, 'deadlineReminderHoursInvalid'],
      [{ deadline_reminder_hours: -2 }, 'deadlineReminderHoursInvalid'],
      [{ deadline_reminder_hours: 1.5 }, 'deadlineReminderHoursInvalid'],
      [{ deadline_reminder_hours: null }, 'deadlineReminderHoursInvalid'],
      [{ reminder_days_before: 2, deadline_reminder_hours: 200 }, 'deadlineReminderHoursInvalid'],
    ];
    for (const [fields, code] of bad) {
      const res = await t.call('PUT', '/api/config', { token: admin, body: { ...base, site_title: 'Geändert', ...fields } });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body, JSON.stringify(fields)).toMatchObject({ success: false, code, message: MESSAGES[code] });
    }
    expect(await settings()).toEqual(before);
    expect((await t.call('PUT', '/api/config', { token: member.token, body: { ...base, reminder_days_before: 1 } })).status).toBe(
      403,
    );
    expect(await settings()).toEqual(before);

    const saved = await t.call('PUT', '/api/config', {
      token: admin,
      body: { ...base, reminder_days_before: '7', deadline_reminder_hours: 0 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.config).toMatchObject({ reminder_days_before: 7, deadline_reminder_hours: 0 });
    // Left out: unchanged.
    const again = await t.call('PUT', '/api/config', { token: admin, body: base });
    expect(again.body.config).toMatchObject({ reminder_days_before: 7, deadline_reminder_hours: 0 });
  });

  it('0 switches a reminder off; a longer time reminds of what it now covers', async () => {
    const w = await world();
    const { t } = w;
    const admin = w.admin;
    const event = await createEventVia(t, admin, { title: 'Pokal (A)', date: quarterIn(t, 5 * DAY_MIN) });
    await answer(w, event.id);
    // With 3 days its reminder is still ahead; switched off there is none.
    const off = await t.call('PUT', '/api/config', { token: admin, body: { ...base, reminder_days_before: 0 } });
    expect(off.status).toBe(200);
    await runJobNow(t);
    expect(service.received).toEqual([]);
    expect((await job(t)).due_at).toBeNull();
    const since = new Date().toISOString();
    expect((await t.call('PUT', '/api/config', { token: admin, body: { ...base, reminder_days_before: 6 } })).status).toBe(200);
    await ranAfter(t, since);
    expect(Object.keys(received(w)).sort()).toEqual(['anna', 'ben']);
  });
});
