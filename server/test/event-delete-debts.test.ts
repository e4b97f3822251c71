import { MESSAGES, SYNC_SCHEMAS } from '@fankurve/shared';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../src/domain/domainEvents.js';
import { createEventVia, createTestApp, eventRow, IMAGES, uploadFile, type TestApp } from './helpers.js';

/**
 * Debts survive the deletion of their event (docs/product.md, "Tickets and money"). A bought ticket blocks the creator
 * from deleting the event (409 eventHasTickets); an admin's deletion archives it: shown nowhere,
 * its ticket rows stay live with their state and keep counting as debts.
 */

let t: TestApp;
let admin: string;
let creator: { id: string; token: string };
let other: { id: string; token: string };
let bystander: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  creator = await t.member('debt-creator');
  other = await t.member('debt-other');
  bystander = await t.member('debt-bystander');
});
afterAll(() => t.close());
const rowsOf = (eventId: string) =>
  t.db.selectFrom('attendees').selectAll().where('event_id', '=', eventId).orderBy('created_at').orderBy('id').execute();
const attend = (token: string, eventId: string) =>
  t.call('POST', `/api/attendance/${eventId}`, { token, body: { status: 'going' } });
const buy = async (attendeeId: string, body: Record<string, unknown> = {}) => {
  const res = await t.call('PUT', `/api/attendees/${attendeeId}`, { token: admin, body: { bought: true, price: 18.5, ...body } });
  expect(res.status).toBe(200);
};
const pull = async (collection: 'events' | 'attendees', token: string) => {
  const res = await t.call('POST', `/api/sync/${collection}/${SYNC_SCHEMAS[collection].version}/pull`, {
    token,
    body: { checkpoint: null, limit: 1000 },
  });
  expect(res.status).toBe(200);
  return res.body.documents as { id: string; _deleted: boolean; [key: string]: unknown }[];
};

describe('DELETE /api/events/{id} with bought tickets', () => {
  it("refuses the creator (409 eventHasTickets), changes nothing, and the creator's debt block still holds", async () => {
    const event = await createEventVia(t, creator.token, { title: 'Own debt (A)' });
    const own = await attend(creator.token, event.id);
    await attend(other.token, event.id);
    await buy(own.body.attendance.id);
    const before = await rowsOf(event.id);
    const eventBefore = await eventRow(t, event.id);
    const transport = await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: event.id, name: 'Bus', departure_location: 'Köpenick', price_per_seat: 20 },
    });
    expect(transport.status).toBe(201);

    const res = await t.call('DELETE', `/api/events/${event.id}`, { token: creator.token });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, code: 'eventHasTickets', message: MESSAGES.eventHasTickets });

    expect(await eventRow(t, event.id)).toEqual(eventBefore);
    expect(await rowsOf(event.id)).toEqual(before);
    expect((await t.call('GET', `/api/events/${event.id}`, { token: creator.token })).status).toBe(200);
    const transports = await t.call('GET', `/api/transports/event/${event.id}`, { token: creator.token });
    expect(transports.body.transports).toHaveLength(1);

    const elsewhere = await createEventVia(t, admin, { title: 'Next match (H)' });
    const blocked = await attend(creator.token, elsewhere.id);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ code: 'unpaidDebts' });

    // Settled, so the members start the next tests free of debts (registrations are limited per address).
    expect((await t.call('PUT', `/api/attendees/${own.body.attendance.id}`, { token: admin, body: { paid: true } })).status).toBe(
      200,
    );
    expect((await attend(creator.token, elsewhere.id)).status).toBe(200);
  });

  it('refuses the creator also when the bought ticket is paid, or is a guest of another member', async () => {
    const event = await createEventVia(t, creator.token, { title: 'Paid ticket (H)' });
    await attend(other.token, event.id);
    const guest = await t.call('POST', '/api/guests', {
      token: other.token,
      body: { event_id: event.id, guest_name: 'Tante Erna' },
    });
    expect(guest.status).toBe(201);
    await buy(guest.body.guest.id, { paid: true });
    const res = await t.call('DELETE', `/api/events/${event.id}`, { token: creator.token });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('eventHasTickets');
    expect((await eventRow(t, event.id)).deleted).toBe(0);
  });

  it('lets the creator delete an event without bought tickets as before', async () => {
    const event = await createEventVia(t, creator.token, { title: 'No tickets (A)' });
    await attend(creator.token, event.id);
    await attend(other.token, event.id);
    const res = await t.call('DELETE', `/api/events/${event.id}`, { token: creator.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: MESSAGES.eventDeleted });
    expect(await eventRow(t, event.id)).toMatchObject({ deleted: 1, archived: 0 });
    expect((await rowsOf(event.id)).every((row) => row.deleted === 1)).toBe(true);
    const docs = await pull('events', creator.token);
    expect(docs.find((doc) => doc.id === event.id)).toEqual({ id: event.id, seq: expect.any(Number), _deleted: true });
  });

  describe("an admin's deletion archives the event", () => {
    let eventId: string;
    let ticketIds: string[];
    let droppedId: string;
    let transportId: string;
    let imageFile: string;
    let eventSeq: number;
    const domainEvents: DomainEvent[] = [];

    beforeAll(async () => {
      eventId = (await createEventVia(t, creator.token, { title: 'Archived (A)', location: 'Millerntor' })).id;
      const creatorRow = (await attend(creator.token, eventId)).body.attendance.id as string;
      const otherRow = (await attend(other.token, eventId)).body.attendance.id as string;
      droppedId = (await attend(bystander.token, eventId)).body.attendance.id as string;
      const guest = await t.call('POST', '/api/guests', { token: other.token, body: { event_id: eventId, guest_name: 'Opa' } });
      const guestId = guest.body.guest.id as string;
      await buy(creatorRow, { paid: true, received: true });
      await buy(otherRow);
      await buy(guestId, { price: 12 });
      ticketIds = [creatorRow, otherRow, guestId];
      const transport = await t.call('POST', '/api/transports', {
        token: admin,
        body: { event_id: eventId, name: 'Bus', departure_location: 'Köpenick', price_per_seat: 20 },
      });
      transportId = transport.body.transport.id;
      const image = await uploadFile(t, `/api/events/${eventId}/image`, { token: creator.token, bytes: IMAGES.png });
      imageFile = path.join(t.dataDir, 'uploads', image.body.filename);
      expect(fs.existsSync(imageFile)).toBe(true);
      eventSeq = Number((await eventRow(t, eventId)).seq);
      const stop = t.runtime.deps.store.commits.subscribe((commit) => void domainEvents.push(...commit.events));
      // The cached list is built before the deletion, so the test sees that the commit invalidates it.
      expect((await t.call('GET', '/api/events', { token: other.token })).body.events.map((e: { id: string }) => e.id)).toContain(
        eventId,
      );
      const res = await t.call('DELETE', `/api/events/${eventId}`, { token: admin });
      stop();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: MESSAGES.eventDeleted });
    });

    it('keeps the event row as archived with a new seq, records event.deleted and removes the image', async () => {
      const row = await eventRow(t, eventId);
      expect(row).toMatchObject({ deleted: 0, archived: 1, image_filename: null, title: 'Archived (A)' });
      expect(Number(row.seq)).toBeGreaterThan(eventSeq);
      expect(domainEvents).toContainEqual({ type: 'event.deleted', eventId, archived: true, actorId: expect.any(String) });
      expect(fs.existsSync(imageFile)).toBe(false);
    });

    it('shows the event nowhere: not listed, 404 on detail, edits, attendance, guests and transports', async () => {
      const list = await t.call('GET', '/api/events', { token: other.token });
      expect(list.body.events.map((e: { id: string }) => e.id)).not.toContain(eventId);
      const notFound = { status: 404, body: { code: 'eventNotFound' } };
      expect(await t.call('GET', `/api/events/${eventId}`, { token: other.token })).toMatchObject(notFound);
      expect(await t.call('PUT', `/api/events/${eventId}`, { token: admin, body: { title: 'Back (A)' } })).toMatchObject(
        notFound,
      );
      expect(await t.call('DELETE', `/api/events/${eventId}`, { token: admin })).toMatchObject(notFound);
      expect(await t.call('POST', `/api/attendance/${eventId}`, { token: admin, body: { status: 'going' } })).toMatchObject(
        notFound,
      );
      expect(await t.call('DELETE', `/api/attendance/${eventId}`, { token: other.token })).toMatchObject(notFound);
      expect(await t.call('POST', '/api/guests', { token: admin, body: { event_id: eventId, guest_name: 'Neu' } })).toMatchObject(
        notFound,
      );
      expect(await t.call('GET', `/api/transports/event/${eventId}`, { token: other.token })).toMatchObject(notFound);
      expect(
        await t.call('POST', '/api/transports', {
          token: admin,
          body: { event_id: eventId, name: 'Zug', departure_location: 'Ostkreuz', price_per_seat: 10 },
        }),
      ).toMatchObject(notFound);
    });

    it('keeps the ticket rows live with their state and tombstones the rest', async () => {
      const rows = await rowsOf(eventId);
      const tickets = rows.filter((row) => ticketIds.includes(row.id));
      expect(tickets).toHaveLength(3);
      expect(tickets.every((row) => row.deleted === 0 && row.bought === 1)).toBe(true);
      const byId = new Map(tickets.map((row) => [row.id, row]));
      expect(byId.get(ticketIds[0]!)).toMatchObject({ paid: 1, received: 1, price_cents: 1850, user_id: creator.id });
      expect(byId.get(ticketIds[1]!)).toMatchObject({ paid: 0, received: 0, price_cents: 1850, user_id: other.id });
      expect(byId.get(ticketIds[2]!)).toMatchObject({ paid: 0, price_cents: 1200, guest_name: 'Opa', brought_by: other.id });
      expect(rows.find((row) => row.id === droppedId)).toMatchObject({ deleted: 1 });
      const transport = await t.db.selectFrom('transports').selectAll().where('id', '=', transportId).executeTakeFirstOrThrow();
      expect(transport.deleted).toBe(1);
    });

    it("keeps the debts: another member's ticket and guest still block them, the paid creator is free", async () => {
      const next = await createEventVia(t, admin, { title: 'After the archive (H)' });
      expect(await attend(other.token, next.id)).toMatchObject({ status: 403, body: { code: 'unpaidDebts' } });
      expect((await attend(creator.token, next.id)).status).toBe(200);
      expect((await attend(bystander.token, next.id)).status).toBe(200);
    });

    it("lists the tickets in the member's own attendances", async () => {
      const mine = await t.call('GET', '/api/attendance/my', { token: other.token });
      expect(mine.body.attendance).toContainEqual(
        expect.objectContaining({
          id: ticketIds[1],
          bought: true,
          paid: false,
          event_title: 'Archived (A)',
          event_location: 'Millerntor',
        }),
      );
    });

    it('sends the event as a live document with archived true, and the ticket rows, to devices', async () => {
      const event = (await pull('events', other.token)).find((doc) => doc.id === eventId);
      expect(event).toMatchObject({ _deleted: false, archived: true, title: 'Archived (A)', location: 'Millerntor' });
      const live = (await pull('events', other.token)).filter((doc) => doc.id !== eventId && !doc._deleted);
      expect(live.every((doc) => doc.archived === false)).toBe(true);
      const attendees = await pull('attendees', other.token);
      for (const id of ticketIds) expect(attendees.find((doc) => doc.id === id)).toMatchObject({ _deleted: false, bought: true });
      expect(attendees.find((doc) => doc.id === droppedId)).toMatchObject({ _deleted: true });
    });

    it('lets an admin settle an archived ticket, which lifts the debt block', async () => {
      const res = await t.call('PUT', `/api/attendees/${ticketIds[1]}`, { token: admin, body: { paid: true } });
      expect(res.status).toBe(200);
      const guestPaid = await t.call('PUT', `/api/attendees/${ticketIds[2]}`, { token: admin, body: { paid: true } });
      expect(guestPaid.status).toBe(200);
      const next = await createEventVia(t, admin, { title: 'Debts settled (A)' });
      expect((await attend(other.token, next.id)).status).toBe(200);
    });
  });
});
