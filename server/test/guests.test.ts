import { MESSAGES, newId } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write } from '../src/db/store.js';
import type { Actor } from '../src/domain/actor.js';
import { DomainError } from '../src/domain/errors.js';
import { addGuest, removeGuest, updateGuest } from '../src/domain/attendance/guests.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/** Guests a member brings: REST routes and the domain functions the sync push calls. */

let t: TestApp;
let admin: string;
let adminActor: Actor;
let fan: { id: string; token: string };
let other: { id: string; token: string };
let eventId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  const profile = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user;
  adminActor = { id: profile.id, username: profile.username, scope: 'admin' };
  fan = await t.member('guest-fan');
  other = await t.member('guest-other');
  eventId = (await createEventVia(t, admin, { title: 'Guest day (A)' })).id;
});
afterAll(() => t.close());
const rowOf = (id: string) => t.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirst();
const liveCount = async () =>
  (await t.db.selectFrom('attendees').select('id').where('event_id', '=', eventId).where('deleted', '=', 0).execute()).length;
const add = (body: unknown, token = fan.token) => t.call('POST', '/api/guests', { token, body });
const actorOf = (m: { id: string }, username: string): Actor => ({ id: m.id, username, scope: 'user' });
const domain = <T>(fn: Parameters<typeof write<T>>[1]) => write(t.runtime.deps.store, fn);

describe('POST /api/guests', () => {
  it('adds a guest brought by the member: going, needs ticket, needs transport', async () => {
    const res = await add({ event_id: eventId, guest_name: '  Onkel Heinz  ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: MESSAGES.guestAdded,
      guest: {
        event_id: eventId,
        user_id: null,
        username: null,
        guest_name: 'Onkel Heinz',
        brought_by: fan.id,
        brought_by_username: 'guest-fan',
        status: 'going',
        needs_ticket: true,
        has_ticket: false,
        needs_transport: true,
        transfer_status: 'outstanding',
        bought: false,
      },
    });
    expect(res.body.guest.guest_id).toBe(res.body.guest.id);
    const list = await t.call('GET', '/api/events', { token: other.token });
    expect(list.body.events.find((e: { id: string }) => e.id === eventId)).toMatchObject({ going_count: 1 });
  });

  it('takes the answers given; several guests of one member are fine', async () => {
    const res = await add({
      event_id: eventId,
      guest_name: 'Tante Erna',
      status: 'maybe',
      needs_ticket: false,
      needs_transport: false,
    });
    expect(res.body.guest).toMatchObject({ status: 'maybe', needs_ticket: false, needs_transport: false, transfer_status: null });
    const again = await add({ event_id: eventId, guest_name: 'Onkel Heinz' });
    expect(again.status).toBe(201);
  });

  it('lets an admin bring a guest for a member (brought_by), a member only for themselves', async () => {
    const res = await add({ event_id: eventId, guest_name: 'Admin guest', brought_by: other.id }, admin);
    expect(res.status).toBe(201);
    expect(res.body.guest).toMatchObject({ brought_by: other.id, brought_by_username: 'guest-other' });
    const own = await add({ event_id: eventId, guest_name: 'Admin own guest' }, admin);
    expect(own.body.guest.brought_by).toBe(adminActor.id);
    const before = await liveCount();
    const refused = await add({ event_id: eventId, guest_name: 'Sneaky', brought_by: other.id });
    expect(refused.status).toBe(403);
    expect(await liveCount()).toBe(before);
    const self = await add({ event_id: eventId, guest_name: 'Explicit', brought_by: fan.id });
    expect(self.status).toBe(201);
    const unknown = await add({ event_id: eventId, guest_name: 'Nobody', brought_by: newId() }, admin);
    expect(unknown).toMatchObject({ status: 404, body: { message: MESSAGES.userNotFound } });
  });

  it.each([
    ['no name', { event_id: 'EVENT' }, 400, MESSAGES.guestNameRequired],
    ['a blank name', { event_id: 'EVENT', guest_name: '   ' }, 400, MESSAGES.guestNameRequired],
    ['a name that is a number', { event_id: 'EVENT', guest_name: 7 }, 400, MESSAGES.guestNameRequired],
    ['a name over 100 characters', { event_id: 'EVENT', guest_name: 'x'.repeat(101) }, 400, MESSAGES.invalidInput],
    ['no event', { guest_name: 'Paul' }, 400, MESSAGES.invalidInput],
    ['an unknown event', { event_id: newId(), guest_name: 'Paul' }, 404, MESSAGES.eventNotFound],
    ['an unknown status', { event_id: 'EVENT', guest_name: 'Paul', status: 'perhaps' }, 400, MESSAGES.invalidInput],
    [
      'both ticket flags',
      { event_id: 'EVENT', guest_name: 'Paul', needs_ticket: true, has_ticket: true },
      400,
      MESSAGES.hasTicketAndNeedsTicket,
    ],
  ])('refuses %s', async (_label, body, status, message) => {
    const payload = { ...body, ...((body as { event_id?: string }).event_id === 'EVENT' ? { event_id: eventId } : {}) };
    const before = await t.db.selectFrom('attendees').selectAll().orderBy('id').execute();
    const res = await add(payload);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await t.db.selectFrom('attendees').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('applies the debt block to a member bringing a guest, not to an admin bringing one for them', async () => {
    const debtor = await t.member('guest-debtor');
    const first = await createEventVia(t, admin, { title: 'Debt first (H)' });
    const own = await t.call('POST', `/api/events/${first.id}/attendees`, { token: admin, body: { user_id: debtor.id } });
    await t.call('PUT', `/api/attendees/${own.body.attendance.id}`, { token: admin, body: { bought: true, price: 30 } });
    const refused = await add({ event_id: eventId, guest_name: 'Blocked' }, debtor.token);
    expect(refused).toMatchObject({ status: 403, body: { message: MESSAGES.unpaidDebts } });
    const byAdmin = await add({ event_id: eventId, guest_name: 'Allowed', brought_by: debtor.id }, admin);
    expect(byAdmin.status).toBe(201);
    // Changing the guest they already have stays possible.
    const renamed = await t.call('PUT', `/api/guests/${byAdmin.body.guest.id}`, {
      token: debtor.token,
      body: { status: 'maybe' },
    });
    expect(renamed.status).toBe(200);
  });
});

describe('PUT and DELETE /api/guests/{id}', () => {
  let guestId: string;
  beforeAll(async () => {
    guestId = (await add({ event_id: eventId, guest_name: 'Kumpel' })).body.guest.id;
  });

  it('lets the member who brought the guest rename them and change the answers', async () => {
    const res = await t.call('PUT', `/api/guests/${guestId}`, {
      token: fan.token,
      body: { guest_name: ' Kumpel Kalle ', status: 'maybe', has_ticket: true, needs_transport: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: MESSAGES.guestUpdated,
      guest: { guest_name: 'Kumpel Kalle', status: 'maybe', needs_ticket: false, has_ticket: true, needs_transport: false },
    });
    const seat = await t.call('PUT', `/api/guests/${guestId}`, { token: fan.token, body: { needs_transport: true } });
    expect(seat.body.guest).toMatchObject({ needs_transport: true, transfer_status: 'outstanding', status: 'maybe' });
  });

  it('refuses another member (403) and lets an admin change it', async () => {
    const before = await rowOf(guestId);
    const res = await t.call('PUT', `/api/guests/${guestId}`, { token: other.token, body: { guest_name: 'Mine now' } });
    expect(res.status).toBe(403);
    expect(await rowOf(guestId)).toEqual(before);
    const byAdmin = await t.call('PUT', `/api/guests/${guestId}`, { token: admin, body: { status: 'going' } });
    expect(byAdmin.body.guest).toMatchObject({ status: 'going', brought_by: fan.id });
  });

  it.each([
    ['a blank name', { guest_name: ' ' }, MESSAGES.guestNameRequired],
    ['an unknown status', { status: 'no' }, MESSAGES.invalidInput],
    ['both ticket flags', { needs_ticket: true, has_ticket: true }, MESSAGES.hasTicketAndNeedsTicket],
    ['an admin field', { bought: true }, null],
  ])('refuses %s', async (_label, body, message) => {
    const before = await rowOf(guestId);
    const res = await t.call('PUT', `/api/guests/${guestId}`, { token: fan.token, body });
    expect(res.status).toBe(400);
    if (message) expect(res.body.message).toBe(message);
    expect(await rowOf(guestId)).toEqual(before);
  });

  it('a member row is no guest (404)', async () => {
    await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'going' } });
    const own = (await t.call('GET', '/api/attendance/my', { token: fan.token })).body.attendance[0];
    const res = await t.call('PUT', `/api/guests/${own.id}`, { token: fan.token, body: { guest_name: 'Me' } });
    expect(res).toMatchObject({ status: 404, body: { message: MESSAGES.guestNotFound } });
    expect((await t.call('DELETE', `/api/guests/${own.id}`, { token: fan.token })).status).toBe(404);
  });

  it('removes a guest (another member 403); a bought ticket only an admin can remove', async () => {
    expect((await t.call('DELETE', `/api/guests/${guestId}`, { token: other.token })).status).toBe(403);
    await t.call('PUT', `/api/attendees/${guestId}`, { token: admin, body: { bought: true, price: 10 } });
    const refused = await t.call('DELETE', `/api/guests/${guestId}`, { token: fan.token });
    expect(refused).toMatchObject({ status: 409, body: { message: MESSAGES.ticketAlreadyBought } });
    expect((await rowOf(guestId))!.deleted).toBe(0);
    const seq = Number((await rowOf(guestId))!.seq);
    const res = await t.call('DELETE', `/api/guests/${guestId}`, { token: admin });
    expect(res.body).toEqual({ success: true, message: MESSAGES.guestRemoved });
    expect((await rowOf(guestId))!.deleted).toBe(1);
    expect(Number((await rowOf(guestId))!.seq)).toBeGreaterThan(seq);
    expect((await t.call('DELETE', `/api/guests/${guestId}`, { token: admin })).status).toBe(404);
  });
});

describe('domain functions with a client-chosen id (the sync push)', () => {
  it('keeps the id, treats a retry as an update and refuses a foreign row under that id', async () => {
    const actor = actorOf(other, 'guest-other');
    const id = newId();
    const row = await domain((w) => addGuest(w, actor, { event_id: eventId, guest_name: 'Offline guest' }, id));
    expect(row).toMatchObject({ id, brought_by: other.id, guest_name: 'Offline guest', status: 'going' });
    const seq = Number((await rowOf(id))!.seq);
    // The same push again: no new row, no new seq.
    await domain((w) => addGuest(w, actor, { event_id: eventId, guest_name: 'Offline guest' }, id));
    expect(Number((await rowOf(id))!.seq)).toBe(seq);
    // A retry that carries a change applies it.
    const changed = await domain((w) =>
      addGuest(w, actor, { event_id: eventId, guest_name: 'Offline guest', status: 'maybe' }, id),
    );
    expect(changed.status).toBe('maybe');
    // Someone else using that id, or a member row's id, is forbidden.
    const intruder = actorOf(fan, 'guest-fan');
    await expect(domain((w) => addGuest(w, intruder, { event_id: eventId, guest_name: 'X' }, id))).rejects.toMatchObject({
      code: 'forbidden',
      status: 403,
    });
    await expect(domain((w) => addGuest(w, actor, { event_id: eventId, guest_name: 'X' }, 'not-a-uuid'))).rejects.toBeInstanceOf(
      DomainError,
    );
  });

  it('re-adds a removed guest under its own id afresh', async () => {
    const actor = actorOf(other, 'guest-other');
    const id = newId();
    await domain((w) => addGuest(w, actor, { event_id: eventId, guest_name: 'Back again', needs_transport: false }, id));
    await domain((w) => removeGuest(w, actor, id));
    expect((await rowOf(id))!.deleted).toBe(1);
    const back = await domain((w) => addGuest(w, actor, { event_id: eventId, guest_name: 'Back again' }, id));
    expect(back).toMatchObject({ id, deleted: 0, needs_transport: 1 });
    expect(await rowOf(id)).toMatchObject({ deleted: 0, needs_transport: 1, guest_name: 'Back again' });
  });

  it('checks everything before writing, so a caller may go on in the same transaction', async () => {
    const actor = actorOf(other, 'guest-other');
    const id = newId();
    const results = await domain(async (w) => {
      const codes: string[] = [];
      for (const attempt of [
        () => addGuest(w, actor, { event_id: eventId, guest_name: ' ' }, newId()),
        () => addGuest(w, actor, { event_id: newId(), guest_name: 'Lost' }, newId()),
        () => updateGuest(w, actor, newId(), { guest_name: 'x' }),
        () => addGuest(w, actor, { event_id: eventId, guest_name: 'Fine' }, id),
      ]) {
        try {
          await attempt();
          codes.push('ok');
        } catch (error) {
          codes.push((error as DomainError).code);
        }
      }
      return codes;
    });
    expect(results).toEqual(['guestNameRequired', 'eventNotFound', 'guestNotFound', 'ok']);
    expect(await rowOf(id)).toMatchObject({ guest_name: 'Fine', deleted: 0 });
  });
});
