import fs from 'node:fs';
import { MESSAGES, SYNC_DECLARATIONS } from '@fankurve/shared';
import { expect } from 'vitest';
import { findAttendeeById } from '../src/domain/attendance/attendeeRows.js';
import { toAttendeeDoc } from '../src/sync/collections/attendees.js';
import { write } from '../src/db/store.js';
import { hashResetToken, issuePasswordReset } from '../src/domain/people/passwordResets.js';
import { register } from '../src/domain/people/accounts.js';
import { prepareNewPassword } from '../src/domain/people/newPassword.js';
import { writeComment, writeMention } from './comment-fixtures.js';
import { ADMIN, createEventVia, IMAGES, signIn, uploadFile } from './helpers.js';

import {
  ADMIN_ONLY,
  CREATED_ADMIN_ONLY,
  CREATED_SIGNED_IN,
  OWNER_OR_ADMIN,
  PUBLIC,
  SIGNED_IN,
  unique,
  type Fixtures,
  type Params,
  type Role,
  type RouteCase,
} from './permission-rows.js';

export * from './permission-rows.js';

/*
 * The permission matrix: one row per route of the app's OpenAPI document (permissions.test.ts
 * checks that the rows and the document match), each with the expected status for every role:
 * anonymous, a member, another member (for owned things a member who is not the owner or creator;
 * otherwise just a second member) and an admin.
 */

const MEMBER = { username: 'perm-member', password: 'member-pass' };
const OTHER = { username: 'perm-other', password: 'member-pass' };
export const FIXTURE_USERS = { member: MEMBER, other: OTHER };
const credentialsOf = (role: Exclude<Role, 'anonymous'>) => ({ member: MEMBER, other: OTHER, admin: ADMIN })[role];
/** A new sign-in (a new session) of a fixture user: its token and session id. */
const signInAs = (f: Fixtures, { username, password }: { username: string; password: string }) => signIn(f.t, username, password);

/** The sync path parameters of a collection at its current schema version. */
const syncParams = (collection: keyof typeof SYNC_DECLARATIONS): Params => ({
  collection,
  version: String(SYNC_DECLARATIONS[collection].schema.version),
});

/** Params that fit every route's path, for the calls that must fail before any lookup (void tokens, pending password change). */
export const sampleParams = (id: string): Params => ({ id, eventId: id, userId: id, ...syncParams('events') });

async function pendingUser(f: Fixtures): Promise<string> {
  const name = unique('pending');
  const res = await f.t.call('POST', '/api/auth/register', {
    body: { username: name, email: `${name}@example.org`, password: 'pending-pass' },
  });
  return res.body.user.id;
}

/** A throwaway account (an admin for the admin role), so calls that end sessions or change passwords spare the standing ones. */
async function freshUser(f: Fixtures, role: Role): Promise<{ id: string; token: string; username: string }> {
  const username = unique(`fresh-${role}-`);
  const m = await f.t.member(username);
  if (role === 'admin') {
    const promoted = await f.t.call('PUT', `/api/auth/users/${m.id}`, { token: f.admin.token, body: { scope: 'admin' } });
    expect(promoted.status).toBe(200);
  }
  return { ...m, username };
}

async function freshAccount(f: Fixtures, role: Role): Promise<string> {
  return (await freshUser(f, role)).token;
}

/** The status of GET /api/auth/profile with a token: 200 while its session lives, 401 once it ended. */
const profileStatus = async (f: Fixtures, token: string) => (await f.t.call('GET', '/api/auth/profile', { token })).status;

/** The standing tokens of the other rows still work. */
async function standingTokensWork(f: Fixtures): Promise<void> {
  for (const who of ['member', 'other', 'admin'] as const) expect(await profileStatus(f, f[who].token), who).toBe(200);
}

/** A fresh event created by the member (so "member" is its creator and "other" is not). */
async function membersEvent(f: Fixtures): Promise<string> {
  return (await createEventVia(f.t, f.member.token, { title: unique('Members event ') + ' (H)' })).id;
}

/** A fresh event the member attends; returns event id, user id and the attendee row id. */
async function attendedEvent(f: Fixtures): Promise<{ eventId: string; userId: string; attendeeId: string }> {
  const eventId = (await createEventVia(f.t, f.admin.token, { title: unique('Attended ') + ' (A)' })).id;
  const res = await f.t.call('POST', `/api/attendance/${eventId}`, { token: f.member.token, body: { status: 'going' } });
  expect(res.status).toBe(200);
  return { eventId, userId: f.member.id, attendeeId: res.body.attendance.id };
}

/** A fresh guest brought by the member. */
async function membersGuest(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/guests', {
    token: f.member.token,
    body: { event_id: f.eventId, guest_name: unique('G') },
  });
  expect(res.status).toBe(201);
  return res.body.guest.id;
}

async function adminsTransport(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/transports', {
    token: f.admin.token,
    body: { event_id: f.eventId, name: unique('Bus '), departure_location: 'Köpenick', is_price_tbd: true },
  });
  expect(res.status).toBe(201);
  return res.body.transport.id;
}

/** A fresh open poll the admin asked; its id and its first option's id. */
async function adminsPoll(f: Fixtures): Promise<Params> {
  const res = await f.t.call('POST', '/api/polls', {
    token: f.admin.token,
    body: { question: unique('Matrix poll ') + '?', options: ['Ja', 'Nein'] },
  });
  expect(res.status).toBe(201);
  return { id: res.body.poll.id, optionId: res.body.options[0].id };
}

/** A fresh manual charge of 2 € the admin books for a fixture user; returns the entry's id. */
async function ledgerCharge(f: Fixtures, role: Exclude<Role, 'anonymous'>): Promise<string> {
  const res = await f.t.call('POST', '/api/ledger/entries', {
    token: f.admin.token,
    body: { user_id: f[role].id, kind: 'charge', amount: 2, note: unique('Matrix charge ') },
  });
  expect(res.status).toBe(201);
  return res.body.entry.id;
}

/** A CAMT.053 statement with one credit of 12.50 € under the bank reference `ref`. */
function statementFile(ref: string) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>
<Ntry><Amt Ccy="EUR">12.50</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2030-01-02</Dt></BookgDt>
<AcctSvcrRef>${ref}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Matrix</Nm></Dbtr></RltdPties>
<RmtInf><Ustrd>Beitrag</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
  return { field: 'file', bytes: new TextEncoder().encode(xml), filename: 'statement.xml', type: 'application/xml' };
}

/** A fresh invite the admin made (approving at once): its id and its token. */
async function adminsInvite(f: Fixtures): Promise<{ id: string; token: string }> {
  const res = await f.t.call('POST', '/api/invites', {
    token: f.admin.token,
    body: { expires_at: new Date(Date.now() + 86_400_000).toISOString(), max_uses: 1, approve: true },
  });
  expect(res.status).toBe(201);
  return { id: res.body.invite.id, token: new URL(res.body.invite.url).searchParams.get('invite')! };
}

/** The club's bank account in the settings (the GiroCode's beneficiary). */
async function clubAccountSet(f: Fixtures): Promise<void> {
  const db = f.t.runtime.deps.store.db;
  for (const [key, value] of [
    ['account_holder', 'Fanclub Eiserne Kurve e.V.'],
    ['iban', 'DE89370400440532013000'],
  ] as const) {
    const stored = await db.selectFrom('settings').select('key').where('key', '=', key).executeTakeFirst();
    if (!stored) await db.insertInto('settings').values({ key, value }).execute();
  }
}

async function adminsStadium(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/stadiums', {
    token: f.admin.token,
    body: { team_name: unique('Team '), stadium_name: 'Arena', city: 'Town' },
  });
  expect(res.status).toBe(201);
  return res.body.stadium.id;
}

async function adminsTicketPrice(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/ticket-prices', {
    token: f.admin.token,
    body: { stadium_id: f.stadiumId, price: 10, ticket_type: unique('Type ') },
  });
  expect(res.status).toBe(201);
  return res.body.ticketPrice.id;
}

/** A fresh away match with a ticket contingent of `tickets`, allocated at once (no deadline). */
async function contingentEvent(f: Fixtures, tickets: number): Promise<string> {
  const eventId = (await createEventVia(f.t, f.admin.token, { title: unique('Kontingent ') + ' (A)', ticket_price: 20 })).id;
  const res = await f.t.call('PUT', `/api/events/${eventId}/contingent`, { token: f.admin.token, body: { tickets } });
  expect(res.status).toBe(200);
  return eventId;
}

/** "Going, needs a ticket" of a user at an event: their attendee row. */
async function needsTicket(f: Fixtures, token: string, eventId: string): Promise<string> {
  const res = await f.t.call('POST', `/api/attendance/${eventId}`, { token, body: { status: 'going', needs_ticket: true } });
  expect(res.status).toBe(200);
  return res.body.attendance.id;
}

/** A returned ticket offered to the member: a fresh holder's ticket of a one-ticket contingent, the member next in line. */
async function offerToMember(f: Fixtures): Promise<Params> {
  const eventId = await contingentEvent(f, 1);
  const holder = await freshUser(f, 'member');
  const ticket = await needsTicket(f, holder.token, eventId);
  const attendeeId = await needsTicket(f, f.member.token, eventId);
  expect((await f.t.call('PUT', `/api/tickets/${ticket}/return`, { token: holder.token })).status).toBe(200);
  const offers = await f.t.call('GET', '/api/tickets/offers/my', { token: f.member.token });
  const offer = offers.body.offers.find((o: { event_id: string }) => o.event_id === eventId);
  expect(offer).toBeDefined();
  return { id: offer.id, attendeeId };
}

/** The member's row back to holding and needing no ticket: no debt is carried into the next calls (the debt block). */
async function noTicketFor(f: Fixtures, attendeeId: string): Promise<void> {
  const res = await f.t.call('PUT', `/api/attendees/${attendeeId}`, {
    token: f.admin.token,
    body: { bought: false, needs_ticket: false },
  });
  expect(res.status).toBe(200);
}

/** An attendee row as its sync document, straight from the database. */
async function attendeeDoc(f: Fixtures, id: string) {
  const row = await findAttendeeById(f.t.runtime.deps.store.db, id);
  expect(row).toBeDefined();
  return toAttendeeDoc(row!);
}

/** A fresh member's bought ticket with an open paid or received request (as the member's device sets it). */
async function requestedTicket(f: Fixtures, kind: 'paid' | 'received'): Promise<string> {
  const fan = await freshUser(f, 'member');
  const res = await f.t.call('POST', `/api/attendance/${f.eventId}`, { token: fan.token, body: { status: 'going' } });
  expect(res.status).toBe(200);
  const id = res.body.attendance.id as string;
  await f.t.runtime.deps.store.db
    .updateTable('attendees')
    .set(
      kind === 'paid'
        ? { bought: 1, paid_requested: 1, paid_requested_at: new Date().toISOString() }
        : { bought: 1, received_requested: 1, received_requested_at: new Date().toISOString() },
    )
    .where('id', '=', id)
    .execute();
  return id;
}

export const ROUTES: RouteCase[] = [
  // meta
  { method: 'GET', path: '/api/version', expect: PUBLIC },
  { method: 'GET', path: '/api/health', expect: PUBLIC },
  { method: 'GET', path: '/api/config', expect: PUBLIC },
  {
    method: 'GET',
    path: '/api/openapi.json',
    notInDocument: 'the document itself',
    plainAnswer: true,
    expect: PUBLIC,
    after: async (f, role, body) => {
      expect(body.openapi).toBe('3.1.0');
    },
  },
  // auth
  {
    method: 'POST',
    path: '/api/auth/register',
    body: () => {
      const name = unique('reg');
      return { username: name, email: `${name}@example.org`, password: 'reg-pass' };
    },
    expect: { anonymous: 201, member: 201, other: 201, admin: 201 },
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    body: (f, role) => (role === 'other' ? OTHER : MEMBER),
    expect: PUBLIC,
  },
  { method: 'GET', path: '/api/auth/profile', passwordChangePending: true, expect: SIGNED_IN },
  {
    method: 'POST',
    path: '/api/auth/change-password',
    body: () => ({ currentPassword: 'member-pass', newPassword: 'changed-pass' }),
    caller: freshAccount,
    passwordChangePending: true,
    expect: SIGNED_IN,
  },
  { method: 'GET', path: '/api/auth/users/pending', adminOnly: true, expect: ADMIN_ONLY },
  {
    method: 'PUT',
    path: '/api/auth/users/{id}/approve',
    params: async (f) => ({ id: await pendingUser(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      if (role === 'admin') expect(body.user.status).toBe('active');
      const stored = await f.t.runtime.deps.store.db
        .selectFrom('users')
        .select('status')
        .where('id', '=', params.id!)
        .executeTakeFirstOrThrow();
      expect(stored.status).toBe(role === 'admin' ? 'active' : 'pending');
    },
  },
  {
    method: 'DELETE',
    path: '/api/auth/users/{id}',
    // The member tries to delete themselves, another member tries the member; the admin declines a registration.
    params: async (f, role) => ({ id: role === 'member' || role === 'other' ? f.member.id : await pendingUser(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f) => {
      // Neither the member nor another member removed the member.
      expect(await profileStatus(f, f.member.token)).toBe(200);
    },
  },
  {
    method: 'PUT',
    path: '/api/auth/users/{id}',
    body: () => ({ language: 'en' }),
    params: async (f) => ({ id: f.member.id }),
    expect: { anonymous: 401, member: 200, other: 403, admin: 200 },
    after: async (f, role, body) => {
      if (role === 'other') expect(body.message).toBe(MESSAGES.adminRequired);
      if (role === 'member' || role === 'admin') expect(body.user).toMatchObject({ id: f.member.id, language: 'en' });
      const stored = await f.t.runtime.deps.store.db
        .selectFrom('users')
        .select('language')
        .where('id', '=', f.member.id)
        .executeTakeFirstOrThrow();
      expect(stored.language).toBe(role === 'member' || role === 'admin' ? 'en' : 'de');
      // reset for the next caller
      await f.t.call('PUT', `/api/auth/users/${f.member.id}`, { token: f.admin.token, body: { language: 'de' } });
    },
  },
  // auth: sessions (each call signs in afresh, so the standing tokens of the other rows live on)
  {
    method: 'POST',
    path: '/api/auth/logout',
    caller: async (f, role) => (await signInAs(f, credentialsOf(role as Exclude<Role, 'anonymous'>))).token,
    passwordChangePending: true,
    expect: SIGNED_IN,
    after: async (f, role, body, { token }) => {
      if (role !== 'anonymous') expect(await profileStatus(f, token!)).toBe(401);
      await standingTokensWork(f);
    },
  },
  {
    method: 'GET',
    path: '/api/auth/sessions',
    params: async (f, role): Promise<Params> => {
      if (role === 'anonymous') return {};
      const foreign = await signInAs(f, role === 'member' ? OTHER : MEMBER);
      return { own: (await signInAs(f, credentialsOf(role))).sessionId, foreign: foreign.sessionId };
    },
    expect: SIGNED_IN,
    after: async (f, role, body, { params }) => {
      if (role === 'anonymous') return;
      const ids = body.sessions.map((s: { id: string }) => s.id);
      expect(ids).toContain(params.own);
      expect(ids).not.toContain(params.foreign);
    },
  },
  {
    method: 'DELETE',
    path: '/api/auth/sessions/{id}',
    // A fresh session of the member: the member ends it; another member and the admin cannot (sessions are personal).
    params: async (f) => {
      const session = await signInAs(f, MEMBER);
      return { id: session.sessionId, sessionToken: session.token };
    },
    expect: { anonymous: 401, member: 200, other: 404, admin: 404 },
    after: async (f, role, body, { params }) => {
      if (role === 'other' || role === 'admin') expect(body.message).toBe(MESSAGES.sessionNotFound);
      expect(await profileStatus(f, params.sessionToken!)).toBe(role === 'member' ? 401 : 200);
      await standingTokensWork(f);
    },
  },
  {
    method: 'POST',
    path: '/api/auth/sessions/end-others',
    // A throwaway account signed in twice: the call from one session ends the other.
    params: async (f, role) => {
      const user = await freshUser(f, role);
      const second = await signInAs(f, { username: user.username, password: 'member-pass' });
      return { callerToken: user.token, secondToken: second.token };
    },
    caller: async (f, role, params) => params.callerToken!,
    expect: SIGNED_IN,
    after: async (f, role, body, { params }) => {
      expect(await profileStatus(f, params.secondToken!)).toBe(role === 'anonymous' ? 200 : 401);
      expect(await profileStatus(f, params.callerToken!)).toBe(200);
      await standingTokensWork(f);
    },
  },
  // events
  { method: 'GET', path: '/api/events', expect: SIGNED_IN },
  { method: 'GET', path: '/api/events/{id}', params: async (f) => ({ id: f.eventId }), expect: SIGNED_IN },
  {
    method: 'POST',
    path: '/api/events',
    body: () => ({ title: unique('Matrix match ') + ' (H)', date: '2031-05-01 15:30', location: 'Berlin' }),
    expect: CREATED_SIGNED_IN,
  },
  // attendance
  {
    method: 'POST',
    path: '/api/attendance/{eventId}',
    body: () => ({ status: 'going' }),
    params: async (f) => ({ eventId: f.eventId }),
    expect: SIGNED_IN,
  },
  {
    method: 'DELETE',
    path: '/api/attendance/{eventId}',
    params: async (f, role) => {
      // A fresh event the member (or the admin) attends; another member has no row there to remove and cannot touch the member's.
      const eventId = (await createEventVia(f.t, f.admin.token, { title: unique('Leave ') + ' (A)' })).id;
      const owner = role === 'admin' ? f.admin.token : f.member.token;
      expect((await f.t.call('POST', `/api/attendance/${eventId}`, { token: owner, body: { status: 'going' } })).status).toBe(
        200,
      );
      return { eventId };
    },
    expect: { anonymous: 401, member: 200, other: 404, admin: 200 },
    after: async (f, role, body, { params }) => {
      const attendees = (await f.t.call('GET', `/api/events/${params.eventId}`, { token: f.admin.token })).body.attendees;
      const owner = role === 'admin' ? f.admin.id : f.member.id;
      expect(attendees.some((a: { user_id: string }) => a.user_id === owner)).toBe(role === 'anonymous' || role === 'other');
    },
  },
  {
    method: 'GET',
    path: '/api/attendance/my',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role === 'member' || role === 'other') {
        expect(body.attendance.every((a: { user_id: string }) => a.user_id === f[role].id)).toBe(true);
      }
    },
  },
  // events: edit, delete, image, badge
  {
    method: 'PUT',
    path: '/api/events/{id}',
    body: () => ({ title: unique('Edited ') + ' (H)' }),
    params: async (f) => ({ id: await membersEvent(f) }),
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'DELETE',
    path: '/api/events/{id}',
    params: async (f) => ({ id: await membersEvent(f) }),
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'POST',
    path: '/api/events/{id}/image',
    upload: true,
    params: async (f) => ({ id: await membersEvent(f) }),
    expect: OWNER_OR_ADMIN,
    after: async (f, role, body) => {
      if (role === 'member' || role === 'admin') expect(body.filename).toMatch(/\.png$/);
    },
  },
  {
    method: 'DELETE',
    path: '/api/events/{id}/image',
    params: async (f) => {
      const id = await membersEvent(f);
      expect((await uploadFile(f.t, `/api/events/${id}/image`, { token: f.member.token, bytes: IMAGES.png })).status).toBe(200);
      return { id };
    },
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'PUT',
    path: '/api/events/{id}/clear-updated',
    params: async (f) => {
      const id = await membersEvent(f);
      await f.t.runtime.deps.store.db.updateTable('events').set({ is_updated: 1 }).where('id', '=', id).execute();
      return { id };
    },
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.event.is_updated).toBe(false);
    },
  },
  {
    method: 'GET',
    path: '/api/events/{id}/reminders',
    // Who was reminded to answer: the admin's alone, also for the event's creator.
    params: async (f) => ({ id: await membersEvent(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (_f, role, body) => {
      if (role === 'admin') expect(body.reminders).toEqual([]);
    },
  },
  {
    method: 'GET',
    path: '/api/events/{id}/unanswered',
    // Who has not answered: the admin's alone, also for the event's creator.
    params: async (f) => ({ id: await membersEvent(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.members.map((m: { user_id: string }) => m.user_id)).toContain(f.other.id);
    },
  },
  {
    method: 'POST',
    path: '/api/events/{id}/reminders',
    // Remind now: the admin's alone, also for the event's creator; a member's try reminds nobody.
    body: () => ({}),
    params: async (f) => ({ id: await membersEvent(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      const rows = await f.t.db.selectFrom('event_reminders').select('user_id').where('event_id', '=', params.id!).execute();
      if (role !== 'admin') expect(rows).toEqual([]);
      else expect(body).toMatchObject({ success: true, reminded: expect.any(Array), skipped: expect.any(Array) });
    },
  },
  // the admin's attendee table
  {
    method: 'POST',
    path: '/api/events/{id}/attendees',
    body: (f) => ({ user_id: f.other.id }),
    params: async (f) => ({ id: (await createEventVia(f.t, f.admin.token, { title: unique('Add ') })).id }),
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/attendance/{eventId}/user/{userId}',
    params: async (f) => attendedEvent(f),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/attendance/{eventId}/user/{userId}/transfer-status',
    body: () => ({ transfer_status: 'reserved' }),
    params: async (f) => attendedEvent(f),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/attendees/{attendeeId}',
    body: () => ({ bought: true, price: 12.5 }),
    params: async (f) => attendedEvent(f),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.attendance).toMatchObject({ bought: true, price: 12.5 });
      // reset, so the member carries no debt into the next calls (the debt block)
      if (role === 'admin')
        await f.t.call('PUT', `/api/attendees/${body.attendance.id}`, { token: f.admin.token, body: { bought: false } });
    },
  },
  {
    method: 'PUT',
    path: '/api/tickets/event/{eventId}/user/{userId}/status',
    body: () => ({ received: true }),
    params: async (f) => attendedEvent(f),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  // guests
  {
    method: 'POST',
    path: '/api/guests',
    body: (f) => ({ event_id: f.eventId, guest_name: unique('Guest ') }),
    expect: CREATED_SIGNED_IN,
  },
  {
    method: 'PUT',
    path: '/api/guests/{id}',
    body: () => ({ guest_name: unique('Renamed ') }),
    params: async (f) => ({ id: await membersGuest(f) }),
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'DELETE',
    path: '/api/guests/{id}',
    params: async (f) => ({ id: await membersGuest(f) }),
    expect: OWNER_OR_ADMIN,
  },
  // transports
  { method: 'GET', path: '/api/transports/event/{eventId}', params: async (f) => ({ eventId: f.eventId }), expect: SIGNED_IN },
  // lists for the day (CSV, admin): the file itself, not the JSON envelope
  ...(['tickets', 'transport'] as const).map((kind): RouteCase => ({
    method: 'GET',
    path: `/api/events/{id}/export/${kind}.csv`,
    params: async (f) => ({ id: f.eventId }),
    adminOnly: true,
    plainAnswer: true,
    expect: ADMIN_ONLY,
    after: async (_f, role, body) => {
      // The header line (the text decoder has taken the BOM off; exports.test.ts reads the bytes).
      if (role === 'admin') expect(body).toMatch(/^(Name|Transport);[^\r\n]*\r\n/);
    },
  })),
  // the members' private calendar feed: the address over the session, the feed by the address alone
  {
    method: 'GET',
    path: '/api/calendar',
    expect: SIGNED_IN,
    after: async (_f, role, body) => {
      if (role !== 'anonymous') expect(body.url).toMatch(/\/api\/calendar\/[\w-]+\.ics$/);
    },
  },
  {
    method: 'POST',
    path: '/api/calendar/rotate',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role !== 'anonymous') expect((await f.t.call('GET', new URL(body.url).pathname)).status).toBe(200);
    },
  },
  {
    method: 'GET',
    path: '/api/calendar/{file}',
    // The member's feed, whoever calls: the address is the only key, a session adds nothing.
    params: async (f) => {
      const res = await f.t.call('GET', '/api/calendar', { token: f.member.token });
      return { file: new URL(res.body.url).pathname.split('/').pop()! };
    },
    plainAnswer: true,
    expect: PUBLIC,
    after: async (_f, _role, body) => {
      expect(body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    },
  },
  {
    method: 'POST',
    path: '/api/transports',
    body: (f) => ({ event_id: f.eventId, name: 'Matrix bus', departure_location: 'Köpenick', price_per_seat: 20 }),
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/transports/{id}',
    body: () => ({ name: unique('Renamed bus ') }),
    params: async (f) => ({ id: await adminsTransport(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/transports/{id}',
    params: async (f) => ({ id: await adminsTransport(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  // polls: every member reads and votes, admins ask, change and delete
  {
    method: 'GET',
    path: '/api/polls',
    params: async (f) => adminsPoll(f),
    expect: SIGNED_IN,
    after: async (_f, role, body, { params }) => {
      if (role !== 'anonymous') expect(body.polls.some((p: { id: string }) => p.id === params.id)).toBe(true);
    },
  },
  {
    method: 'GET',
    path: '/api/polls/{id}',
    params: async (f) => adminsPoll(f),
    expect: SIGNED_IN,
    after: async (_f, role, body) => {
      // Before any vote only an admin sees the counts.
      if (role === 'member' || role === 'other')
        expect(body.options.map((o: { votes: unknown }) => o.votes)).toEqual([null, null]);
      if (role === 'admin') expect(body.options.map((o: { votes: unknown }) => o.votes)).toEqual([0, 0]);
    },
  },
  {
    method: 'POST',
    path: '/api/polls',
    body: (f) => ({ question: 'Matrix poll?', options: ['Ja', 'Nein', 'Vielleicht'], multiple: true, event_id: f.eventId }),
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/polls/{id}',
    body: () => ({ question: unique('Renamed poll ') + '?' }),
    params: async (f) => adminsPoll(f),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/polls/{id}',
    params: async (f) => adminsPoll(f),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/polls/{id}/vote',
    body: (_f, _role, params) => ({ option_ids: [params.optionId] }),
    params: async (f) => adminsPoll(f),
    expect: SIGNED_IN,
    after: async (f, role, body, { params }) => {
      if (role === 'anonymous') return;
      expect(body.my_votes).toEqual([params.optionId]);
      // Each caller changed only their own vote: the standing member has none in this poll unless it was them.
      const mine = await f.t.call('GET', `/api/polls/${params.id}`, { token: f.member.token });
      expect(mine.body.my_votes).toEqual(role === 'member' ? [params.optionId] : []);
    },
  },
  // loyalty
  {
    method: 'GET',
    path: '/api/loyalty',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role !== 'anonymous') expect(body.ranking.some((r: { user_id: string }) => r.user_id === f.member.id)).toBe(true);
    },
  },
  {
    method: 'GET',
    path: '/api/loyalty/my',
    expect: SIGNED_IN,
    after: async (_f, role, body) => {
      if (role !== 'anonymous') expect(body.place).toBeGreaterThanOrEqual(1);
    },
  },
  { method: 'GET', path: '/api/loyalty/adjustments', adminOnly: true, expect: ADMIN_ONLY },
  {
    method: 'PUT',
    path: '/api/loyalty/{userId}/adjustment',
    body: (_f, role) => ({ points: role === 'admin' ? 3 : 999, note: 'Matrix adjustment' }),
    params: async (f) => ({ userId: f.member.id }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      const row = await f.t.runtime.deps.store.db
        .selectFrom('loyalty_adjustments')
        .select('points')
        .where('user_id', '=', params.userId!)
        .executeTakeFirst();
      // Only an admin's call sets it; the members' 999 is never stored.
      expect(row?.points).not.toBe(999);
      if (role === 'admin') expect(body.row.user_id).toBe(params.userId);
    },
  },
  // statistics: every member's figures of the current season, for every signed-in member
  {
    method: 'GET',
    path: '/api/stats',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role === 'anonymous') return;
      const ids = body.members.map((row: { user_id: string }) => row.user_id);
      for (const id of [f.member.id, f.other.id, f.admin.id]) expect(ids).toContain(id);
    },
  },
  // ledger
  {
    method: 'GET',
    path: '/api/ledger/my',
    // The caller owes a fresh charge: their own statement shows it, nobody else's.
    params: async (f, role) => ({ entryId: role === 'anonymous' ? '' : await ledgerCharge(f, role) }),
    expect: SIGNED_IN,
    after: async (_f, role, body, { params }) => {
      if (role !== 'anonymous') expect(body.entries.map((e: { id: string }) => e.id)).toContain(params.entryId);
    },
  },
  {
    method: 'GET',
    path: '/api/ledger/my/payment',
    // The caller owes something and the club has an account: the transfer is the caller's balance.
    params: async (f, role) => {
      await clubAccountSet(f);
      return { entryId: role === 'anonymous' ? '' : await ledgerCharge(f, role) };
    },
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role === 'anonymous') return;
      const mine = await f.t.call('GET', '/api/ledger/my', { token: f[role].token });
      expect(body.amount).toBe(mine.body.balance);
      expect(body.epc).toContain('DE89370400440532013000');
    },
  },
  {
    method: 'GET',
    path: '/api/ledger',
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.members.some((m: { user_id: string }) => m.user_id === f.member.id)).toBe(true);
    },
  },
  {
    method: 'GET',
    path: '/api/ledger/members/{userId}',
    // Even the member's own statement is the admins' route; the member reads theirs at /api/ledger/my.
    params: async (f) => ({ userId: f.member.id, entryId: await ledgerCharge(f, 'member') }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (_f, role, body, { params }) => {
      if (role === 'admin') expect(body.entries.map((e: { id: string }) => e.id)).toContain(params.entryId);
    },
  },
  // the audit log: admins only; an admin's booking for the member is in it, a member reads nothing of it
  {
    method: 'GET',
    path: '/api/audit',
    params: async (f) => ({ entryId: await ledgerCharge(f, 'member') }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      if (role !== 'admin') {
        expect(body.entries).toBeUndefined();
        return;
      }
      expect(body.entries).toContainEqual(
        expect.objectContaining({ action: 'ledger.entry', user_id: f.member.id, entity_id: params.entryId }),
      );
    },
  },
  // the season's accounts: the treasurer's report, admins only (a member learns nothing of the money)
  {
    method: 'GET',
    path: '/api/ledger/accounts',
    // A fresh charge of today: the current season's report counts it.
    params: async (f) => ({ entryId: await ledgerCharge(f, 'member') }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (_f, role, body) => {
      if (role !== 'admin') {
        expect(body.accounts).toBeUndefined();
        return;
      }
      expect(body.accounts.other[0].kind).toBe('charge');
      expect(body.accounts.other[0].entries).toBeGreaterThan(0);
    },
  },
  {
    method: 'POST',
    path: '/api/ledger/entries',
    body: (f, role) => ({
      user_id: f.member.id,
      kind: 'charge',
      amount: role === 'admin' ? 3 : 999,
      date: '2030-01-02',
      note: 'Matrix',
    }),
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
    after: async (f, role, body) => {
      const refused = await f.t.runtime.deps.store.db
        .selectFrom('ledger')
        .select('id')
        .where('amount_cents', '=', 99900)
        .executeTakeFirst();
      // Only an admin's call books; the members' 999 € is never stored.
      expect(refused).toBeUndefined();
      if (role === 'admin') expect(body.entry).toMatchObject({ user_id: f.member.id, kind: 'charge', amount: 3 });
    },
  },
  {
    method: 'POST',
    path: '/api/ledger/entries/{id}/reverse',
    params: async (f) => ({ id: await ledgerCharge(f, 'member') }),
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      const reversals = await f.t.runtime.deps.store.db
        .selectFrom('ledger')
        .select('id')
        .where('reverses_id', '=', params.id!)
        .execute();
      expect(reversals).toHaveLength(role === 'admin' ? 1 : 0);
      if (role === 'admin') expect(body.entry.reverses_id).toBe(params.id);
    },
  },
  // bulk charges
  {
    method: 'POST',
    path: '/api/ledger/charges',
    body: (f, role) => ({ target: { all_members: true }, amount: role === 'admin' ? 2 : 777, note: unique('Matrix bulk ') }),
    adminOnly: true,
    plainAnswer: true,
    expect: CREATED_ADMIN_ONLY,
    after: async (f, role, body) => {
      const refused = await f.t.runtime.deps.store.db
        .selectFrom('ledger')
        .select('id')
        .where('amount_cents', '=', 77700)
        .executeTakeFirst();
      // Only an admin's call charges; the members' 777 € is never booked.
      expect(refused).toBeUndefined();
      if (role === 'admin') expect(body.entries.length).toBeGreaterThan(0);
    },
  },
  {
    method: 'POST',
    path: '/api/ledger/charges/{id}/reverse',
    params: async (f) => {
      const res = await f.t.call('POST', '/api/ledger/charges', {
        token: f.admin.token,
        body: { target: { all_members: true }, amount: 1, note: unique('Matrix reverse ') },
      });
      expect(res.status).toBe(201);
      return { id: res.body.id };
    },
    adminOnly: true,
    plainAnswer: true,
    expect: CREATED_ADMIN_ONLY,
    after: async (f, role, _body, { params }) => {
      const charge = await f.t.runtime.deps.store.db
        .selectFrom('bulk_charges')
        .select('reversed_at')
        .where('id', '=', params.id!)
        .executeTakeFirstOrThrow();
      expect(charge.reversed_at === null).toBe(role !== 'admin');
    },
  },
  // bank statements
  {
    method: 'POST',
    path: '/api/ledger/statements',
    uploadFile: () => statementFile(unique('MATRIX-IMPORT-')),
    adminOnly: true,
    plainAnswer: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin')
        expect(body.statement).toMatchObject({ format: 'camt.053', lines: [expect.objectContaining({ amount: 12.5 })] });
      else expect(body.statement).toBeUndefined();
    },
  },
  {
    method: 'POST',
    path: '/api/ledger/statements/{id}/book',
    params: async (f) => {
      const kept = await uploadFile(f.t, '/api/ledger/statements', {
        token: f.admin.token,
        ...statementFile(unique('MATRIX-BOOK-')),
      });
      expect(kept.status).toBe(200);
      return { id: kept.body.statement.id };
    },
    body: (f) => ({ lines: [{ line_id: '1', user_id: f.member.id }] }),
    adminOnly: true,
    plainAnswer: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      const booked = await f.t.runtime.deps.store.db
        .selectFrom('bank_payments')
        .select('bank_ref')
        .where('statement_id', '=', params.id!)
        .execute();
      // Only an admin's call books the line.
      expect(booked).toHaveLength(role === 'admin' ? 1 : 0);
      if (role === 'admin') expect(body).toEqual({ booked: 1, duplicates: 0 });
    },
  },
  // stadiums and ticket prices
  {
    method: 'GET',
    path: '/api/stadiums',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role !== 'anonymous') expect(body.stadiums.some((s: { id: string }) => s.id === f.stadiumId)).toBe(true);
    },
  },
  { method: 'GET', path: '/api/stadiums/{id}', params: async (f) => ({ id: f.stadiumId }), adminOnly: true, expect: ADMIN_ONLY },
  {
    method: 'POST',
    path: '/api/stadiums',
    body: () => ({ team_name: unique('New team '), stadium_name: 'Arena', city: 'Town' }),
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/stadiums/{id}',
    body: () => ({ capacity: 1000 }),
    params: async (f) => ({ id: await adminsStadium(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/stadiums/{id}',
    params: async (f) => ({ id: await adminsStadium(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'GET',
    path: '/api/ticket-prices/stadium/{stadiumId}',
    params: async (f) => ({ stadiumId: f.stadiumId }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'POST',
    path: '/api/ticket-prices',
    body: (f) => ({ stadium_id: f.stadiumId, price: 15, ticket_type: unique('Matrix ') }),
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/ticket-prices/{id}',
    params: async (f) => ({ id: await adminsTicketPrice(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  // sync
  {
    method: 'POST',
    path: '/api/sync/{collection}/{version}/pull',
    params: async () => syncParams('events'),
    body: () => ({ checkpoint: null, limit: 1000 }),
    plainAnswer: true,
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role === 'anonymous') return;
      expect(body.checkpoint.seq).toBeGreaterThan(0);
      expect(body.documents.some((d: { id: string }) => d.id === f.eventId)).toBe(true);
    },
  },
  {
    method: 'POST',
    path: '/api/sync/{collection}/{version}/push',
    // Every role pushes a change to the member's own attendance row (going → maybe). Only the
    // member's is applied; a refused row still answers 200 with the server's document and a notice.
    params: async (f) => ({ ...syncParams('attendees'), ...(await attendedEvent(f)) }),
    body: (f, role, params) => {
      if (!params.attendeeId) return [];
      return attendeeDoc(f, params.attendeeId).then((master) => [
        { assumedMasterState: master, newDocumentState: { ...master, status: 'maybe' } },
      ]);
    },
    plainAnswer: true,
    expect: SIGNED_IN,
    after: async (f, role, body, { params, sent }) => {
      const master = (sent as { assumedMasterState: Awaited<ReturnType<typeof attendeeDoc>> }[])[0]!.assumedMasterState;
      const now = await attendeeDoc(f, params.attendeeId!);
      if (role === 'member') {
        expect(now).toMatchObject({ status: 'maybe', user_id: f.member.id, _deleted: false });
        expect(now.seq).toBeGreaterThan(master.seq);
        return;
      }
      // Not applied: the row is as it was, seq included.
      expect(now).toEqual(master);
      if (role === 'anonymous') return;
      expect(body).toEqual([expect.objectContaining({ id: master.id, status: 'going', _deleted: false })]);
      const notices = await f.t.runtime.deps.store.db
        .selectFrom('notices')
        .select(['code', 'action'])
        .where('user_id', '=', f[role].id)
        .where('event_id', '=', params.eventId!)
        .execute();
      expect(notices).toEqual([{ code: 'forbidden', action: 'attendance.change' }]);
    },
  },
  {
    method: 'GET',
    path: '/api/sync/{collection}/{version}/events/{eventId}',
    // Every signed-in role reads every row of an event (docs/architecture.md, What a device keeps).
    params: async (f) => ({ ...syncParams('attendees'), ...(await attendedEvent(f)) }),
    plainAnswer: true,
    expect: SIGNED_IN,
    after: async (_f, role, body, { params }) => {
      if (role === 'anonymous') return;
      expect(body.documents.map((d: { id: string }) => d.id)).toEqual([params.attendeeId]);
    },
  },
  {
    method: 'GET',
    path: '/api/sync/stream',
    stream: true,
    plainAnswer: true,
    expect: SIGNED_IN,
  },
  // ── money rows (my tickets, debts) ──
  { method: 'GET', path: '/api/tickets/my', expect: SIGNED_IN },
  { method: 'GET', path: '/api/tickets/debts', adminOnly: true, expect: ADMIN_ONLY },
  ...(['paid', 'received'] as const).map((kind): RouteCase => ({
    method: 'PUT',
    path: `/api/tickets/{id}/request-${kind}`,
    // A fresh bought ticket of the member; only its debtor may request (admins accept, they do not request).
    params: async (f) => {
      const { attendeeId } = await attendedEvent(f);
      const bought = await f.t.call('PUT', `/api/attendees/${attendeeId}`, {
        token: f.admin.token,
        body: { bought: true, price: 5 },
      });
      expect(bought.status).toBe(200);
      return { id: attendeeId };
    },
    expect: { anonymous: 401, member: 200, other: 403, admin: 403 },
    after: async (f, role, _body, { params }) => {
      const doc = await attendeeDoc(f, params.id!);
      expect(doc[`${kind}_requested`]).toBe(role === 'member');
      // reset, so the member carries no debt into the next calls (the debt block)
      await f.t.call('PUT', `/api/attendees/${params.id}`, { token: f.admin.token, body: { bought: false } });
    },
  })),
  // ── admin rows (tasks, users) ──
  { method: 'GET', path: '/api/admin/pending-users', adminOnly: true, expect: ADMIN_ONLY },
  { method: 'GET', path: '/api/admin/pending-paid-requests', adminOnly: true, expect: ADMIN_ONLY },
  { method: 'GET', path: '/api/admin/pending-received-requests', adminOnly: true, expect: ADMIN_ONLY },
  {
    method: 'GET',
    path: '/api/admin/pending-tasks-count',
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.totalCount).toEqual(expect.any(Number));
    },
  },
  ...(['paid', 'received'] as const).map((kind): RouteCase => ({
    method: 'PUT',
    path: `/api/admin/accept-${kind}-request/{id}`,
    // A fresh member's bought ticket with an open request; only the admin settles it.
    params: async (f) => ({ id: await requestedTicket(f, kind) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      const row = await findAttendeeById(f.t.runtime.deps.store.db, params.id!);
      const done = role === 'admin' ? 1 : 0;
      expect(kind === 'paid' ? [row!.paid, row!.paid_requested] : [row!.received, row!.received_requested]).toEqual([
        done,
        1 - done,
      ]);
    },
  })),
  { method: 'GET', path: '/api/auth/users', adminOnly: true, expect: ADMIN_ONLY },
  { method: 'GET', path: '/api/auth/users/all', adminOnly: true, expect: ADMIN_ONLY },
  {
    method: 'GET',
    path: '/api/auth/users/{id}',
    // The member asks for themselves, another member for the member.
    params: async (f) => ({ id: f.member.id }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.user).toMatchObject({ id: f.member.id, unpaid_count: expect.any(Number) });
    },
  },
  {
    method: 'POST',
    path: '/api/auth/users',
    body: () => {
      const username = unique('created-');
      return { username, email: `${username}@example.org` };
    },
    adminOnly: true,
    expect: CREATED_ADMIN_ONLY,
    after: async (f, role, body, { sent }) => {
      const stored = await f.t.runtime.deps.store.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', (sent as { username: string }).username)
        .execute();
      expect(stored.length).toBe(role === 'admin' ? 1 : 0);
      if (role === 'admin') expect(body.temporaryPassword).toEqual(expect.any(String));
    },
  },
  {
    method: 'PUT',
    path: '/api/auth/users/{id}/password',
    // A throwaway member each time: the admin's call ends that member's sessions.
    params: async (f, role): Promise<Params> => {
      if (role === 'anonymous') return { id: f.member.id };
      const target = await freshUser(f, 'member');
      return { id: target.id, token: target.token };
    },
    body: () => ({ newPassword: 'set-by-admin' }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      if (role === 'anonymous') return;
      expect(await profileStatus(f, params.token!)).toBe(role === 'admin' ? 401 : 200);
      await standingTokensWork(f);
    },
  },
  // ── member import and data export (docs/architecture.md, Member import; Data export) ──
  {
    method: 'POST',
    path: '/api/users/import',
    // A confirmed import of one fresh row each call: only the admin's creates it.
    body: () => {
      const username = unique('imported-');
      return { csv: `Benutzername;E-Mail\n${username};${username}@example.org`, confirm: true };
    },
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body, { sent }) => {
      const username = /\n([^;]+);/.exec((sent as { csv: string }).csv)![1]!;
      const stored = await f.t.db.selectFrom('users').select('id').where('username', '=', username).execute();
      expect(stored.length).toBe(role === 'admin' ? 1 : 0);
      if (role === 'admin') expect(body.created).toBe(1);
    },
  },
  {
    method: 'GET',
    path: '/api/me/export',
    plainAnswer: true,
    expect: SIGNED_IN,
  },
  {
    method: 'GET',
    path: '/api/users/{id}/export',
    // The member's archive: the member themselves and another member are refused, the admin gets it.
    params: async (f) => ({ id: f.member.id }),
    plainAnswer: true,
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'POST',
    path: '/api/me/erase',
    // Each caller erases a throwaway account of its own (an admin's, for the admin), never a standing one.
    body: () => ({ password: 'member-pass' }),
    caller: freshAccount,
    expect: SIGNED_IN,
    after: async (f, role, body, { token }) => {
      if (role !== 'anonymous') {
        expect(body.message).toBe(MESSAGES.accountErased);
        expect(await profileStatus(f, token!)).toBe(401);
      }
      await standingTokensWork(f);
    },
  },
  { method: 'GET', path: '/api/auth/users/erased', adminOnly: true, expect: ADMIN_ONLY },
  // ── recovery rows (password reset) ──
  {
    method: 'POST',
    path: '/api/auth/forgot-password',
    // An address without an account: the answer is the same for every caller and every address.
    body: () => ({ email: `${unique('nobody')}@example.org` }),
    expect: PUBLIC,
    after: async (f, role, body) => {
      expect(body.message).toBe(MESSAGES.resetLinkSent);
    },
  },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    // A fresh account with a fresh token per call (written directly: no admin needed), so every call can succeed.
    body: async (f) => {
      const name = unique('reset');
      const password = await prepareNewPassword('before-reset');
      const token = await write(f.t.runtime.deps.store, async (w) => {
        await register(w, { username: name, email: `${name}@example.org`, password: 'before-reset' }, password);
        return (await issuePasswordReset(w, `${name}@example.org`))!.token;
      });
      return { token, newPassword: 'after-reset' };
    },
    expect: PUBLIC,
    after: async (f, role, body, { sent }) => {
      const row = await f.t.runtime.deps.store.db
        .selectFrom('password_resets')
        .select('used')
        .where('token_hash', '=', hashResetToken((sent as { token: string }).token))
        .executeTakeFirstOrThrow();
      expect(Number(row.used)).toBe(1);
      await standingTokensWork(f);
    },
  },
  // ── comment rows (comments, mentions) ──
  {
    method: 'POST',
    path: '/api/comments/event/{eventId}',
    params: async (f) => ({ eventId: f.eventId }),
    body: () => ({ comment: unique('Matrix comment '), requires_answer: false }),
    expect: CREATED_SIGNED_IN,
    after: async (f, role, body) => {
      if (role !== 'anonymous') expect(body.comment).toMatchObject({ user_id: f[role].id, event_id: f.eventId });
    },
  },
  { method: 'GET', path: '/api/comments/event/{eventId}', params: async (f) => ({ eventId: f.eventId }), expect: SIGNED_IN },
  { method: 'GET', path: '/api/comments/pending', adminOnly: true, expect: ADMIN_ONLY },
  ...(
    [
      // The member's own fresh comment: only its author edits the text (admins neither).
      ['PUT', '/api/comments/{id}', {}, { anonymous: 401, member: 200, other: 403, admin: 403 }],
      ['DELETE', '/api/comments/{id}', {}, { anonymous: 401, member: 200, other: 403, admin: 200 }],
      ['PUT', '/api/comments/{id}/resolve', {}, { anonymous: 401, member: 200, other: 403, admin: 200 }],
      [
        'PUT',
        '/api/comments/{id}/unresolve',
        { requiresAnswer: true, resolved: true },
        { anonymous: 401, member: 200, other: 403, admin: 200 },
      ],
      ['PUT', '/api/comments/{id}/toggle-requires-answer', {}, { anonymous: 401, member: 200, other: 403, admin: 200 }],
    ] as const
  ).map(([method, path, state, expected]): RouteCase => ({
    method,
    path,
    params: async (f) => ({
      id: await writeComment(f.t, f.member, FIXTURE_USERS.member.username, f.eventId, { text: 'Matrix', ...state }),
    }),
    body: method === 'PUT' && path === '/api/comments/{id}' ? () => ({ comment: 'Edited in the matrix' }) : undefined,
    expect: expected,
    after: async (f, role, body, { params }) => {
      if (role === 'other' || (role === 'admin' && expected.admin === 403)) expect(body.message).toBe(MESSAGES.commentNotAllowed);
      const row = await f.t.runtime.deps.store.db
        .selectFrom('comments')
        .selectAll()
        .where('id', '=', params.id!)
        .executeTakeFirstOrThrow();
      const changed = expected[role] === 200;
      if (path === '/api/comments/{id}' && method === 'PUT')
        expect(row.comment).toBe(changed ? 'Edited in the matrix' : 'Matrix');
      if (method === 'DELETE') expect(row.deleted).toBe(changed ? 1 : 0);
      if (path.endsWith('/resolve')) expect(row.is_resolved).toBe(changed ? 1 : 0);
      if (path.endsWith('/unresolve')) expect(row.is_resolved).toBe(changed ? 0 : 1);
      if (path.endsWith('/toggle-requires-answer')) expect(row.requires_answer).toBe(changed ? 1 : 0);
    },
  })),
  ...(['/api/comments/mentions', '/api/comments/mentions/count', '/api/comments/mentions/by-event'] as const).map(
    (path): RouteCase => ({
      method: 'GET',
      path,
      // A fresh unread mention of the member: only the member's answers show it.
      params: async (f) => ({
        mentionId: await writeMention(
          f.t,
          f.other,
          FIXTURE_USERS.other.username,
          f.member,
          FIXTURE_USERS.member.username,
          f.eventId,
        ),
      }),
      expect: SIGNED_IN,
      after: async (f, role, body, { params }) => {
        if (role === 'anonymous') return;
        if (path === '/api/comments/mentions') {
          const ids = body.mentions.map((m: { mention_id: string }) => m.mention_id);
          expect(ids.includes(params.mentionId)).toBe(role === 'member');
        } else if (path === '/api/comments/mentions/count') {
          expect(body.count > 0).toBe(role === 'member');
        } else {
          expect(Boolean(body.counts[f.eventId])).toBe(role === 'member');
        }
        // reset: the member's mentions read again, so the next call starts from none
        await f.t.call('PUT', '/api/comments/mentions/read-all', { token: f.member.token });
      },
    }),
  ),
  {
    method: 'PUT',
    path: '/api/comments/mentions/{id}/read',
    // The member's fresh mention; mentions are personal, so another member and the admin do not find it.
    params: async (f) => ({
      id: await writeMention(f.t, f.other, FIXTURE_USERS.other.username, f.member, FIXTURE_USERS.member.username, f.eventId),
    }),
    expect: { anonymous: 401, member: 200, other: 404, admin: 404 },
    after: async (f, role, body, { params }) => {
      if (role === 'other' || role === 'admin') expect(body.message).toBe(MESSAGES.mentionNotFound);
      const row = await f.t.runtime.deps.store.db
        .selectFrom('mentions')
        .select('is_read')
        .where('id', '=', params.id!)
        .executeTakeFirstOrThrow();
      expect(row.is_read).toBe(role === 'member' ? 1 : 0);
    },
  },
  {
    method: 'PUT',
    path: '/api/comments/mentions/read-all',
    // Each caller marks only their own: the member's fresh mention stays unread for everyone else.
    params: async (f) => ({
      id: await writeMention(f.t, f.other, FIXTURE_USERS.other.username, f.member, FIXTURE_USERS.member.username, f.eventId),
    }),
    expect: SIGNED_IN,
    after: async (f, role, body, { params }) => {
      const row = await f.t.runtime.deps.store.db
        .selectFrom('mentions')
        .select('is_read')
        .where('id', '=', params.id!)
        .executeTakeFirstOrThrow();
      expect(row.is_read).toBe(role === 'member' ? 1 : 0);
      await f.t.call('PUT', '/api/comments/mentions/read-all', { token: f.member.token });
    },
  },
  // ── push rows (web push) ──
  {
    method: 'POST',
    path: '/api/fcm/token',
    // A subscription at FCM (a known push service) with a fresh endpoint per call; push.test.ts sends to a real one.
    body: () => ({
      token: {
        endpoint: `https://fcm.googleapis.com/fcm/send/${unique('matrix-device-')}`,
        expirationTime: null,
        keys: {
          p256dh: 'BGZ9P9AIQY4CIiSisQ0Mb_n4IFjP1BVyVqfWlb3Ho59a6nlPk584tGriqSiRvFpbYmSm-JseJkQXrzDJqR_xzsc',
          auth: 'w3utFpGyySSIeHZulCZ50A',
        },
      },
      deviceName: 'Matrix phone',
    }),
    expect: SIGNED_IN,
    after: async (f, role, body, { sent }) => {
      if (role === 'anonymous') return;
      const endpoint = (sent as { token: { endpoint: string } }).token.endpoint;
      expect(body.data).toMatchObject({ enabled: true, configured: true, endpoint });
      // Gone again, so no later row's write makes the server post to FCM.
      await f.t.runtime.deps.store.db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).execute();
    },
  },
  {
    method: 'DELETE',
    path: '/api/fcm/token',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role !== 'anonymous') expect(body.data.enabled).toBe(false);
    },
  },
  {
    method: 'GET',
    path: '/api/fcm/token/status',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role !== 'anonymous')
        expect(body.data).toMatchObject({ enabled: false, configured: true, publicKey: expect.any(String) });
    },
  },
  {
    method: 'GET',
    path: '/api/fcm/topics',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role === 'anonymous') return;
      const admin = body.data.topics.filter((topic: { admin: boolean }) => topic.admin);
      expect(admin.length > 0).toBe(role === 'admin');
    },
  },
  {
    method: 'PUT',
    path: '/api/fcm/topics',
    body: () => ({ topics: { comment: false } }),
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role === 'anonymous') return;
      expect(body.data.topics).toContainEqual({ topic: 'comment', enabled: false, admin: false });
      // On again for the other rows.
      await f.t.runtime.deps.store.db.deleteFrom('push_topics_off').where('user_id', '=', f[role].id).execute();
    },
  },
  // ── invite rows (docs/architecture.md, Invites) ──
  {
    method: 'POST',
    path: '/api/invites',
    adminOnly: true,
    body: () => ({ expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(), max_uses: 3, approve: false }),
    expect: CREATED_ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.invite).toMatchObject({ max_uses: 3, uses: 0, approve: false, members: [] });
    },
  },
  { method: 'GET', path: '/api/invites', adminOnly: true, expect: ADMIN_ONLY },
  {
    method: 'DELETE',
    path: '/api/invites/{id}',
    adminOnly: true,
    params: async (f) => ({ id: (await adminsInvite(f)).id }),
    expect: ADMIN_ONLY,
    after: async (f, role, body, { params }) => {
      const row = await f.t.runtime.deps.store.db
        .selectFrom('invites')
        .select('revoked_at')
        .where('id', '=', params.id!)
        .executeTakeFirstOrThrow();
      expect(row.revoked_at !== null).toBe(role === 'admin');
    },
  },
  {
    method: 'GET',
    path: '/api/invites/check/{token}',
    params: async (f) => ({ token: (await adminsInvite(f)).token }),
    expect: PUBLIC,
    after: async (f, role, body) => {
      expect(body.invite).toMatchObject({ approve: true });
    },
  },
  // ── config rows (team configuration, logo) ──
  {
    method: 'PUT',
    path: '/api/config',
    adminOnly: true,
    body: () => ({ team_id: 553, team_name: '1. FC Union Berlin', site_title: unique('Matrix '), theme_color: '#123456' }),
    expect: ADMIN_ONLY,
    after: async (f, role, body, call) => {
      if (role !== 'admin') return;
      expect(body.config).toMatchObject({ site_title: (call.sent as { site_title: string }).site_title, theme_color: '#123456' });
    },
  },
  {
    method: 'POST',
    path: '/api/config/logo',
    // The matrix uploads its PNG in the field `image`: the admin passes the guard and is refused for
    // want of the field `logo` (400 'No file uploaded', nothing stored); the check below uploads in `logo`.
    upload: true,
    adminOnly: true,
    expect: { anonymous: 401, member: 403, other: 403, admin: 400 },
    after: async (f, role, body) => {
      if (role !== 'admin') return;
      expect(body.code).toBe('noFileUploaded');
      const res = await uploadFile(f.t, '/api/config/logo', { token: f.admin.token, field: 'logo', bytes: IMAGES.png });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message: 'Logo uploaded successfully', filename: expect.stringMatching(/\.png$/) });
    },
  },
  {
    method: 'DELETE',
    path: '/api/config/logo',
    adminOnly: true,
    params: async (f) => {
      const res = await uploadFile(f.t, '/api/config/logo', { token: f.admin.token, field: 'logo', bytes: IMAGES.png });
      expect(res.status).toBe(200);
      return {};
    },
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.config.logo_filename).toBeNull();
    },
  },
  {
    method: 'GET',
    path: '/api/manifest.webmanifest',
    plainAnswer: true,
    expect: PUBLIC,
    after: async (f, role, body) => {
      expect(body).toMatchObject({ name: expect.any(String), start_url: '/events', display: 'standalone' });
    },
  },
  // ── match import rows (sync-matches, team search) ──
  {
    method: 'POST',
    path: '/api/events/sync-matches',
    adminOnly: true,
    // Never the real service: a local stand-in answers recorded matches (fixture-server.ts); matches.test.ts tests the import.
    params: async (f) => {
      await (await import('./fixture-server.js')).useLocalMatchService(f.t.runtime.deps.config);
      return {};
    },
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body).toMatchObject({ created: expect.any(Number), updated: 0, errors: [] });
    },
  },
  {
    method: 'GET',
    path: '/api/config/teams/{league}/{season}',
    adminOnly: true,
    params: async (f) => {
      await (await import('./fixture-server.js')).useLocalMatchService(f.t.runtime.deps.config);
      return { league: 'bl1', season: '2025' };
    },
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin')
        expect(body.teams).toContainEqual(expect.objectContaining({ teamId: 80, teamName: '1. FC Union Berlin' }));
    },
  },
  // ── contingent rows (ticket contingents, returns, offers) ──
  {
    method: 'GET',
    path: '/api/events/{id}/contingent',
    params: async (f) => ({ id: await contingentEvent(f, 2) }),
    expect: SIGNED_IN,
    after: async (_f, role, body) => {
      if (role === 'anonymous') return;
      expect(body.contingent).toMatchObject({ tickets: 2, free: 2 });
      expect(body.queue !== undefined).toBe(role === 'admin');
    },
  },
  {
    method: 'PUT',
    path: '/api/events/{id}/contingent',
    params: async (f) => ({ id: await contingentEvent(f, 2) }),
    body: () => ({ tickets: 3, offer_minutes: 60 }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'POST',
    path: '/api/events/{id}/contingent/allocate',
    params: async (f) => ({ id: await contingentEvent(f, 0) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/events/{id}/contingent/requests/{attendeeId}',
    // No tickets: the fresh member's request waits and buys nothing.
    params: async (f, role) => {
      const id = await contingentEvent(f, 0);
      return { id, attendeeId: await needsTicket(f, (await freshUser(f, role === 'admin' ? 'member' : role)).token, id) };
    },
    body: () => ({ pinned: true }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    path: '/api/tickets/{attendeeId}/return',
    // The member's ticket of a one-ticket contingent (allocated at once); its debtor or an admin returns it.
    params: async (f) => {
      const eventId = await contingentEvent(f, 1);
      return { attendeeId: await needsTicket(f, f.member.token, eventId) };
    },
    expect: { anonymous: 401, member: 200, other: 403, admin: 200 },
    after: async (f, role, body, { params }) => {
      if (role === 'member' || role === 'admin') expect(body.offered).toBe(false);
      await noTicketFor(f, params.attendeeId!);
    },
  },
  { method: 'GET', path: '/api/tickets/offers/my', expect: SIGNED_IN },
  ...(['accept', 'decline'] as const).map((answer): RouteCase => ({
    method: 'PUT',
    path: `/api/tickets/offers/{id}/${answer}`,
    // Only the member the offer is for answers it; to anyone else, admins included, it is not found.
    params: offerToMember,
    expect: { anonymous: 401, member: 200, other: 404, admin: 404 },
    after: async (f, role, body, { params }) => {
      if (role === 'member') expect(body.offer.state).toBe(answer === 'accept' ? 'accepted' : 'declined');
      await noTicketFor(f, params.attendeeId!);
    },
  })),
  // ── match-day rows ──
  ...(await folderCollectionRows()),
];

/** The rows of each collection in a folder of its own, kept beside its tests (collections/<name>/permissions.ts). */
async function folderCollectionRows(): Promise<RouteCase[]> {
  const folder = new URL('./collections/', import.meta.url);
  const files = fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(new URL(`${entry.name}/permissions.ts`, folder)))
    .map((entry) => new URL(`${entry.name}/permissions.ts`, folder).href);
  const modules = await Promise.all(files.map((file) => import(file) as Promise<{ permissionRows: RouteCase[] }>));
  return modules.flatMap((module) => module.permissionRows);
}

export const isPublic = (route: RouteCase) => route.expect.anonymous !== 401;
export const routeKey = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

export function urlOf(route: RouteCase, params: Params): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'placeholder-id'));
}
