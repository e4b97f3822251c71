import { MESSAGES, myOffersAnswer, offerAnswer, SYNC_SCHEMAS, ticketReturnedAnswer, type OfferDoc } from '@fankurve/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Commit } from '../src/db/store.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';
import { expectRefusal } from './bad-input-cases.js';

/*
 * The waiting list that moves by itself (docs/product.md, Ticket contingents): a returned ticket is
 * offered to the first in line; declining or letting the window run out (the job, with a clock
 * moved past the window) passes it on; accepting moves the ticket and its debt. The debt stays with
 * whoever returned it until then. An accept that arrives after the window closed is refused (REST
 * and a sync push, with a notice), even before the job closed the offer.
 */

interface User {
  id: string;
  token: string;
}

let t: TestApp;
let admin: string;
let members = 0;
let commits: Commit[] = [];

beforeAll(async () => {
  t = await createTestApp({ JOB_INTERVAL_SECONDS: '0.02' });
  admin = await t.adminToken();
  t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
});
afterAll(async () => {
  await t.runtime.jobs.stop();
  await t.close();
});
afterEach(() => vi.useRealTimers());

const fresh = (app: TestApp = t) => app.member(`offer-fan-${++members}`);

async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(now), { interval: 1 });
}

async function requestTicket(user: User, eventId: string, app: TestApp = t): Promise<string> {
  await nextMillisecond();
  const res = await app.call('POST', `/api/attendance/${eventId}`, {
    token: user.token,
    body: { status: 'going', needs_ticket: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.attendance.id;
}

async function givePoints(user: User, points: number, app: TestApp = t): Promise<void> {
  const res = await app.call('PUT', `/api/loyalty/${user.id}/adjustment`, { token: await app.adminToken(), body: { points } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** An away match (25 €) with a contingent of `tickets` and a one-minute offer window, allocated at once. */
async function contingentEvent(tickets: number, app: TestApp = t): Promise<string> {
  const token = await app.adminToken();
  const event = await createEventVia(app, token, {
    title: `Auswärts ${++members} (A)`,
    date: '2030-03-01 15:30',
    ticket_price: 25,
  });
  const res = await app.call('PUT', `/api/events/${event.id}/contingent`, { token, body: { tickets, offer_minutes: 1 } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return event.id;
}

const attendee = (id: string, app: TestApp = t) =>
  app.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const myOffers = (user: User, app: TestApp = t) =>
  app.callTyped(myOffersAnswer, 'GET', '/api/tickets/offers/my', { token: user.token });
const returnTicket = (row: string, token: string, app: TestApp = t) => app.call('PUT', `/api/tickets/${row}/return`, { token });

/** What each member owes by the admin's debt list, in euros. */
async function debts(...users: User[]): Promise<number[]> {
  const res = await t.call('GET', '/api/tickets/debts', { token: admin });
  expect(res.status).toBe(200);
  return users.map((user) => res.body.debts.find((debt: { user_id: string }) => debt.user_id === user.id)?.total_debt ?? 0);
}

/** The member's balance in the club's ledger, in euros (positive: owed). */
async function balance(user: User): Promise<number> {
  const res = await t.call('GET', '/api/ledger/my', { token: user.token });
  expect(res.status).toBe(200);
  return res.body.balance;
}

const eventsOf = (type: string) => commits.flatMap((commit) => commit.events).filter((event) => event.type === type);

describe('return → offer → decline → next → expiry → accept', () => {
  it('moves a returned ticket along the line, and its debt only when someone accepts', async () => {
    const eventId = await contingentEvent(2);
    const [holder, keeper, first, second, third] = [await fresh(), await fresh(), await fresh(), await fresh(), await fresh()];
    await givePoints(first, 30);
    await givePoints(second, 20);
    await givePoints(third, 10);
    const holderRow = await requestTicket(holder, eventId);
    await requestTicket(keeper, eventId);
    // Waiting in this order by points, though they asked the other way round.
    const thirdRow = await requestTicket(third, eventId);
    const secondRow = await requestTicket(second, eventId);
    const firstRow = await requestTicket(first, eventId);
    expect(await attendee(holderRow)).toMatchObject({ bought: 1, price_cents: 2500 });
    expect(await debts(holder, first, second, third)).toEqual([25, 0, 0, 0]);
    expect(await balance(holder)).toBe(25);

    // The holder returns it: the first in line is offered it; the debt stays with the holder.
    commits = [];
    const returned = await t.callTyped(ticketReturnedAnswer, 'PUT', `/api/tickets/${holderRow}/return`, { token: holder.token });
    expect(returned).toEqual({ success: true, message: MESSAGES.ticketReturned, offered: true });
    const offered = eventsOf('offer.made');
    expect(offered).toEqual([expect.objectContaining({ attendeeId: firstRow, userId: first.id, actorId: holder.id })]);
    const [offer] = (await myOffers(first)).offers;
    expect(offer).toMatchObject({
      event_id: eventId,
      price: 25,
      guest_name: null,
      event_title: expect.stringContaining('Auswärts'),
    });
    expect(Date.parse(offer!.expires_at) - Date.now()).toBeGreaterThan(50_000);
    expect(Date.parse(offer!.expires_at) - Date.now()).toBeLessThanOrEqual(60_000);
    expect((await myOffers(second)).offers).toEqual([]);
    expect(await attendee(holderRow)).toMatchObject({ bought: 1 });
    expect(await debts(holder, first)).toEqual([25, 0]);
    const holderView = await t.call('GET', `/api/events/${eventId}/contingent`, { token: holder.token });
    expect(holderView.body.mine).toMatchObject({ state: 'none', returned: true });
    const firstView = await t.call('GET', `/api/events/${eventId}/contingent`, { token: first.token });
    expect(firstView.body.mine).toMatchObject({ state: 'offered', offer: { id: offer!.id, expires_at: offer!.expires_at } });
    expect(firstView.body.contingent).toMatchObject({ allocated: 1, waiting: 3, free: 0 });
    // Returning it again is refused.
    expect((await returnTicket(holderRow, holder.token)).body.code).toBe('ticketAlreadyReturned');

    // The first declines: the second is offered it.
    const declined = await t.callTyped(offerAnswer, 'PUT', `/api/tickets/offers/${offer!.id}/decline`, { token: first.token });
    expect(declined.offer).toMatchObject({ state: 'declined', response: 'decline', price: 25 });
    const [toSecond] = (await myOffers(second)).offers;
    expect(toSecond).toBeDefined();
    expect((await t.call('GET', `/api/events/${eventId}/contingent`, { token: first.token })).body.mine).toMatchObject({
      state: 'declined',
      position: null,
      offer: null,
    });
    // A decline is final: accepting the declined offer is refused.
    const late = await t.call('PUT', `/api/tickets/offers/${offer!.id}/accept`, { token: first.token });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('offerClosed');
    // Out of the line, the row no longer needs a ticket (not listed as needing one any more).
    expect(await attendee(firstRow)).toMatchObject({ needs_ticket: 0, bought: 0, deleted: 0 });

    // The second lets the window run out: the job closes it, the third is offered it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(toSecond!.expires_at) + 1000 });
    await vi.waitFor(async () => expect((await myOffers(third)).offers).toHaveLength(1), { timeout: 5000 });
    const expired = await t.db.selectFrom('offers').selectAll().where('id', '=', toSecond!.id).executeTakeFirstOrThrow();
    expect(expired).toMatchObject({ state: 'expired', response: null });
    expect(
      (await t.db.selectFrom('ticket_requests').select('state').where('attendee_id', '=', secondRow).executeTakeFirstOrThrow())
        .state,
    ).toBe('declined');
    expect(await debts(holder, third)).toEqual([25, 0]);
    expect(await attendee(secondRow)).toMatchObject({ needs_ticket: 0 });

    // The first asks again by ticking "needs a ticket": a new request at the back of the line.
    const askedAgain = await t.call('POST', `/api/attendance/${eventId}`, {
      token: first.token,
      body: { status: 'going', needs_ticket: true },
    });
    expect(askedAgain.status).toBe(200);
    const renewed = await t.db
      .selectFrom('ticket_requests')
      .selectAll()
      .where('attendee_id', '=', firstRow)
      .executeTakeFirstOrThrow();
    expect(renewed.state).toBe('waiting');
    expect(Date.parse(renewed.requested_at)).toBeGreaterThan(Date.parse(offer!.expires_at) - 60_000);

    // The third accepts: ticket and debt move, the holder is told.
    const [toThird] = (await myOffers(third)).offers;
    commits = [];
    const accepted = await t.callTyped(offerAnswer, 'PUT', `/api/tickets/offers/${toThird!.id}/accept`, { token: third.token });
    expect(accepted).toMatchObject({
      message: MESSAGES.offerAccepted,
      offer: { state: 'accepted', response: 'accept', attendee_id: thirdRow },
    });
    expect(await attendee(thirdRow)).toMatchObject({ bought: 1, paid: 0, price_cents: 2500, needs_ticket: 1 });
    expect(await attendee(holderRow)).toMatchObject({
      bought: 0,
      paid: 0,
      received: 0,
      price_cents: null,
      needs_ticket: 0,
      deleted: 0,
    });
    expect(await debts(holder, third)).toEqual([0, 25]);
    // The ledger follows the rows by itself: the holder's charge is reversed, the third's booked.
    expect(await balance(holder)).toBe(0);
    expect(await balance(third)).toBe(25);
    expect(eventsOf('offer.accepted')).toEqual([
      expect.objectContaining({ ticketId: holderRow, attendeeId: thirdRow, returnerId: holder.id, actorId: third.id }),
    ]);
    expect((await t.call('GET', `/api/events/${eventId}/contingent`, { token: holder.token })).body.mine).toMatchObject({
      state: 'none',
      returned: false,
    });
    expect((await t.call('GET', `/api/events/${eventId}/contingent`, { token: third.token })).body).toMatchObject({
      mine: { state: 'allocated', offer: null },
      // The first, asking again, waits.
      contingent: { tickets: 2, allocated: 2, waiting: 1, free: 0 },
    });
    expect((await myOffers(third)).offers).toEqual([]);
    // Accepting again changes nothing.
    const again = await t.call('PUT', `/api/tickets/offers/${toThird!.id}/accept`, { token: third.token });
    expect(again.status).toBe(200);
    expect(await debts(holder, third)).toEqual([0, 25]);
  });

  it('offers a returned ticket to the next request when nobody waits', async () => {
    const eventId = await contingentEvent(1);
    const [holder, later] = [await fresh(), await fresh()];
    const holderRow = await requestTicket(holder, eventId);
    const returned = await t.callTyped(ticketReturnedAnswer, 'PUT', `/api/tickets/${holderRow}/return`, { token: holder.token });
    expect(returned.offered).toBe(false);
    expect((await t.call('GET', `/api/events/${eventId}/contingent`, { token: admin })).body.contingent).toMatchObject({
      allocated: 0,
      free: 1,
    });
    const laterRow = await requestTicket(later, eventId);
    // Not bought for them at once: the ticket and its debt are still the holder's until they accept.
    expect(await attendee(laterRow)).toMatchObject({ bought: 0 });
    const [offer] = (await myOffers(later)).offers;
    expect(offer).toMatchObject({ event_id: eventId, price: 25 });
    expect(await debts(holder, later)).toEqual([25, 0]);
    await t.callTyped(offerAnswer, 'PUT', `/api/tickets/offers/${offer!.id}/accept`, { token: later.token });
    expect(await debts(holder, later)).toEqual([0, 25]);
  });

  it('offers a guest’s ticket to the member who brought them, who answers for the guest', async () => {
    const eventId = await contingentEvent(1);
    const [holder, host] = [await fresh(), await fresh()];
    const holderRow = await requestTicket(holder, eventId);
    const guest = await t.call('POST', '/api/guests', {
      token: host.token,
      body: { event_id: eventId, guest_name: 'Onkel Paul', needs_ticket: true },
    });
    expect(guest.status).toBe(201);
    await returnTicket(holderRow, holder.token);
    const [offer] = (await myOffers(host)).offers;
    expect(offer).toMatchObject({ guest_name: 'Onkel Paul' });
    const hostView = await t.call('GET', `/api/events/${eventId}/contingent`, { token: host.token });
    expect(hostView.body.mine.guests).toEqual([
      expect.objectContaining({
        attendee_id: guest.body.guest.id,
        state: 'offered',
        offer: { id: offer!.id, expires_at: offer!.expires_at },
      }),
    ]);
    await t.callTyped(offerAnswer, 'PUT', `/api/tickets/offers/${offer!.id}/accept`, { token: host.token });
    expect(await attendee(guest.body.guest.id)).toMatchObject({ bought: 1, price_cents: 2500 });
    expect(await debts(holder, host)).toEqual([0, 25]);
  });

  it('withdraws an offer when its member no longer needs a ticket, and passes the ticket on', async () => {
    const eventId = await contingentEvent(1);
    const [holder, first, second] = [await fresh(), await fresh(), await fresh()];
    const holderRow = await requestTicket(holder, eventId);
    await requestTicket(first, eventId);
    await requestTicket(second, eventId);
    await returnTicket(holderRow, holder.token);
    const [offer] = (await myOffers(first)).offers;
    expect((await t.call('DELETE', `/api/attendance/${eventId}`, { token: first.token })).status).toBe(200);
    expect(await t.db.selectFrom('offers').select('state').where('id', '=', offer!.id).executeTakeFirstOrThrow()).toEqual({
      state: 'withdrawn',
    });
    expect((await myOffers(second)).offers).toHaveLength(1);
  });
});

describe('a returned ticket that goes away', () => {
  it('withdraws its offer when an admin removes the returned ticket; the ticket, now free, goes to the first in line', async () => {
    const eventId = await contingentEvent(1);
    const [holder, fan] = [await fresh(), await fresh()];
    const holderRow = await requestTicket(holder, eventId);
    const fanRow = await requestTicket(fan, eventId);
    await returnTicket(holderRow, holder.token);
    const [offer] = (await myOffers(fan)).offers;
    expect((await t.call('DELETE', `/api/attendance/${eventId}/user/${holder.id}`, { token: admin })).status).toBe(200);
    expect(await t.db.selectFrom('offers').select('state').where('id', '=', offer!.id).executeTakeFirstOrThrow()).toEqual({
      state: 'withdrawn',
    });
    expect((await myOffers(fan)).offers).toEqual([]);
    // The club still holds the ticket, and nobody holds it now: it is allocated like any free one.
    expect(await attendee(fanRow)).toMatchObject({ bought: 1, price_cents: 2500 });
    expect(await debts(holder, fan)).toEqual([0, 25]);
  });
});

describe('an accept after the window closed', () => {
  let slow: TestApp;
  beforeAll(async () => {
    // The job looks only every minute here: the offer is still open when the late answer arrives.
    slow = await createTestApp();
  });
  afterAll(async () => {
    await slow.runtime.jobs.stop();
    await slow.close();
  });

  async function lateOffer(): Promise<{ eventId: string; offerId: string; fan: User; fanRow: string; holder: User }> {
    const eventId = await contingentEvent(1, slow);
    const [holder, fan] = [await fresh(slow), await fresh(slow)];
    const holderRow = await requestTicket(holder, eventId, slow);
    const fanRow = await requestTicket(fan, eventId, slow);
    expect((await returnTicket(holderRow, holder.token, slow)).status).toBe(200);
    const [offer] = (await myOffers(fan, slow)).offers;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(offer!.expires_at) });
    return { eventId, offerId: offer!.id, fan, fanRow, holder };
  }

  it('is refused over REST, decided by its arrival, and changes nothing', async () => {
    const { offerId, fan, fanRow } = await lateOffer();
    const before = await slow.db.selectFrom('offers').selectAll().where('id', '=', offerId).executeTakeFirstOrThrow();
    const res = await slow.call('PUT', `/api/tickets/offers/${offerId}/accept`, { token: fan.token });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'offerExpired', message: MESSAGES.offerExpired });
    expect(await slow.db.selectFrom('offers').selectAll().where('id', '=', offerId).executeTakeFirstOrThrow()).toEqual(before);
    expect(before.state).toBe('open');
    expect(await attendee(fanRow, slow)).toMatchObject({ bought: 0 });
  });

  it('is refused through a sync push with a notice, and the device gets the offer back as the server has it', async () => {
    const { eventId, offerId, fan, fanRow } = await lateOffer();
    const path = `/api/sync/offers/${SYNC_SCHEMAS.offers.version}`;
    const pulled = await slow.call('POST', `${path}/pull`, { token: fan.token, body: { checkpoint: null, limit: 1000 } });
    const doc = pulled.body.documents.find((d: OfferDoc) => d.id === offerId) as OfferDoc & { _deleted: boolean };
    expect(doc).toMatchObject({ state: 'open', response: null, user_id: fan.id, event_id: eventId });
    const pushed = await slow.call('POST', `${path}/push`, {
      token: fan.token,
      body: [{ assumedMasterState: doc, newDocumentState: { ...doc, response: 'accept' } }],
    });
    expect(pushed.status).toBe(200);
    expect(pushed.body).toEqual([expect.objectContaining({ id: offerId, response: null, state: 'open' })]);
    const notices = await slow.db.selectFrom('notices').selectAll().where('user_id', '=', fan.id).execute();
    expect(notices).toEqual([expect.objectContaining({ code: 'offerExpired', action: 'offer.answer', event_id: eventId })]);
    expect(await attendee(fanRow, slow)).toMatchObject({ bought: 0 });
  });

  it('lands through a sync push while the window is open', async () => {
    const eventId = await contingentEvent(1, slow);
    const [holder, fan] = [await fresh(slow), await fresh(slow)];
    const holderRow = await requestTicket(holder, eventId, slow);
    const fanRow = await requestTicket(fan, eventId, slow);
    await returnTicket(holderRow, holder.token, slow);
    const path = `/api/sync/offers/${SYNC_SCHEMAS.offers.version}`;
    const pulled = await slow.call('POST', `${path}/pull`, { token: fan.token, body: { checkpoint: null, limit: 1000 } });
    const doc = pulled.body.documents.find((d: OfferDoc) => d.ticket_id === holderRow) as OfferDoc;
    const pushed = await slow.call('POST', `${path}/push`, {
      token: fan.token,
      body: [{ assumedMasterState: doc, newDocumentState: { ...doc, response: 'accept' } }],
    });
    expect(pushed.body).toEqual([expect.objectContaining({ id: doc.id, response: 'accept', state: 'accepted' })]);
    expect(await attendee(fanRow, slow)).toMatchObject({ bought: 1, price_cents: 2500 });
    expect(await attendee(holderRow, slow)).toMatchObject({ bought: 0 });
    // Someone else's offer is not theirs to pull or answer.
    const other = await fresh(slow);
    const theirs = await slow.call('POST', `${path}/pull`, { token: other.token, body: { checkpoint: null, limit: 1000 } });
    expect(theirs.body.documents).toEqual([]);
  });
});

describe('returning asks whether the member still goes and still needs the bus seat', () => {
  /** A member holding the one ticket (needing a seat), a fan waiting for it. */
  async function holderAndFan() {
    const eventId = await contingentEvent(1);
    const [holder, fan] = [await fresh(), await fresh()];
    await nextMillisecond();
    const answered = await t.call('POST', `/api/attendance/${eventId}`, {
      token: holder.token,
      body: { status: 'going', needs_ticket: true, needs_transport: true },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const holderRow: string = answered.body.attendance.id;
    await requestTicket(fan, eventId);
    expect(await attendee(holderRow)).toMatchObject({ bought: 1, needs_transport: 1 });
    return { holder, holderRow, fan };
  }
  const accept = async (fan: User) => {
    const offer = (await myOffers(fan)).offers[0]!;
    expect((await t.call('PUT', `/api/tickets/offers/${offer.id}/accept`, { token: fan.token })).status).toBe(200);
  };

  it('no longer going: the seat is freed at once, and the answer goes when someone takes the ticket', async () => {
    const { holder, holderRow, fan } = await holderAndFan();
    const res = await t.call('PUT', `/api/tickets/${holderRow}/return`, { token: holder.token, body: { going: false } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Still holding the ticket (and its debt) until someone takes it; the seat is free already.
    expect(await attendee(holderRow)).toMatchObject({ bought: 1, needs_transport: 0, transfer_status: null, deleted: 0 });
    await accept(fan);
    expect(await attendee(holderRow)).toMatchObject({ bought: 0, deleted: 1 });
  });

  it('still going without the seat: the seat is freed, the answer stays after the ticket is taken', async () => {
    const { holder, holderRow, fan } = await holderAndFan();
    const body = { going: true, needs_transport: false };
    expect((await t.call('PUT', `/api/tickets/${holderRow}/return`, { token: holder.token, body })).status).toBe(200);
    expect(await attendee(holderRow)).toMatchObject({ needs_transport: 0 });
    await accept(fan);
    expect(await attendee(holderRow)).toMatchObject({ bought: 0, needs_ticket: 0, status: 'going', deleted: 0 });
  });

  it('still going with the seat (or no body at all): only the ticket is returned', async () => {
    const { holder, holderRow } = await holderAndFan();
    const body = { going: true, needs_transport: true };
    expect((await t.call('PUT', `/api/tickets/${holderRow}/return`, { token: holder.token, body })).status).toBe(200);
    expect(await attendee(holderRow)).toMatchObject({ bought: 1, needs_transport: 1, deleted: 0 });
  });

  it('refuses a mistyped choice and changes nothing', async () => {
    const { holder, holderRow } = await holderAndFan();
    const before = await t.db.selectFrom('ticket_requests').selectAll().where('attendee_id', '=', holderRow).execute();
    for (const body of [{ going: 'no' }, { needs_transport: 0 }]) {
      const res = await t.call('PUT', `/api/tickets/${holderRow}/return`, { token: holder.token, body });
      expectRefusal(res, 400, MESSAGES.invalidInput);
    }
    expect(await t.db.selectFrom('ticket_requests').selectAll().where('attendee_id', '=', holderRow).execute()).toEqual(before);
    expect(await attendee(holderRow)).toMatchObject({ bought: 1, needs_transport: 1 });
  });
});

describe('bad input and refusals change nothing', () => {
  let eventId: string;
  let holder: User;
  let holderRow: string;
  let fan: User;
  let fanRow: string;
  let offerId: string;
  beforeAll(async () => {
    eventId = await contingentEvent(1);
    holder = await fresh();
    fan = await fresh();
    holderRow = await requestTicket(holder, eventId);
    fanRow = await requestTicket(fan, eventId);
    await returnTicket(holderRow, holder.token);
    offerId = (await myOffers(fan)).offers[0]!.id;
  });

  const state = async () => ({
    requests: await t.db.selectFrom('ticket_requests').selectAll().orderBy('attendee_id').execute(),
    offers: await t.db.selectFrom('offers').selectAll().orderBy('id').execute(),
    attendees: await t.db.selectFrom('attendees').selectAll().orderBy('id').execute(),
    counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
  });
  const unknown = '01900000-0000-7000-8000-00000000beef';

  it.each([
    ['return an unknown ticket', 'PUT', (): string => `/api/tickets/${unknown}/return`, 'holder', 404, 'ticketNotFound'],
    ['return a ticket not bought', 'PUT', (): string => `/api/tickets/${fanRow}/return`, 'fan', 409, 'ticketNotBought'],
    ['return another member’s ticket', 'PUT', (): string => `/api/tickets/${holderRow}/return`, 'fan', 403, 'forbidden'],
    ['return a ticket twice', 'PUT', (): string => `/api/tickets/${holderRow}/return`, 'holder', 409, 'ticketAlreadyReturned'],
    ['accept an unknown offer', 'PUT', (): string => `/api/tickets/offers/${unknown}/accept`, 'fan', 404, 'offerNotFound'],
    [
      'accept another member’s offer',
      'PUT',
      (): string => `/api/tickets/offers/${offerId}/accept`,
      'holder',
      404,
      'offerNotFound',
    ],
    [
      'accept a member’s offer as admin',
      'PUT',
      (): string => `/api/tickets/offers/${offerId}/accept`,
      'admin',
      404,
      'offerNotFound',
    ],
    ['decline an unknown offer', 'PUT', (): string => `/api/tickets/offers/${unknown}/decline`, 'fan', 404, 'offerNotFound'],
    [
      'decline another member’s offer',
      'PUT',
      (): string => `/api/tickets/offers/${offerId}/decline`,
      'holder',
      404,
      'offerNotFound',
    ],
  ] as const)('%s', async (_name, method, url, who, status, code) => {
    const token = who === 'admin' ? admin : who === 'fan' ? fan.token : holder.token;
    const before = await state();
    const res = await t.call(method, url(), { token });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await state()).toEqual(before);
  });

  it('refuses to return a ticket of an event without a contingent, or of a past event', async () => {
    const plain = await createEventVia(t, admin, { title: 'Ohne Kontingent (A)', date: '2030-04-01 15:30', ticket_price: 20 });
    const owner = await fresh();
    const row = await requestTicket(owner, plain.id);
    expect((await t.call('PUT', `/api/attendees/${row}`, { token: admin, body: { bought: true } })).status).toBe(200);
    const before = await state();
    const res = await returnTicket(row, owner.token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'contingentNotFound', message: MESSAGES.contingentNotFound });
    expect(await state()).toEqual(before);

    const pastEvent = await contingentEvent(1);
    const pastFan = await fresh();
    const pastRow = await requestTicket(pastFan, pastEvent);
    await t.db.updateTable('events').set({ date: '2020-03-01 15:30:00' }).where('id', '=', pastEvent).execute();
    const past = await returnTicket(pastRow, pastFan.token);
    expect(past.status).toBe(409);
    expect(past.body.code).toBe('eventIsPast');
  });

  it('lets an admin return a member’s ticket', async () => {
    const other = await contingentEvent(1);
    const row = await requestTicket(await fresh(), other);
    const res = await t.callTyped(ticketReturnedAnswer, 'PUT', `/api/tickets/${row}/return`, { token: admin });
    expect(res.offered).toBe(false);
  });
});
