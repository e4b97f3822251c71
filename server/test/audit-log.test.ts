import { auditAnswer, MESSAGES, type AuditEntryView } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../src/domain/club/auditLog.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * The audit log (docs/architecture.md, Audit log): admin actions on money, tickets, people and the
 * club's settings each leave a row with who, when, what, before and after, in the transaction that
 * made the change; members' own actions leave none; the log is read newest first, narrowed by member,
 * event and kind, a page at a time.
 */

let t: TestApp;
let admin: string;
let adminId: string;
let fan: { id: string; token: string };

const log = async (query = '') => (await t.callTyped(auditAnswer, 'GET', `/api/audit${query}`, { token: admin })).entries;
const only = (entries: AuditEntryView[], action: string) => entries.filter((entry) => entry.action === action);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminId = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id;
  fan = await t.member('audit-fan');
});
afterAll(() => t.close());

describe('the audit log', () => {
  it("answers who changed this ticket, when: bought, price and paid with before and after, by the admin's name", async () => {
    const event = await createEventVia(t, admin, { title: 'Audit – Bochum (A)', date: '2030-05-01 15:30' });
    const answered = await t.call('POST', `/api/attendance/${event.id}`, { token: fan.token, body: { status: 'going' } });
    const rowId = answered.body.attendance.id as string;
    // The member's own answer is no admin action.
    expect(await log(`?event_id=${event.id}`)).toEqual([]);

    await t.call('PUT', `/api/attendees/${rowId}`, { token: admin, body: { bought: true, price: 20 } });
    await t.call('PUT', `/api/attendees/${rowId}`, { token: admin, body: { price: 22.5 } });
    await t.call('PUT', `/api/attendees/${rowId}`, { token: admin, body: { paid: true } });
    const entries = only(await log(`?event_id=${event.id}`), 'ticket.status');
    expect(entries).toHaveLength(3);
    expect(entries.map((entry) => [entry.before, entry.after])).toEqual([
      [{ paid: 0 }, { paid: 1 }],
      [{ price_cents: 2000 }, { price_cents: 2250 }],
      [expect.objectContaining({ bought: 0 }), expect.objectContaining({ bought: 1, price_cents: 2000 })],
    ]);
    expect(entries[0]).toMatchObject({
      kind: 'money',
      actor_id: adminId,
      actor_name: 'admin',
      user_id: fan.id,
      username: 'audit-fan',
      event_title: 'Audit – Bochum (A)',
      entity_id: rowId,
    });
    expect(Date.parse(entries[0]!.at)).toBeGreaterThanOrEqual(Date.parse(entries[2]!.at));
  });

  it('keeps money, people and settings: a booking and its reversal, a role, a password set (never the password), the configuration', async () => {
    const booked = await t.call('POST', '/api/ledger/entries', {
      token: admin,
      body: { user_id: fan.id, kind: 'charge', amount: 12, note: 'Busfahrt' },
    });
    await t.call('POST', `/api/ledger/entries/${booked.body.entry.id}/reverse`, { token: admin });
    const money = await log(`?user_id=${fan.id}&kind=money`);
    expect(only(money, 'ledger.entry')[0]).toMatchObject({
      entity_id: booked.body.entry.id,
      before: null,
      after: { kind: 'charge', amount_cents: 1200, description: 'Busfahrt' },
    });
    expect(only(money, 'ledger.reversal')[0]).toMatchObject({
      before: { id: booked.body.entry.id },
      after: { amount_cents: -1200 },
    });

    await t.call('PUT', `/api/auth/users/${fan.id}`, { token: admin, body: { scope: 'admin' } });
    await t.call('PUT', `/api/auth/users/${fan.id}`, { token: admin, body: { scope: 'user' } });
    expect(
      (await t.call('PUT', `/api/auth/users/${fan.id}/password`, { token: admin, body: { newPassword: 'a-new-secret-42' } }))
        .status,
    ).toBe(200);
    const people = await log(`?user_id=${fan.id}&kind=people`);
    expect(only(people, 'user.update').map((entry) => entry.after)).toEqual([{ scope: 'user' }, { scope: 'admin' }]);
    const password = only(people, 'user.password');
    expect(password).toHaveLength(1);
    expect(JSON.stringify(password)).not.toContain('a-new-secret-42');

    const config = (await t.call('GET', '/api/config', { token: admin })).body.config;
    await t.call('PUT', '/api/config', {
      token: admin,
      body: { team_id: config.team_id, team_name: 'Audit FC', site_title: config.site_title, theme_color: config.theme_color },
    });
    expect(only(await log('?kind=settings'), 'config.update')[0]).toMatchObject({
      before: { team_name: config.team_name },
      after: { team_name: 'Audit FC' },
    });
  });

  it("leaves a member's own changes out, and reads a page at a time", async () => {
    await t.call('PUT', `/api/auth/users/${fan.id}`, { token: fan.token, body: { language: 'en' } });
    expect(only(await log(`?user_id=${fan.id}`), 'user.update').every((entry) => !('language' in (entry.after ?? {})))).toBe(
      true,
    );

    const all = await log();
    const first = await listAudit(t.db, { id: adminId, username: 'admin', scope: 'admin' }, {}, 2);
    expect(first.entries.map((entry) => entry.id)).toEqual(all.slice(0, 2).map((entry) => entry.id));
    const second = await t.callTyped(auditAnswer, 'GET', `/api/audit?before=${encodeURIComponent(first.next!)}`, {
      token: admin,
    });
    expect(second.entries.map((entry) => entry.id)).toEqual(all.slice(2).map((entry) => entry.id));
    expect(second.next).toBeNull();
  });

  it.each([
    ['an unknown kind', '?kind=tickets-and-more', MESSAGES.auditKindInvalid],
    ['a cursor that is none', '?before=yesterday', MESSAGES.auditCursorInvalid],
  ])('refuses %s', async (_label, query, message) => {
    const res = await t.call('GET', `/api/audit${query}`, { token: admin });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});
