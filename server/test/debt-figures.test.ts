import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/**
 * The member's /my-tickets total, the treasurer's /debts and the user table agree for the same data
 * (docs/product.md, "Tickets and money"; all three read the ledger through the shared `owedFiguresOf`) — own
 * tickets, a guest's ticket owed by the member who brought them, a paid one, a ticket of an event an
 * admin deleted (archived), a ticket to be announced and one bought without a price on an event
 * without one (both price open: counted apart, never as 0,00 €).
 */
describe('debt figures agree', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  /** The admin adds the member (a member with a debt could not answer a new match) and buys the ticket. */
  async function boughtTicket(userId: string, title: string, price: number | null, extra: Record<string, unknown> = {}) {
    const eventId = (await createEventVia(t, admin, { title })).id;
    const added = await t.call('POST', `/api/events/${eventId}/attendees`, { token: admin, body: { user_id: userId } });
    expect(added.status).toBe(201);
    const id = added.body.attendance.id as string;
    const body = price === null ? { bought: true, is_price_tbd: true, ...extra } : { bought: true, price, ...extra };
    expect((await t.call('PUT', `/api/attendees/${id}`, { token: admin, body })).status).toBe(200);
    return { eventId, id };
  }

  it('counts the same unpaid tickets and total everywhere', async () => {
    const jurgen = await t.member('juergen');
    const other = await t.member('oezlem');
    await boughtTicket(jurgen.id, 'Köln (A)', 18.5);
    await boughtTicket(jurgen.id, 'Mainz (A)', 22, { paid: true });
    const archived = await boughtTicket(jurgen.id, 'Bochum (A)', 10.25);
    await boughtTicket(jurgen.id, 'Pokal (A)', null);
    // A guest's ticket is the debt of the member who brought them.
    const guestEvent = (await createEventVia(t, admin, { title: 'Freiburg (A)' })).id;
    const guest = await t.call('POST', '/api/guests', {
      token: admin,
      body: { event_id: guestEvent, guest_name: 'Paula', brought_by: jurgen.id },
    });
    expect(
      (await t.call('PUT', `/api/attendees/${guest.body.guest.id}`, { token: admin, body: { bought: true, price: 7.75 } }))
        .status,
    ).toBe(200);
    await boughtTicket(other.id, 'Hoffenheim (A)', 30);
    expect((await t.call('DELETE', `/api/events/${archived.eventId}`, { token: admin })).status).toBe(200);

    // Bought without a price on an event without one: the price is open, counted apart, not as 0,00 €.
    const open = (await createEventVia(t, admin, { title: 'Offen (A)', ticket_price: 0 })).id;
    expect((await t.call('POST', `/api/events/${open}/attendees`, { token: admin, body: { user_id: jurgen.id } })).status).toBe(
      201,
    );
    expect(
      (await t.call('PUT', `/api/tickets/event/${open}/user/${jurgen.id}/status`, { token: admin, body: { bought: true } }))
        .status,
    ).toBe(200);

    const expected = { unpaid: 5, total: 18.5 + 10.25 + 7.75, openPrices: 2 };
    const mine = await t.call('GET', '/api/tickets/my', { token: jurgen.token });
    expect(mine.status).toBe(200);
    expect(mine.body.unpaidTotal).toBeCloseTo(expected.total, 2);
    expect(mine.body.unpaidOpenPriceCount).toBe(expected.openPrices);

    const debts = await t.call('GET', '/api/tickets/debts', { token: admin });
    const row = debts.body.debts.find((d: { user_id: string }) => d.user_id === jurgen.id);
    expect(row).toMatchObject({ username: 'juergen', unpaid_count: expected.unpaid, open_price_count: expected.openPrices });
    expect(row.total_debt).toBeCloseTo(expected.total, 2);
    expect(debts.body.unpaidTickets.filter((ticket: { username?: string }) => ticket.username === 'juergen')).toHaveLength(
      expected.unpaid,
    );

    const users = await t.call('GET', '/api/auth/users', { token: admin });
    const listed = users.body.users.find((u: { id: string }) => u.id === jurgen.id);
    expect(listed.unpaid_count).toBe(expected.unpaid);
    expect(listed.open_price_count).toBe(expected.openPrices);
    expect(listed.total_debt).toBeCloseTo(expected.total, 2);
    const others = users.body.users.find((u: { id: string }) => u.id === other.id);
    expect([others.unpaid_count, others.total_debt, others.open_price_count]).toEqual([1, 30, 0]);
  });

  /** What the three views say one member owes: unpaid tickets, the known total and the tickets whose price is open. */
  async function figures(member: { id: string; token: string }) {
    const mine = (await t.call('GET', '/api/tickets/my', { token: member.token })).body;
    const unpaid = mine.tickets.filter((ticket: { state: string }) => ticket.state === 'unpaid');
    const debts = (await t.call('GET', '/api/tickets/debts', { token: admin })).body;
    const row = debts.debts.find((d: { user_id: string }) => d.user_id === member.id);
    const tickets = debts.unpaidTickets.filter((ticket: { debtor_id: string }) => ticket.debtor_id === member.id);
    const listed = (await t.call('GET', '/api/auth/users', { token: admin })).body.users.find(
      (u: { id: string }) => u.id === member.id,
    );
    const one = (await t.call('GET', `/api/auth/users/${member.id}`, { token: admin })).body.user;
    return {
      myTickets: { unpaid: unpaid.length, total: mine.unpaidTotal, openPrices: mine.unpaidOpenPriceCount },
      debts: { unpaid: row.unpaid_count, total: row.total_debt, openPrices: row.open_price_count },
      debtTickets: {
        unpaid: tickets.length,
        total: tickets.reduce((sum: number, ticket: { price: number | null }) => sum + (ticket.price ?? 0), 0),
        openPrices: tickets.filter((ticket: { price_open: boolean }) => ticket.price_open).length,
      },
      userTable: { unpaid: listed.unpaid_count, total: listed.total_debt, openPrices: listed.open_price_count },
      user: { unpaid: one.unpaid_count, total: one.total_debt, openPrices: one.open_price_count },
    };
  }

  it("counts a guest's bought, unpaid ticket and an open price the same in every view", async () => {
    const host = await t.member('gastgeber');
    // Two guests of the member: one bought at a price, one bought while the price is open.
    const priced = (await createEventVia(t, admin, { title: 'Rostock (A)' })).id;
    const open = (await createEventVia(t, admin, { title: 'Ulm (A)', ticket_price: 0 })).id;
    for (const [eventId, name, body] of [
      [priced, 'Kalle', { bought: true, price: 12.5 }],
      [open, 'Mia', { bought: true }],
    ] as const) {
      const guest = await t.call('POST', '/api/guests', {
        token: admin,
        body: { event_id: eventId, guest_name: name, brought_by: host.id },
      });
      expect(guest.status).toBe(201);
      expect((await t.call('PUT', `/api/attendees/${guest.body.guest.id}`, { token: admin, body })).status).toBe(200);
    }
    // The member's own ticket with a price to be announced: open too.
    await boughtTicket(host.id, 'Essen (A)', null);

    const expected = { unpaid: 3, total: 12.5, openPrices: 2 };
    const seen = await figures(host);
    for (const [view, got] of Object.entries(seen)) {
      expect({ ...got, total: Math.round(got.total * 100) }, view).toEqual({ ...expected, total: 1250 });
    }
    // The guests' tickets are the member's, in the member's name, on /my-tickets and /debts alike.
    const mine = (await t.call('GET', '/api/tickets/my', { token: host.token })).body.tickets;
    expect(mine.filter((ticket: { guest_name: string | null }) => ticket.guest_name !== null)).toHaveLength(2);
    const debts = (await t.call('GET', '/api/tickets/debts', { token: admin })).body;
    for (const ticket of debts.unpaidTickets.filter((ticket: { debtor_id: string }) => ticket.debtor_id === host.id)) {
      expect(ticket).toMatchObject({ username: 'gastgeber', email: 'gastgeber@example.org' });
    }
    expect(debts.debts.find((d: { user_id: string }) => d.user_id === host.id)).toMatchObject({
      username: 'gastgeber',
      email: 'gastgeber@example.org',
    });

    // Paying the priced guest ticket takes it out of every view at once.
    const kalle = debts.unpaidTickets.find((ticket: { guest_name: string | null }) => ticket.guest_name === 'Kalle');
    expect((await t.call('PUT', `/api/attendees/${kalle.id}`, { token: admin, body: { paid: true } })).status).toBe(200);
    for (const [view, got] of Object.entries(await figures(host))) {
      expect({ ...got, total: Math.round(got.total * 100) }, view).toEqual({ unpaid: 2, total: 0, openPrices: 2 });
    }
  });
});
