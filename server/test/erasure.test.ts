import { erasedUsersAnswer, MESSAGES, SYNC_SCHEMAS } from '@fankurve/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { scheduleJobBy } from '../src/db/jobs.js';
import { RETENTION_JOB } from '../src/domain/people/retention.js';
import { createTestApp, type TestApp } from './helpers.js';
import { LocalPushService, newKeys, subscriptionOf } from './push-endpoint.js';

/*
 * Erasure with retention (docs/architecture.md, Erasure and retention): a member erases their own
 * account, or an admin does. What is personal goes at once; the ledger entries and ticket rows stay
 * under the pseudonym until the retention job removes them at the end of their retention. The job
 * runs on a faked clock (Date only: the app's timers stay real).
 */

let t: TestApp;
let service: LocalPushService;
let admin: string;

const PASSWORD = 'member-pass';

beforeAll(async () => {
  service = await LocalPushService.start();
  t = await createTestApp({
    JOB_INTERVAL_SECONDS: '0.05',
    VAPID_SUBJECT: 'mailto:erasure-test@fankurve.example',
    PUBLIC_URL: 'https://fankurve.example',
    PUSH_ENDPOINT_HOSTS: '127.0.0.1',
  });
  t.runtime.deps.push.agent = service.agent();
  admin = await t.adminToken();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await t.close();
  await service.close();
});

async function ok(method: string, url: string, token: string, body?: unknown) {
  const res = await t.call(method, url, { token, body });
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const user = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const count = async (table: 'sessions' | 'push_subscriptions' | 'calendar_tokens' | 'loyalty_adjustments', id: string) =>
  (await t.db.selectFrom(table).select('user_id').where('user_id', '=', id).execute()).length;
const ledgerOf = (id: string) => t.db.selectFrom('ledger').selectAll().where('user_id', '=', id).orderBy('seq').execute();
const attendeeRow = (id: string) => t.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function event(title: string, date: string): Promise<string> {
  return (await ok('POST', '/api/events', admin, { title, date, location: 'Stadion', ticket_price: 20 })).event.id;
}

/** A member as the club knows them after a season: a paid ticket, a plain answer with a guest, comments, a vote, a device. */
async function seasonedMember(name: string) {
  const m = await t.member(name);
  const away = await event(`Away ${name} (A)`, '2026-12-12 15:30');
  const home = await event(`Home ${name} (H)`, '2026-12-19 15:30');
  const ticket = (
    await ok('POST', `/api/attendance/${away}`, m.token, { status: 'going', needs_ticket: true, needs_transport: true })
  ).attendance.id;
  await ok('PUT', `/api/attendees/${ticket}`, admin, { bought: true, price: 20 });
  await ok('POST', '/api/ledger/entries', admin, { user_id: m.id, kind: 'payment', amount: 20 });
  const answer = (await ok('POST', `/api/attendance/${home}`, m.token, { status: 'maybe' })).attendance.id;
  const guest = (await ok('POST', '/api/guests', m.token, { event_id: home, guest_name: `Gast von ${name}` })).guest.id;
  return { ...m, away, home, ticket, answer, guest };
}

describe('a member erasing their own account', () => {
  it('is refused with a wrong password, and nothing changes', async () => {
    const m = await t.member('erase-wrong');
    const res = await t.call('POST', '/api/me/erase', { token: m.token, body: { password: 'not-it' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'erasurePasswordWrong', message: MESSAGES.erasurePasswordWrong });
    expect((await t.call('GET', '/api/auth/profile', { token: m.token })).status).toBe(200);
    expect(await user(m.id)).toMatchObject({ username: 'erase-wrong', deleted: 0, erased_at: null });
    for (const body of [{}, { password: 42 }, { password: 'x'.repeat(201) }]) {
      const bad = await t.call('POST', '/api/me/erase', { token: m.token, body });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('erasurePasswordWrong');
    }
    expect((await t.call('POST', '/api/me/erase', { token: null, body: { password: PASSWORD } })).status).toBe(401);
  });

  it('waits while the balance is not zero, owed or in credit, until it is settled or written off', async () => {
    const m = await t.member('erase-owes');
    await ok('POST', '/api/ledger/entries', admin, { user_id: m.id, kind: 'charge', amount: 7.5 });
    const owed = await t.call('POST', '/api/me/erase', { token: m.token, body: { password: PASSWORD } });
    expect(owed.status).toBe(409);
    expect(owed.body.code).toBe('erasureBalanceOpen');
    await ok('POST', '/api/ledger/entries', admin, { user_id: m.id, kind: 'payment', amount: 10 });
    const credit = await t.call('POST', '/api/me/erase', { token: m.token, body: { password: PASSWORD } });
    expect(credit.status).toBe(409);
    expect(credit.body.code).toBe('erasureBalanceOpen');
    expect(await user(m.id)).toMatchObject({ deleted: 0, erased_at: null });
    // The admin pays the credit out (a refund): settled, the member can go.
    await ok('POST', '/api/ledger/entries', admin, { user_id: m.id, kind: 'refund', amount: 2.5 });
    expect((await t.call('POST', '/api/me/erase', { token: m.token, body: { password: PASSWORD } })).status).toBe(200);
  });

  it('refuses the last admin, and lets an admin go while another one stays', async () => {
    const adminId = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id;
    const last = await t.call('POST', '/api/me/erase', { token: admin, body: { password: 'admin-secret' } });
    expect(last.status).toBe(409);
    expect(last.body).toEqual({ success: false, code: 'lastAdminErasure', message: MESSAGES.lastAdminErasure });
    expect(await user(adminId)).toMatchObject({ deleted: 0, scope: 'admin' });
    const second = await t.member('erase-second-admin');
    await ok('PUT', `/api/auth/users/${second.id}`, admin, { scope: 'admin' });
    expect((await t.call('POST', '/api/me/erase', { token: second.token, body: { password: PASSWORD } })).status).toBe(200);
    expect(await user(second.id)).toMatchObject({ deleted: 1, scope: 'user' });
  });

  it('erases everything personal at once and keeps the books under a pseudonym', async () => {
    const anna = await seasonedMember('erase-anna');
    const bob = await t.member('erase-bob');
    // Her words and the words naming her, a vote, a loyalty note, the calendar feed, a device.
    const own = (await ok('POST', `/api/comments/event/${anna.away}`, anna.token, { comment: 'Wer fährt mit, @erase-bob?' }))
      .comment.id;
    const reply = (await ok('POST', `/api/comments/event/${anna.away}`, bob.token, { comment: 'Ich, @erase-anna!' })).comment.id;
    const poll = await ok('POST', '/api/polls', admin, { question: 'Neue Fahne?', options: ['Ja', 'Nein'] });
    await ok('PUT', `/api/polls/${poll.poll.id}/vote`, anna.token, { option_ids: [poll.options[0].id] });
    await ok('PUT', `/api/loyalty/${anna.id}/adjustment`, admin, { points: 2, note: 'Vor der App dabei' });
    await ok('GET', '/api/calendar', anna.token);
    await ok('POST', '/api/fcm/token', anna.token, {
      token: subscriptionOf(newKeys(service, 'anna')),
      deviceName: 'Phone',
    });
    await ok('PUT', `/api/auth/users/${anna.id}`, admin, { email: 'anna-neu@example.org' });
    const hers = (await ok('POST', '/api/events', anna.token, { title: 'Kneipe (H)', date: '2026-12-20 19:00', location: 'Eck' }))
      .event.id;
    expect(await count('push_subscriptions', anna.id)).toBe(1);
    const eventsPull = `/api/sync/events/${SYNC_SCHEMAS.events.version}/pull`;
    const before = await ok('POST', eventsPull, bob.token, { checkpoint: null, limit: 1000 });
    expect(await count('calendar_tokens', anna.id)).toBe(1);

    const erased = await t.call('POST', '/api/me/erase', { token: anna.token, body: { password: PASSWORD } });
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ success: true, message: MESSAGES.accountErased });

    // The account: a pseudonym, no e-mail, no password, no way in; name and address are free again.
    expect(await user(anna.id)).toMatchObject({ email: '', password_hash: '', deleted: 1 });
    const stored = await user(anna.id);
    expect(stored.username).toMatch(/^Ehemaliges Mitglied \d+$/);
    expect(stored.username).toBe(`Ehemaliges Mitglied ${stored.former_number}`);
    expect((await t.call('GET', '/api/auth/profile', { token: anna.token })).status).toBe(401);
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'erase-anna', password: PASSWORD } })).status).toBe(401);
    for (const table of ['sessions', 'push_subscriptions', 'calendar_tokens', 'loyalty_adjustments'] as const)
      expect(await count(table, anna.id), table).toBe(0);
    const again = await t.call('POST', '/api/auth/register', {
      body: { username: 'erase-anna', email: 'anna-neu@example.org', password: 'new-member' },
    });
    expect(again.status).toBe(201);

    // Her comment stays as deleted; bob's reply keeps his words; no mention names her or comes from her words.
    const comments = await ok('GET', `/api/comments/event/${anna.away}`, bob.token);
    const byId = new Map((comments.comments as { id: string; comment: string }[]).map((c) => [c.id, c]));
    expect(byId.get(own)?.comment).toBe('');
    expect(byId.get(reply)?.comment).toBe('Ich, @erase-anna!');
    const mentions = await t.db.selectFrom('mentions').selectAll().where('deleted', '=', 0).execute();
    expect(mentions.filter((m) => m.user_id === anna.id || m.comment_id === own)).toEqual([]);
    // An erased comment allows nothing but an admin's delete.
    for (const flag of ['resolve', 'toggle-requires-answer']) {
      const refused = await t.call('PUT', `/api/comments/${own}/${flag}`, { token: admin });
      expect(refused.status, flag).toBe(403);
      expect(refused.body.code).toBe('commentNotAllowed');
    }
    const notices = await t.db
      .selectFrom('notices')
      .selectAll()
      .where('user_id', '=', anna.id)
      .where('deleted', '=', 0)
      .execute();
    expect(notices).toEqual([]);

    // Her vote still counts but names nobody.
    const after = await ok('GET', `/api/polls/${poll.poll.id}`, admin);
    expect(after.poll.voters).toBe(1);
    expect(await t.db.selectFrom('poll_votes').select('id').where('user_id', '=', anna.id).execute()).toEqual([]);

    // The books: the bought ticket and both entries stay; the answer without a ticket and her guest go.
    expect((await ledgerOf(anna.id)).map((entry) => [entry.kind, entry.amount_cents, entry.deleted])).toEqual([
      ['ticket', 2000, 0],
      ['payment', -2000, 0],
    ]);
    // The kept ticket of an event still ahead no longer holds a seat in the club's transport.
    expect(await attendeeRow(anna.ticket)).toMatchObject({ deleted: 0, bought: 1, user_id: anna.id, needs_transport: 0 });
    expect(await attendeeRow(anna.answer)).toMatchObject({ deleted: 1 });
    expect(await attendeeRow(anna.guest)).toMatchObject({ deleted: 1 });

    // Members' devices keep her as the pseudonym (without an address, even for admins).
    const version = SYNC_SCHEMAS.members.version;
    for (const token of [bob.token, admin]) {
      const pulled = await ok('POST', `/api/sync/members/${version}/pull`, token, { checkpoint: null, limit: 1000 });
      const doc = (pulled.documents as { id: string; username: string; email: string | null; _deleted: boolean }[]).find(
        (d) => d.id === anna.id,
      );
      expect(doc).toMatchObject({ username: stored.username, email: null, _deleted: false });
    }
    // The event she created reaches devices again, naming the pseudonym.
    const events = await ok('POST', eventsPull, bob.token, { checkpoint: before.checkpoint, limit: 1000 });
    expect((events.documents as { id: string; creator_name: string }[]).find((e) => e.id === hers)?.creator_name).toBe(
      stored.username,
    );

    // The audit log: the erasure, by her; an earlier entry about her without her name or address.
    const log = await ok('GET', `/api/audit?user_id=${anna.id}`, admin);
    const actions = (log.entries as { action: string; actor_id: string; before: unknown; after: unknown }[]).map((e) => e.action);
    expect(actions).toContain('user.erase');
    expect(log.entries.find((e: { action: string }) => e.action === 'user.erase')).toMatchObject({ actor_id: anna.id });
    expect(JSON.stringify(log.entries)).not.toContain('anna-neu@example.org');
    expect(JSON.stringify(log.entries)).not.toContain('erase-anna@example.org');

    // The admin's list of erased accounts: what is kept, until the end of 2036.
    const list = await t.callTyped(erasedUsersAnswer, 'GET', '/api/auth/users/erased', { token: admin });
    expect(list.users.find((u) => u.id === anna.id)).toMatchObject({
      name: stored.username,
      former_number: stored.former_number,
      kept_until: '2036-12-31',
      ledger_entries: 2,
      tickets: 1,
    });
  });
});

describe('an admin deleting an account', () => {
  it('declines a registration without a pseudonym, erases a member with one, and never themselves', async () => {
    const res = await t.call('POST', '/api/auth/register', {
      body: { username: 'erase-pending', email: 'erase-pending@example.org', password: 'pending-pass' },
    });
    const pendingId = res.body.user.id as string;
    await ok('DELETE', `/api/auth/users/${pendingId}`, admin);
    expect(await user(pendingId)).toMatchObject({ username: '', email: '', deleted: 1, former_number: null });
    const m = await seasonedMember('erase-by-admin');
    const before = (
      await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.max('former_number').as('n'))
        .executeTakeFirst()
    )?.n;
    await ok('DELETE', `/api/auth/users/${m.id}`, admin);
    expect(await user(m.id)).toMatchObject({ former_number: Number(before ?? 0) + 1, deleted: 1 });
    expect((await t.call('GET', '/api/auth/profile', { token: m.token })).status).toBe(401);
    const log = await ok('GET', `/api/audit?user_id=${m.id}`, admin);
    expect(log.entries[0]).toMatchObject({ action: 'user.erase', after: { former_number: Number(before ?? 0) + 1 } });
    const adminId = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id;
    expect((await t.call('DELETE', `/api/auth/users/${adminId}`, { token: admin })).body.code).toBe('cannotDeleteSelf');
    // An erased account is gone for the admin routes too.
    expect((await t.call('DELETE', `/api/auth/users/${m.id}`, { token: admin })).status).toBe(404);
  });

  it('waits for a member who owes, until the admin writes the debt off', async () => {
    const m = await t.member('erase-debtor');
    await ok('POST', '/api/ledger/entries', admin, { user_id: m.id, kind: 'charge', amount: 12 });
    const refused = await t.call('DELETE', `/api/auth/users/${m.id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('erasureBalanceOpen');
    expect((await t.call('GET', '/api/auth/profile', { token: m.token })).status).toBe(200);
    await ok('POST', '/api/ledger/entries', admin, { user_id: m.id, kind: 'credit', amount: 12 });
    await ok('DELETE', `/api/auth/users/${m.id}`, admin);
  });
});

describe('the pseudonym', () => {
  it('is a name nobody can take, in either language and any case', async () => {
    for (const username of ['Ehemaliges Mitglied 99', 'former member 3', 'EHEMALIGES MITGLIED12', 'Former Member ４']) {
      const res = await t.call('POST', '/api/auth/register', {
        body: { username, email: `reserved-${username.length}@example.org`, password: 'pass-word' },
      });
      expect(res.status, username).toBe(400);
      expect(res.body.code).toBe('usernameReserved');
    }
    // Other names with those words stay free.
    const free = await t.call('POST', '/api/auth/register', {
      body: { username: 'Ehemaliges Mitglied der Ultras', email: 'ultras@example.org', password: 'pass-word' },
    });
    expect(free.status).toBe(201);
  });
});

describe('the retention', () => {
  it('is a club setting of 8 to 30 years, 10 unless set, for admins only', async () => {
    const base = { team_id: 1, team_name: 'Union', site_title: 'Fankurve', theme_color: '#d4001a' };
    expect((await ok('GET', '/api/config', admin)).config.retention_years).toBe(10);
    for (const bad of [7, 31, 10.5, 'zehn', null]) {
      const res = await t.call('PUT', '/api/config', { token: admin, body: { ...base, retention_years: bad } });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.code).toBe('retentionYearsInvalid');
    }
    expect((await ok('PUT', '/api/config', admin, { ...base, retention_years: '12' })).config.retention_years).toBe(12);
    const member = await t.member('retention-reader');
    expect((await ok('GET', '/api/config', member.token)).config.retention_years).toBeUndefined();
    await ok('PUT', '/api/config', admin, { ...base, retention_years: 10 });
  });
});

describe('the retention job', () => {
  const job = () => t.db.selectFrom('jobs').selectAll().where('name', '=', RETENTION_JOB).executeTakeFirstOrThrow();

  /** Moves the clock to `at`, makes the job look then and waits until it has run. */
  async function lookAt(at: string): Promise<void> {
    await t.runtime.jobs.tick();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(at) });
    const since = new Date().toISOString();
    await scheduleJobBy(t.db, RETENTION_JOB, since);
    t.runtime.jobs.wake(new Date());
    await vi.waitFor(
      async () => {
        const row = await job();
        expect(row.last_run_at !== null && row.last_run_at > since && row.claimed_by === null).toBe(true);
      },
      { timeout: 5_000, interval: 20 },
    );
  }

  it("keeps an erased member's entries and tickets to the end of their retention, then removes them; a live member's stay", async () => {
    const gone = await seasonedMember('retention-gone');
    const stays = await seasonedMember('retention-stays');
    await ok('DELETE', `/api/auth/users/${gone.id}`, admin);
    expect(await ledgerOf(gone.id)).toHaveLength(2);

    // 31 December 2036 in Berlin: the last day of the retention of 2026's entries.
    await lookAt('2036-12-31T22:30:00Z');
    expect((await ledgerOf(gone.id)).every((entry) => entry.deleted === 0)).toBe(true);
    expect(await attendeeRow(gone.ticket)).toMatchObject({ deleted: 0 });

    // Half past midnight on 1 January 2037 in Berlin: gone from the books, emptied, as tombstones devices drop.
    await lookAt('2036-12-31T23:30:00Z');
    expect((await ledgerOf(gone.id)).map((entry) => [entry.deleted, entry.amount_cents, entry.description])).toEqual([
      [1, 0, ''],
      [1, 0, ''],
    ]);
    expect(await attendeeRow(gone.ticket)).toMatchObject({ deleted: 1, guest_name: null });
    expect(await t.db.selectFrom('audit_log').select('id').where('user_id', '=', gone.id).execute()).toEqual([]);
    // Ten years on, the admin signs in afresh.
    const later = await t.login('admin', 'admin-secret');
    const list = await t.callTyped(erasedUsersAnswer, 'GET', '/api/auth/users/erased', { token: later });
    expect(list.users.find((u) => u.id === gone.id)).toMatchObject({ kept_until: null, ledger_entries: 0, tickets: 0 });

    // A member who was not erased keeps everything.
    expect((await ledgerOf(stays.id)).every((entry) => entry.deleted === 0)).toBe(true);
    expect(await attendeeRow(stays.ticket)).toMatchObject({ deleted: 0 });
  });
});
