import { eventRemindersAnswer, MESSAGES, remindNowAnswer, unansweredAnswer } from '@fankurve/shared';
import { MEMBER_PUSH_TOPICS } from '@fankurve/shared/push';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';
import { checkVapid, decrypt, LocalPushService, newKeys, subscriptionOf, type Device, type Payload } from './push-endpoint.js';

/*
 * The admin's "remind now" (docs/product.md, Answer deadlines and reminders): POST
 * /api/events/{id}/reminders and GET /api/events/{id}/unanswered, against the real local push
 * endpoint (push-endpoint.ts: VAPID checked, message decrypted) and a real local SMTP server
 * (nodemailer delivers over TCP, the test parses what arrived). Members: anna (German, a device),
 * ben (English, no device: mail), carl answered, dora answered and took it back, fritz has a device
 * but switched reminders off (mail).
 */

const SUBJECT = 'mailto:remind-now-test@fankurve.example';
const PUBLIC_URL = 'https://fankurve.example';

interface Inbox {
  url: string;
  mails: ParsedMail[];
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

async function startSmtp(): Promise<Inbox> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const recipients = (mail: ParsedMail) => [mail.to ?? []].flat().flatMap((to) => to.value.map((a) => a.address?.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (address) => mails.filter((mail) => recipients(mail).includes(address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let service: LocalPushService;
let smtp: Inbox;
let t: TestApp;
let admin: string;
let serverKey: string;
const users: Record<string, { id: string; token: string }> = {};
const devices: Record<string, Device> = {};

const ONLY_REMINDERS = Object.fromEntries(MEMBER_PUSH_TOPICS.map((topic) => [topic, topic === 'reminders']));

beforeAll(async () => {
  service = await LocalPushService.start();
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, VAPID_SUBJECT: SUBJECT, PUBLIC_URL, PUSH_ENDPOINT_HOSTS: '127.0.0.1' });
  t.runtime.deps.push.agent = service.agent();
  admin = await t.adminToken();
  for (const name of ['anna', 'ben', 'carl', 'dora', 'fritz']) users[name] = await t.member(`now-${name}`);
  expect(
    (await t.call('PUT', `/api/auth/users/${users.ben!.id}`, { token: users.ben!.token, body: { language: 'en' } })).status,
  ).toBe(200);
  for (const name of ['anna', 'fritz']) {
    const token = await t.login(`now-${name}`, 'member-pass');
    const keys = newKeys(service, `now-${name}`);
    const res = await t.call('POST', '/api/fcm/token', { token, body: { token: subscriptionOf(keys), deviceName: 'Phone' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.call('PUT', '/api/fcm/topics', { token, body: { topics: ONLY_REMINDERS } })).status).toBe(200);
    devices[name] = { ...keys, token };
  }
  const off = await t.call('PUT', '/api/fcm/topics', { token: users.fritz!.token, body: { topics: { reminders: false } } });
  expect(off.status).toBe(200);
  serverKey = (await t.call('GET', '/api/fcm/token/status', { token: admin })).body.data.publicKey as string;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await service.close();
});

/** An event with carl going and dora's answer taken back (both answered). */
async function answeredEvent(fields: Record<string, unknown> = {}): Promise<string> {
  const event = await createEventVia(t, admin, { title: 'Union – Hertha (A)', date: '2030-03-01 15:30', ...fields });
  const going = await t.call('POST', `/api/attendance/${event.id}`, { token: users.carl!.token, body: { status: 'going' } });
  expect(going.status).toBe(200);
  expect(
    (await t.call('POST', `/api/attendance/${event.id}`, { token: users.dora!.token, body: { status: 'maybe' } })).status,
  ).toBe(200);
  expect((await t.call('DELETE', `/api/attendance/${event.id}`, { token: users.dora!.token })).status).toBe(200);
  return event.id;
}

/** The pushes a device received since the service was reset, checked and decrypted. */
function pushesTo(name: string): Payload[] {
  const device = devices[name]!;
  return service.received
    .filter((message) => message.deviceId === device.id)
    .map((message) => {
      checkVapid(message.headers.authorization as string | undefined, { serverKey, origin: service.origin, subject: SUBJECT });
      return JSON.parse(decrypt(message.body, device)) as Payload;
    });
}

/** Waits until every push and mail under way went out. */
async function settled(): Promise<void> {
  await t.runtime.deps.push.idle();
  await t.runtime.deps.mailer.idle();
}

const remind = (eventId: string, body: unknown = {}, token = admin) =>
  t.call('POST', `/api/events/${eventId}/reminders`, { token, body });

const names = (list: Array<{ username: string }>) => list.map((entry) => entry.username);

describe('who has not answered', () => {
  it('lists the active members without an own row (live or taken back), admins only', async () => {
    const eventId = await answeredEvent();
    const list = await t.callTyped(unansweredAnswer, 'GET', `/api/events/${eventId}/unanswered`, { token: admin });
    const listed = names(list.members);
    expect(listed).toEqual(expect.arrayContaining(['now-anna', 'now-ben', 'now-fritz']));
    expect(listed).not.toContain('now-carl');
    expect(listed).not.toContain('now-dora');
    expect(list.members.find((m) => m.username === 'now-anna')).toEqual({
      user_id: users.anna!.id,
      username: 'now-anna',
      reminded_at: null,
      remind_again_at: null,
    });
    const member = await t.call('GET', `/api/events/${eventId}/unanswered`, { token: users.anna!.token });
    expect(member.status).toBe(403);
    expect(member.body).toMatchObject({ success: false, message: MESSAGES.adminRequired });
    expect((await t.call('GET', `/api/events/${eventId}/unanswered`)).status).toBe(401);
  });
});

describe('remind now', () => {
  it('pushes to members with a device and mails the others in their language, once an hour', async () => {
    const eventId = await answeredEvent({ answer_deadline: '2030-02-27 18:00' });
    service.reset();
    const before = smtp.mails.length;
    const answer = await t.callTyped(remindNowAnswer, 'POST', `/api/events/${eventId}/reminders`, { token: admin, body: {} });
    expect(answer.reminded.filter((r) => r.username.startsWith('now-'))).toEqual([
      { user_id: users.anna!.id, username: 'now-anna', channel: 'push' },
      { user_id: users.ben!.id, username: 'now-ben', channel: 'mail' },
      { user_id: users.fritz!.id, username: 'now-fritz', channel: 'mail' },
    ]);
    expect(names(answer.reminded)).not.toContain('now-carl');
    expect(names(answer.reminded)).not.toContain('now-dora');
    // The admin who asked is not reminded.
    expect(answer.skipped).toContainEqual(expect.objectContaining({ username: 'admin', reason: 'self' }));
    await settled();

    const anna = pushesTo('anna');
    expect(anna).toHaveLength(1);
    expect(anna[0]!.notification).toMatchObject({
      title: 'Antwortfrist läuft ab: Union – Hertha (A)',
      navigate: `${PUBLIC_URL}/events/${eventId}`,
      lang: 'de',
    });
    expect(anna[0]!.notification.body).toContain('Antworten bis 27.02.2030, 18:00');
    // fritz switched reminders off: no push, a mail instead.
    expect(pushesTo('fritz')).toEqual([]);
    const ben = smtp.to('now-ben@example.org');
    expect(ben).toHaveLength(1);
    expect(ben[0]!.subject).toBe('Fankurve: No answer yet – Union – Hertha (A)');
    expect(ben[0]!.text).toContain('Union – Hertha (A) on 1 Mar 2030, 15:30: are you going?');
    expect(ben[0]!.text).toContain('Answer by 27 Feb 2030, 18:00.');
    expect(ben[0]!.text).toContain(`${PUBLIC_URL}/events/${eventId}`);
    const fritz = smtp.to('now-fritz@example.org');
    expect(fritz).toHaveLength(1);
    expect(fritz[0]!.subject).toBe('Fankurve: Noch keine Antwort – Union – Hertha (A)');
    expect(smtp.to('now-anna@example.org')).toEqual([]);
    expect(smtp.to('now-carl@example.org')).toEqual([]);
    expect(smtp.mails.length - before).toBe(
      2 + answer.reminded.filter((r) => r.channel === 'mail' && !r.username.startsWith('now-')).length,
    );

    // The same hour: everybody skipped, nothing sent again.
    service.reset();
    const mailsBefore = smtp.mails.length;
    const again = await t.callTyped(remindNowAnswer, 'POST', `/api/events/${eventId}/reminders`, { token: admin, body: {} });
    expect(again.reminded).toEqual([]);
    expect(again.skipped).toEqual(
      expect.arrayContaining(
        ['now-anna', 'now-ben', 'now-fritz'].map((username) => expect.objectContaining({ username, reason: 'recentlyReminded' })),
      ),
    );
    await settled();
    expect(service.received).toEqual([]);
    expect(smtp.mails.length).toBe(mailsBefore);
    const list = await t.callTyped(unansweredAnswer, 'GET', `/api/events/${eventId}/unanswered`, { token: admin });
    const annaRow = list.members.find((m) => m.username === 'now-anna')!;
    expect(annaRow.reminded_at).not.toBeNull();
    expect(Date.parse(annaRow.remind_again_at!) - Date.parse(annaRow.reminded_at!)).toBe(60 * 60 * 1000);
    // The admin's list of reminders names it as one by hand.
    const sent = await t.callTyped(eventRemindersAnswer, 'GET', `/api/events/${eventId}/reminders`, { token: admin });
    expect(sent.reminders).toContainEqual(expect.objectContaining({ username: 'now-anna', kind: 'manual' }));

    // An hour later anna can be reminded again (only her: `user_ids`).
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000 - 1000).toISOString();
    await t.db
      .updateTable('event_reminders')
      .set({ sent_at: hourAgo })
      .where('event_id', '=', eventId)
      .where('kind', '=', 'manual')
      .execute();
    service.reset();
    const later = await t.callTyped(remindNowAnswer, 'POST', `/api/events/${eventId}/reminders`, {
      token: admin,
      body: { user_ids: [users.anna!.id, users.carl!.id] },
    });
    expect(later.reminded).toEqual([{ user_id: users.anna!.id, username: 'now-anna', channel: 'push' }]);
    expect(later.skipped).toEqual([{ user_id: users.carl!.id, username: 'now-carl', reason: 'answered' }]);
    await settled();
    expect(pushesTo('anna')).toHaveLength(1);
    expect(smtp.mails.length).toBe(mailsBefore);
  });

  it('two admins at once remind a member once', async () => {
    const eventId = await answeredEvent();
    service.reset();
    const [one, two] = await Promise.all([
      remind(eventId, { user_ids: [users.anna!.id] }),
      remind(eventId, { user_ids: [users.anna!.id] }),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    const reminded = [...one.body.reminded, ...two.body.reminded];
    expect(reminded).toEqual([{ user_id: users.anna!.id, username: 'now-anna', channel: 'push' }]);
    await settled();
    expect(pushesTo('anna')).toHaveLength(1);
  });

  it('refuses members (403), anonymous (401), unknown members (404), bad input (400), gone, past and closed events, sending nothing', async () => {
    const eventId = await answeredEvent({ answer_deadline: '2030-02-27 18:00' });
    service.reset();
    const mailsBefore = smtp.mails.length;
    const member = await remind(eventId, {}, users.anna!.token);
    expect(member.status).toBe(403);
    expect(member.body).toMatchObject({ success: false, message: MESSAGES.adminRequired });
    expect((await t.call('POST', `/api/events/${eventId}/reminders`, { body: {} })).status).toBe(401);
    const unknown = await remind(eventId, { user_ids: [users.anna!.id, '019999aa-0000-7000-8000-000000000000'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, message: MESSAGES.userNotFound });
    for (const body of [{ user_ids: 'all' }, { user_ids: [42] }, { user_ids: [''] }]) {
      const bad = await remind(eventId, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.success).toBe(false);
    }
    expect((await remind('no-such-event')).status).toBe(404);
    const past = await createEventVia(t, admin, { title: 'Past match (A)', date: '2020-03-01 15:30' });
    const pastAnswer = await remind(past.id);
    expect(pastAnswer.status).toBe(409);
    const closing = await answeredEvent({ answer_deadline: '2030-02-27 18:00' });
    await t.db.updateTable('events').set({ answer_deadline: '2021-01-01 12:00:00' }).where('id', '=', closing).execute();
    const closed = await remind(closing);
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ success: false, message: MESSAGES.answerDeadlinePassed });
    const deleted = await answeredEvent();
    expect((await t.call('DELETE', `/api/events/${deleted}`, { token: admin })).status).toBe(200);
    expect((await remind(deleted)).status).toBe(404);
    await settled();
    expect(service.received).toEqual([]);
    expect(smtp.mails.length).toBe(mailsBefore);
    const stored = await t.db
      .selectFrom('event_reminders')
      .select('user_id')
      .where('event_id', 'in', [eventId, past.id, closing, deleted])
      .execute();
    expect(stored).toEqual([]);
  });

  it('without SMTP a member push does not reach is skipped as unreachable', async () => {
    const bare = await createTestApp();
    try {
      const bareAdmin = await bare.adminToken();
      const lone = await bare.member('now-lone');
      const event = await createEventVia(bare, bareAdmin, { title: 'Lone match (A)' });
      const answer = await bare.callTyped(remindNowAnswer, 'POST', `/api/events/${event.id}/reminders`, {
        token: bareAdmin,
        body: {},
      });
      expect(answer.reminded).toEqual([]);
      expect(answer.skipped).toContainEqual({ user_id: lone.id, username: 'now-lone', reason: 'unreachable' });
      expect(await bare.db.selectFrom('event_reminders').selectAll().execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
