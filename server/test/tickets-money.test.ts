import { SYNC_SCHEMAS, type AttendeeDoc } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../src/db/store.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

type Doc = AttendeeDoc & { _deleted: boolean };

/**
 * My tickets, paid and received requests and the debt overview (docs/product.md, Tickets and money): GET
 * /api/tickets/my, PUT /api/tickets/{id}/request-paid and -received, GET /api/tickets/debts, and the
 * same requests through the attendees sync push (own row and own guest's row).
 */
describe('my tickets, requests and debts', () => {
  let t: TestApp;
  let admin: string;
  let jurgen: { id: string; token: string };
  let olaf: { id: string; token: string };
  let commits: Commit[];
  let unsubscribe: (() => void) | undefined;
  /** Row ids: Jürgen's bought ticket, his guest's bought ticket, his archived event's ticket, his unbought attendance. */
  const ids = { own: '', guest: '', archived: '', pending: '', past: '' };

  const recorded = (type: string) => commits.flatMap((commit) => commit.events).filter((event) => event.type === type);
  const pushAttendees = (token: string, rows: unknown) =>
    t.call('POST', `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/push`, { token, body: rows });
  /** Jürgen's row as his device pulls it (his own rows and guests' of any season: docs/architecture.md, What a device keeps). */
  const serverDoc = async (id: string): Promise<Doc> => {
    const res = await t.call('POST', `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/pull`, {
      token: jurgen.token,
      body: { checkpoint: null, limit: 1000 },
    });
    return (res.body.documents as Doc[]).find((doc) => doc.id === id)!;
  };

  async function attend(token: string, title: string, date: string): Promise<{ eventId: string; rowId: string }> {
    const event = await createEventVia(t, admin, { title, date, location: 'Köpenick' });
    const res = await t.call('POST', `/api/attendance/${event.id}`, { token, body: { status: 'going' } });
    expect(res.status).toBe(200);
    return { eventId: event.id, rowId: res.body.attendance.id };
  }
  const buy = async (rowId: string, price: number | null) => {
    const res = await t.call('PUT', `/api/attendees/${rowId}`, {
      token: admin,
      body: price === null ? { bought: true, is_price_tbd: true } : { bought: true, price },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    const reg = await t.call('POST', '/api/auth/register', {
      body: { username: 'Jürgen', email: 'juergen@example.org', password: 'member-pass' },
    });
    await t.call('PUT', `/api/auth/users/${reg.body.user.id}/approve`, { token: admin });
    jurgen = { id: reg.body.user.id, token: await t.login('Jürgen', 'member-pass') };
    olaf = await t.member('olaf');
    commits = [];
    unsubscribe = t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));

    const own = await attend(jurgen.token, 'Union – Hertha (H)', '2030-03-01 15:30:00');
    ids.own = own.rowId;
    const guest = await t.call('POST', '/api/guests', {
      token: jurgen.token,
      body: { event_id: own.eventId, guest_name: 'Gästin Ülla' },
    });
    expect(guest.status).toBe(201);
    ids.guest = guest.body.guest.id;
    const archived = await attend(jurgen.token, 'Archiv (A)', '2031-01-01 15:30:00');
    ids.archived = archived.rowId;
    ids.pending = (await attend(jurgen.token, 'Später (A)', '2032-01-01 15:30:00')).rowId;
    // Answered while upcoming; the match has been played since (a past event takes no new answers).
    const past = await attend(jurgen.token, 'Vorbei (A)', '2030-05-01 15:30:00');
    const moved = await t.call('PUT', `/api/events/${past.eventId}`, { token: admin, body: { date: '2020-05-01 15:30:00' } });
    expect(moved.status).toBe(200);
    ids.past = past.rowId;
    await buy(ids.own, 18.5);
    await buy(ids.guest, 12);
    await buy(ids.archived, 5.25);
    await buy(ids.past, 10);
    const deleted = await t.call('DELETE', `/api/events/${archived.eventId}`, { token: admin });
    expect(deleted.status).toBe(200);
  });
  afterAll(async () => {
    unsubscribe?.();
    await t.close();
  });

  it('lists own and guest tickets with their lists, the archived event, the overdue note and the unpaid total', async () => {
    const res = await t.call('GET', '/api/tickets/my', { token: jurgen.token });
    expect(res.status).toBe(200);
    expect(res.body.unpaidTotal).toBe(45.75);
    const byId = new Map<string, any>(res.body.tickets.map((ticket: any) => [ticket.id, ticket]));
    expect(byId.get(ids.own)).toMatchObject({
      event_title: 'Union – Hertha (H)',
      event_date: '2030-03-01 15:30:00',
      event_location: 'Köpenick',
      price: 18.5,
      state: 'unpaid',
      overdue: false,
      guest_name: null,
    });
    expect(byId.get(ids.guest)).toMatchObject({ guest_name: 'Gästin Ülla', price: 12, state: 'unpaid' });
    expect(byId.get(ids.archived)).toMatchObject({ event_title: 'Archiv (A)', event_archived: true, state: 'unpaid' });
    expect(byId.get(ids.pending)).toMatchObject({ state: 'pending', bought: false, price: null });
    expect(byId.get(ids.past)).toMatchObject({ state: 'unpaid', overdue: true });
    expect(res.body.tickets).toHaveLength(5);

    const other = await t.call('GET', '/api/tickets/my', { token: olaf.token });
    expect(other.body).toMatchObject({ success: true, tickets: [], unpaidTotal: 0 });
  });

  it('counts debts per member (a guest for the member who brought them, an archived event too), largest first', async () => {
    const olafRow = (await attend(olaf.token, 'Olaf (A)', '2030-04-01 15:30:00')).rowId;
    await buy(olafRow, 99.99);
    const res = await t.call('GET', '/api/tickets/debts', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.debts).toEqual([
      {
        user_id: olaf.id,
        username: 'olaf',
        email: 'olaf@example.org',
        total_debt: 99.99,
        unpaid_count: 1,
        open_price_count: 0,
        balance: 99.99,
      },
      {
        user_id: jurgen.id,
        username: 'Jürgen',
        email: 'juergen@example.org',
        total_debt: 45.75,
        unpaid_count: 4,
        open_price_count: 0,
        balance: 45.75,
      },
    ]);
    expect(res.body.unpaidTickets).toHaveLength(5);
    expect(res.body.unpaidTickets).toContainEqual(
      expect.objectContaining({ id: ids.guest, username: 'Jürgen', guest_name: 'Gästin Ülla', price: 12 }),
    );
    for (const token of [jurgen.token, olaf.token]) {
      const refused = await t.call('GET', '/api/tickets/debts', { token });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Admin access required');
    }
    expect((await t.call('GET', '/api/tickets/debts')).status).toBe(401);
    // Paid, the ticket leaves the debts.
    await t.call('PUT', `/api/attendees/${olafRow}`, { token: admin, body: { paid: true } });
    const after = await t.call('GET', '/api/tickets/debts', { token: admin });
    expect(after.body.debts.map((debt: any) => debt.username)).toEqual(['Jürgen']);
  });

  it('takes a paid request on an own ticket and a received request on a guest ticket, and records request.made', async () => {
    const paid = await t.call('PUT', `/api/tickets/${ids.own}/request-paid`, { token: jurgen.token });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ success: true, message: 'Paid request submitted' });
    expect(paid.body.attendance).toMatchObject({ paid_requested: true, paid: false });
    const received = await t.call('PUT', `/api/tickets/${ids.guest}/request-received`, { token: jurgen.token });
    expect(received.status).toBe(200);
    expect(received.body.attendance).toMatchObject({ received_requested: true });
    // The archived event's ticket can still be reported paid: the debt outlives the event.
    expect((await t.call('PUT', `/api/tickets/${ids.archived}/request-paid`, { token: jurgen.token })).status).toBe(200);
    expect(recorded('request.made')).toEqual([
      expect.objectContaining({ kind: 'paid', attendeeId: ids.own, debtorId: jurgen.id, actorId: jurgen.id }),
      expect.objectContaining({ kind: 'received', attendeeId: ids.guest, debtorId: jurgen.id, userId: null }),
      expect.objectContaining({ kind: 'paid', attendeeId: ids.archived }),
    ]);
    // Asking again changes nothing and records nothing.
    expect((await t.call('PUT', `/api/tickets/${ids.own}/request-paid`, { token: jurgen.token })).status).toBe(200);
    expect(recorded('request.made')).toHaveLength(3);
    const mine = await t.call('GET', '/api/tickets/my', { token: jurgen.token });
    expect(mine.body.tickets.find((ticket: any) => ticket.id === ids.own)).toMatchObject({ paid_requested: true });
  });

  it('refuses unknown ids (404), other members and admins (403), and requests that make no sense (409)', async () => {
    const before = await serverDoc(ids.own);
    const unknown = await t.call('PUT', '/api/tickets/0190aaaa-0000-7000-8000-000000000000/request-paid', {
      token: jurgen.token,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, message: 'Ticket not found', code: 'ticketNotFound' });
    for (const token of [olaf.token, admin]) {
      for (const kind of ['paid', 'received']) {
        const res = await t.call('PUT', `/api/tickets/${ids.own}/request-${kind}`, { token });
        expect(res.status, kind).toBe(403);
      }
    }
    const notBought = await t.call('PUT', `/api/tickets/${ids.pending}/request-paid`, { token: jurgen.token });
    expect(notBought.status).toBe(409);
    expect(notBought.body).toMatchObject({ message: 'This ticket has not been bought yet', code: 'ticketNotBought' });
    expect((await t.call('PUT', `/api/tickets/${ids.pending}/request-received`, { token: jurgen.token })).status).toBe(409);
    expect((await t.call('PUT', '/api/tickets/x/request-paid')).status).toBe(401);
    expect(await serverDoc(ids.own)).toEqual(before);
    // Accepted: paid, then a paid request makes no sense any more; received ends the received request.
    await t.call('PUT', `/api/attendees/${ids.own}`, { token: admin, body: { paid: true, received: true } });
    const alreadyPaid = await t.call('PUT', `/api/tickets/${ids.own}/request-paid`, { token: jurgen.token });
    expect(alreadyPaid.body).toMatchObject({ code: 'ticketAlreadyPaid' });
    const alreadyReceived = await t.call('PUT', `/api/tickets/${ids.own}/request-received`, { token: jurgen.token });
    expect(alreadyReceived.body).toMatchObject({ code: 'ticketAlreadyReceived' });
    const mine = await t.call('GET', '/api/tickets/my', { token: jurgen.token });
    expect(mine.body.tickets.find((ticket: any) => ticket.id === ids.own)).toMatchObject({
      state: 'paid',
      paid_requested: false,
    });
    expect(mine.body.unpaidTotal).toBe(27.25);
  });

  it('takes requests through the sync push on the own row and on an own guest row; refuses another member', async () => {
    const past = await serverDoc(ids.past);
    const ownPush = await pushAttendees(jurgen.token, [
      { assumedMasterState: past, newDocumentState: { ...past, paid_requested: true } },
    ]);
    expect(ownPush.status).toBe(200);
    // Answered with the result (its new seq).
    expect(ownPush.body).toEqual([expect.objectContaining({ id: ids.past, paid_requested: true })]);
    expect(await serverDoc(ids.past)).toMatchObject({ paid_requested: true });

    const guest = await serverDoc(ids.guest);
    const guestPush = await pushAttendees(jurgen.token, [
      { assumedMasterState: guest, newDocumentState: { ...guest, paid_requested: true } },
    ]);
    expect(guestPush.body).toEqual([expect.objectContaining({ id: ids.guest, paid_requested: true })]);
    expect(await serverDoc(ids.guest)).toMatchObject({ paid_requested: true, received_requested: true });

    // Another member's push on Jürgen's guest changes nothing; the answer is the server's row.
    const now = await serverDoc(ids.guest);
    const foreign = await pushAttendees(olaf.token, [
      { assumedMasterState: now, newDocumentState: { ...now, received_requested: false } },
    ]);
    expect(foreign.body).toEqual([expect.objectContaining({ id: ids.guest, received_requested: true })]);

    // A request on an unbought ticket is refused through the push as well.
    const pending = await serverDoc(ids.pending);
    const refused = await pushAttendees(jurgen.token, [
      { assumedMasterState: pending, newDocumentState: { ...pending, paid_requested: true } },
    ]);
    expect(refused.body).toEqual([expect.objectContaining({ id: ids.pending, paid_requested: false })]);
  });
});

/**
 * A ticket bought without a price takes the event's price, or the stadium's only price category;
 * a price really not known yet stays open and is counted apart, never as 0,00 € (docs/architecture.md,
 * Data model).
 */
describe('a ticket bought without a price', () => {
  let t: TestApp;
  let admin: string;
  let member: { id: string; token: string };
  let counter = 0;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    member = await t.member('preis-fan');
  });
  afterAll(() => t.close());

  async function stadiumWith(name: string, prices: [number, string][]): Promise<string> {
    const stadium = await t.call('POST', '/api/stadiums', {
      token: admin,
      body: { team_name: `${name} FC`, stadium_name: name, city: 'Köln' },
    });
    expect(stadium.status).toBe(201);
    for (const [price, ticket_type] of prices) {
      const option = await t.call('POST', '/api/ticket-prices', {
        token: admin,
        body: { stadium_id: stadium.body.stadium.id, price, ticket_type },
      });
      expect(option.status).toBe(201);
    }
    return stadium.body.stadium.id;
  }

  /** The member attends an event and the admin ticks "bought" with nothing else (the member route of the brief). */
  async function boughtOn(event: Record<string, unknown>, body: Record<string, unknown> = {}) {
    const { id: eventId } = await createEventVia(t, admin, { title: `Preis ${(counter += 1)} (A)`, ...event });
    // The admin adds the member: a member with a debt could not answer a new match.
    const added = await t.call('POST', `/api/events/${eventId}/attendees`, { token: admin, body: { user_id: member.id } });
    expect(added.status).toBe(201);
    const res = await t.call('PUT', `/api/tickets/event/${eventId}/user/${member.id}/status`, {
      token: admin,
      body: { bought: true, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mine = await t.call('GET', '/api/tickets/my', { token: member.token });
    return {
      eventId,
      attendance: res.body.attendance,
      ticket: mine.body.tickets.find((x: { event_id: string }) => x.event_id === eventId),
    };
  }

  it("takes the event's price", async () => {
    const { attendance, ticket } = await boughtOn({ ticket_price: 18.5 });
    expect(attendance).toMatchObject({ bought: true, price: 18.5, is_price_tbd: false, is_free: false });
    expect(ticket).toMatchObject({ state: 'unpaid', price: 18.5, price_open: false });
  });

  it("takes the stadium's only price category when the event has no price", async () => {
    const stadiumId = await stadiumWith('Einzelpreis-Arena', [[22, 'Stehplatz']]);
    const { attendance, ticket } = await boughtOn({ ticket_price: 0, stadium_id: stadiumId });
    expect(attendance).toMatchObject({ price: 22, ticket_type: 'Stehplatz' });
    expect(attendance.ticket_price_id).toEqual(expect.any(String));
    expect(ticket).toMatchObject({ price: 22, price_open: false });
  });

  it('keeps a price that was given, and to be announced when asked for', async () => {
    expect((await boughtOn({ ticket_price: 18.5 }, { price: 9 })).attendance).toMatchObject({ price: 9 });
    expect((await boughtOn({ ticket_price: 18.5 }, { is_free: true })).attendance).toMatchObject({ price: 0, is_free: true });
    const tbd = await boughtOn({ ticket_price: 18.5 }, { is_price_tbd: true });
    expect(tbd.attendance).toMatchObject({ price: null, is_price_tbd: true });
    expect(tbd.ticket).toMatchObject({ price_open: true });
  });

  it('leaves the price open without an event price and with several categories, counted apart in every debt view', async () => {
    const stadiumId = await stadiumWith('Zweipreis-Arena', [
      [15, 'Stehplatz'],
      [35, 'Sitzplatz'],
    ]);
    const before = await t.call('GET', '/api/tickets/my', { token: member.token });
    const open = await boughtOn({ ticket_price: 0, stadium_id: stadiumId });
    expect(open.attendance).toMatchObject({ price: null, ticket_price_id: null, is_price_tbd: false });
    expect(open.ticket).toMatchObject({ state: 'unpaid', price: null, price_open: true });
    // A free ticket next to it is no open price.
    await boughtOn({ ticket_price: 0 }, { is_free: true });

    const mine = await t.call('GET', '/api/tickets/my', { token: member.token });
    expect(mine.body.unpaidTotal).toBeCloseTo(before.body.unpaidTotal, 2);
    expect(mine.body.unpaidOpenPriceCount).toBe(before.body.unpaidOpenPriceCount + 1);
    const debts = await t.call('GET', '/api/tickets/debts', { token: admin });
    const row = debts.body.debts.find((d: { user_id: string }) => d.user_id === member.id);
    expect(row).toMatchObject({ open_price_count: mine.body.unpaidOpenPriceCount, total_debt: mine.body.unpaidTotal });
    expect(debts.body.open_price_count).toBe(mine.body.unpaidOpenPriceCount);
    const listed = debts.body.unpaidTickets.find((x: { event_id: string }) => x.event_id === open.eventId);
    expect(listed).toMatchObject({ price: null, price_open: true });
    const user = await t.call('GET', `/api/auth/users/${member.id}`, { token: admin });
    expect(user.body.user ?? user.body).toMatchObject({ open_price_count: mine.body.unpaidOpenPriceCount });
  });
});
