import { MESSAGES, newId } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, GENERIC, type BodyRoute } from './bad-input-cases.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Bad input for every match-day route that takes a body (event edit, the admin's attendee table,
 * guests, transports, stadiums, ticket prices): each answers 4xx with `{ success: false, message }`
 * (the texts of docs/product.md, Error texts), never 500, and nothing in the database changes.
 */

let t: TestApp;
let admin: string;
let fan: { id: string; token: string };
let pendingId: string;
let eventId: string;
let attendeeId: string;
let guestId: string;
let transportId: string;
let stadiumId: string;
let foreignPriceId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('md-fan');
  pendingId = (
    await t.call('POST', '/api/auth/register', {
      body: { username: 'md-pending', email: 'md-pending@example.org', password: 'abcd' },
    })
  ).body.user.id;
  stadiumId = (
    await t.call('POST', '/api/stadiums', { token: admin, body: { team_name: 'Team', stadium_name: 'Arena', city: 'Town' } })
  ).body.stadium.id;
  const elsewhere = (
    await t.call('POST', '/api/stadiums', { token: admin, body: { team_name: 'Other', stadium_name: 'Park', city: 'City' } })
  ).body.stadium.id;
  foreignPriceId = (
    await t.call('POST', '/api/ticket-prices', { token: admin, body: { stadium_id: elsewhere, price: 5, ticket_type: 'x' } })
  ).body.ticketPrice.id;
  eventId = (await createEventVia(t, fan.token, { title: 'Bad match-day input (A)', stadium_id: stadiumId })).id;
  attendeeId = (await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'going' } })).body
    .attendance.id;
  guestId = (await t.call('POST', '/api/guests', { token: fan.token, body: { event_id: eventId, guest_name: 'Guest' } })).body
    .guest.id;
  transportId = (
    await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: eventId, name: 'Bus', departure_location: 'Köpenick', price_per_seat: 10 },
    })
  ).body.transport.id;
});
afterAll(() => t.close());

/** Every row of the tables these routes write, to prove a refused request changed nothing. */
async function snapshot() {
  const db = t.runtime.deps.store.db;
  return Promise.all([
    db.selectFrom('events').selectAll().orderBy('id').execute(),
    db.selectFrom('attendees').selectAll().orderBy('id').execute(),
    db.selectFrom('transports').selectAll().orderBy('id').execute(),
    db.selectFrom('stadiums').selectAll().orderBy('id').execute(),
    db.selectFrom('stadium_ticket_prices').selectAll().orderBy('id').execute(),
    db.selectFrom('counters').selectAll().execute(),
  ]);
}

const ROUTES: BodyRoute[] = [
  {
    name: 'PUT /api/events/{id}',
    method: 'PUT',
    url: () => `/api/events/${eventId}`,
    token: () => fan.token,
    valid: () => ({ title: 'Renamed (A)' }),
    bad: [
      ['a blank title', { title: '  ' }, MESSAGES.titleRequired],
      ['a title that is a number', { title: 3 }, MESSAGES.titleRequired],
      ['a date that is no date', { date: 'soon' }, MESSAGES.dateRequired],
      ['30 February', { date: '2030-02-30 15:30' }, MESSAGES.dateRequired],
      ['a blank location', { location: '' }, MESSAGES.locationRequired],
      ['a negative price', { ticket_price: -0.01 }, MESSAGES.priceInvalid],
      ['a price as text', { ticket_price: '5' }, MESSAGES.priceInvalid],
      ['an unknown stadium', { stadium_id: newId() }, MESSAGES.stadiumNotFound],
      ['a stadium that is a number', { stadium_id: 5 }, null],
    ],
  },
  {
    name: 'POST /api/events/{id}/attendees',
    method: 'POST',
    url: () => `/api/events/${eventId}/attendees`,
    token: () => admin,
    valid: () => ({ user_id: newId() }),
    bad: [
      ['no user', {}, MESSAGES.selectUser],
      ['an empty user', { user_id: '' }, MESSAGES.selectUser],
      ['a user that is a number', { user_id: 1 }, MESSAGES.selectUser],
      ['an unknown user', { user_id: newId() }, MESSAGES.userNotFound],
      ['a pending user', { user_id: 'PENDING' }, MESSAGES.userNotActive],
      ['a member who attends', { user_id: 'FAN' }, MESSAGES.alreadyAttending],
      ['an unknown status', { user_id: 'FAN', status: 'yes' }, MESSAGES.invalidInput],
      ['both ticket flags', { user_id: 'PENDING', needs_ticket: true, has_ticket: true }, null],
      ['a flag as text', { user_id: 'FAN', needs_transport: 'no' }, null],
    ],
  },
  {
    name: 'PUT /api/attendance/{eventId}/user/{userId}/transfer-status',
    method: 'PUT',
    url: () => `/api/attendance/${eventId}/user/${fan.id}/transfer-status`,
    token: () => admin,
    valid: () => ({ transfer_status: 'reserved' }),
    bad: [
      ['no status', {}, MESSAGES.invalidInput],
      ['an unknown status', { transfer_status: 'booked' }, MESSAGES.invalidInput],
      ['null', { transfer_status: null }, MESSAGES.invalidInput],
      ['a number', { transfer_status: 2 }, MESSAGES.invalidInput],
    ],
  },
  {
    name: 'PUT /api/attendees/{attendeeId}',
    method: 'PUT',
    url: () => `/api/attendees/${attendeeId}`,
    token: () => admin,
    valid: () => ({ bought: true }),
    bad: [
      ['bought as text', { bought: 'yes' }, null],
      ['a negative price', { price: -1 }, MESSAGES.priceInvalid],
      ['an unknown field', { seq: 1 }, null],
      ['an unknown payer', { paid_by: newId() }, MESSAGES.invalidPayer],
      ['a payer that is a number', { paid_by: 7 }, MESSAGES.invalidPayer],
      ["another stadium's price option", { ticket_price_id: 'FOREIGN' }, MESSAGES.ticketPriceNotForStadium],
      ['free and TBD', { is_free: true, is_price_tbd: true }, MESSAGES.priceChoiceExclusive],
      ['free with a price', { is_free: true, price: 3 }, MESSAGES.priceChoiceExclusive],
      ['an unknown transfer status', { transfer_status: 'seat' }, MESSAGES.invalidInput],
      ['both ticket flags', { needs_ticket: true, has_ticket: true }, MESSAGES.hasTicketAndNeedsTicket],
    ],
  },
  {
    name: 'PUT /api/tickets/event/{eventId}/user/{userId}/status',
    method: 'PUT',
    url: () => `/api/tickets/event/${eventId}/user/${fan.id}/status`,
    token: () => admin,
    valid: () => ({ paid: true }),
    bad: [
      ['paid as a number', { paid: 1 }, null],
      ['a price as text', { price: '10' }, MESSAGES.priceInvalid],
      ['TBD with a price', { is_price_tbd: true, price: 10 }, MESSAGES.priceChoiceExclusive],
      ["another stadium's price option", { ticket_price_id: 'FOREIGN' }, MESSAGES.ticketPriceNotForStadium],
    ],
  },
  {
    name: 'POST /api/guests',
    method: 'POST',
    url: () => '/api/guests',
    token: () => fan.token,
    valid: () => ({ event_id: eventId, guest_name: 'Valid guest' }),
    bad: [
      ['no fields', {}, MESSAGES.guestNameRequired],
      ['a blank name', { event_id: 'EVENT', guest_name: '   ' }, MESSAGES.guestNameRequired],
      ['a name that is a number', { event_id: 'EVENT', guest_name: 5 }, MESSAGES.guestNameRequired],
      ['a name over 100 characters', { event_id: 'EVENT', guest_name: 'n'.repeat(101) }, MESSAGES.invalidInput],
      ['no event', { guest_name: 'Paul' }, MESSAGES.invalidInput],
      ['an unknown event', { event_id: newId(), guest_name: 'Paul' }, MESSAGES.eventNotFound],
      ['an unknown status', { event_id: 'EVENT', guest_name: 'Paul', status: 'GOING' }, MESSAGES.invalidInput],
      [
        'both ticket flags',
        { event_id: 'EVENT', guest_name: 'Paul', needs_ticket: true, has_ticket: true },
        MESSAGES.hasTicketAndNeedsTicket,
      ],
      ["another member's guest", { event_id: 'EVENT', guest_name: 'Paul', brought_by: 'PENDING' }, MESSAGES.forbidden],
    ],
  },
  {
    name: 'PUT /api/guests/{id}',
    method: 'PUT',
    url: () => `/api/guests/${guestId}`,
    token: () => fan.token,
    valid: () => ({ guest_name: 'Renamed' }),
    bad: [
      ['a blank name', { guest_name: '' }, MESSAGES.guestNameRequired],
      ['an unknown status', { status: 'no' }, MESSAGES.invalidInput],
      ['both ticket flags', { needs_ticket: true, has_ticket: true }, MESSAGES.hasTicketAndNeedsTicket],
      ['an admin field', { paid: true }, null],
    ],
  },
  {
    name: 'POST /api/transports',
    method: 'POST',
    url: () => '/api/transports',
    token: () => admin,
    valid: () => ({ event_id: eventId, name: 'Car', departure_location: 'Here', price_per_seat: 5 }),
    bad: [
      ['no fields', {}, MESSAGES.transportNameRequired],
      ['no departure location', { event_id: 'EVENT', name: 'Car', price_per_seat: 5 }, MESSAGES.departureLocationRequired],
      ['no price', { event_id: 'EVENT', name: 'Car', departure_location: 'Here' }, MESSAGES.seatPriceInvalid],
      [
        'a negative price',
        { event_id: 'EVENT', name: 'Car', departure_location: 'Here', price_per_seat: -1 },
        MESSAGES.seatPriceInvalid,
      ],
      [
        'a fare with fractional cents',
        { event_id: 'EVENT', name: 'Car', departure_location: 'Here', price_per_seat: 12.345 },
        MESSAGES.moneyTooPrecise,
      ],
      [
        'free and TBD',
        { event_id: 'EVENT', name: 'Car', departure_location: 'Here', is_free: true, is_price_tbd: true },
        MESSAGES.priceChoiceExclusive,
      ],
      [
        'a bad departure',
        { event_id: 'EVENT', name: 'Car', departure_location: 'Here', is_free: true, departure_datetime: 'noon' },
        MESSAGES.departureInvalid,
      ],
      ['no event', { name: 'Car', departure_location: 'Here', is_free: true }, MESSAGES.invalidInput],
      ['an unknown event', { event_id: newId(), name: 'Car', departure_location: 'Here', is_free: true }, MESSAGES.eventNotFound],
    ],
  },
  {
    name: 'PUT /api/transports/{id}',
    method: 'PUT',
    url: () => `/api/transports/${transportId}`,
    token: () => admin,
    valid: () => ({ name: 'Renamed bus' }),
    bad: [
      ['a blank name', { name: ' ' }, MESSAGES.transportNameRequired],
      ['a null price', { price_per_seat: null }, MESSAGES.seatPriceInvalid],
      ['a fare with fractional cents', { price_per_seat: 9.999 }, MESSAGES.moneyTooPrecise],
      ['free and TBD', { is_free: true, is_price_tbd: true }, MESSAGES.priceChoiceExclusive],
      ['a bad departure', { departure_datetime: '2030-02-30 08:00' }, MESSAGES.departureInvalid],
      ['free as text', { is_free: 'yes' }, null],
    ],
  },
  {
    name: 'POST /api/stadiums',
    method: 'POST',
    url: () => '/api/stadiums',
    token: () => admin,
    valid: () => ({ team_name: 'T', stadium_name: 'S', city: 'C' }),
    bad: [
      ['no fields', {}, MESSAGES.teamNameRequired],
      ['no stadium name', { team_name: 'T', city: 'C' }, MESSAGES.stadiumNameRequired],
      ['a blank city', { team_name: 'T', stadium_name: 'S', city: ' ' }, MESSAGES.cityRequired],
      ['a negative capacity', { team_name: 'T', stadium_name: 'S', city: 'C', capacity: -1 }, MESSAGES.capacityInvalid],
      [
        'a fractional guest block',
        { team_name: 'T', stadium_name: 'S', city: 'C', guest_block_capacity: 0.5 },
        MESSAGES.capacityInvalid,
      ],
      ['a negative price', { team_name: 'T', stadium_name: 'S', city: 'C', ticket_price: -1 }, MESSAGES.priceInvalid],
      ['an address that is a number', { team_name: 'T', stadium_name: 'S', city: 'C', address: 12 }, null],
    ],
  },
  {
    name: 'PUT /api/stadiums/{id}',
    method: 'PUT',
    url: () => `/api/stadiums/${stadiumId}`,
    token: () => admin,
    valid: () => ({ city: 'Elsewhere' }),
    bad: [
      ['a blank team name', { team_name: '' }, MESSAGES.teamNameRequired],
      ['a capacity as text', { capacity: '10' }, MESSAGES.capacityInvalid],
      ['a price as text', { ticket_price: 'tbd' }, MESSAGES.priceInvalid],
    ],
  },
  {
    name: 'POST /api/ticket-prices',
    method: 'POST',
    url: () => '/api/ticket-prices',
    token: () => admin,
    valid: () => ({ stadium_id: stadiumId, price: 10, ticket_type: 'Steh' }),
    bad: [
      ['no fields', {}, MESSAGES.fillAllFields],
      ['no price', { stadium_id: 'STADIUM', ticket_type: 'Steh' }, MESSAGES.fillAllFields],
      ['no type', { stadium_id: 'STADIUM', price: 10 }, MESSAGES.fillAllFields],
      ['a blank type', { stadium_id: 'STADIUM', price: 10, ticket_type: ' ' }, MESSAGES.fillAllFields],
      ['a price as text', { stadium_id: 'STADIUM', price: '10', ticket_type: 'Steh' }, MESSAGES.fillAllFields],
      ['a negative price', { stadium_id: 'STADIUM', price: -1, ticket_type: 'Steh' }, MESSAGES.priceInvalid],
      ['an unknown stadium', { stadium_id: newId(), price: 1, ticket_type: 'Steh' }, MESSAGES.stadiumNotFound],
    ],
  },
];

/** Placeholders in the bad bodies that only exist once the fixtures are made. */
function resolve(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const ids: Record<string, () => string> = {
    EVENT: () => eventId,
    FAN: () => fan.id,
    PENDING: () => pendingId,
    FOREIGN: () => foreignPriceId,
    STADIUM: () => stadiumId,
  };
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' && ids[v] ? ids[v]() : v]));
}

describe.each(ROUTES)('$name', (route) => {
  it.each(route.bad)('refuses %s', async (_label, body, message) => {
    const before = await snapshot();
    const res = await t.call(route.method, route.url(), { token: route.token(), body: resolve(body) });
    expectRefusal(res, null, message);
    expect(res.status).not.toBe(413);
    expect(await snapshot()).toEqual(before);
  });

  it.each(GENERIC)('refuses %s', async (_label, send, status, message) => {
    const before = await snapshot();
    const { raw, headers } = send(route);
    const res = await t.call(route.method, route.url(), { token: route.token(), raw, headers });
    expectRefusal(res, status, message);
    expect(await snapshot()).toEqual(before);
  });
});

describe('bad path parameters', () => {
  const long = 'x'.repeat(65);
  it.each([
    ['PUT', () => `/api/events/${long}`, { title: 'x' }],
    ['DELETE', () => `/api/events/${long}`, undefined],
    ['DELETE', () => `/api/events/${long}/image`, undefined],
    ['PUT', () => `/api/events/${long}/clear-updated`, undefined],
    ['POST', () => `/api/events/${long}/attendees`, { user_id: 'x' }],
    ['DELETE', () => `/api/attendance/${eventId}/user/${long}`, undefined],
    ['PUT', () => `/api/attendees/${long}`, { bought: true }],
    ['PUT', () => `/api/guests/${long}`, { guest_name: 'x' }],
    ['DELETE', () => `/api/guests/${long}`, undefined],
    ['GET', () => `/api/transports/event/${long}`, undefined],
    ['PUT', () => `/api/transports/${long}`, { name: 'x' }],
    ['DELETE', () => `/api/transports/${long}`, undefined],
    ['GET', () => `/api/stadiums/${long}`, undefined],
    ['PUT', () => `/api/stadiums/${long}`, { city: 'x' }],
    ['DELETE', () => `/api/stadiums/${long}`, undefined],
    ['GET', () => `/api/ticket-prices/stadium/${long}`, undefined],
    ['DELETE', () => `/api/ticket-prices/${long}`, undefined],
  ] as const)('%s with an over-long id answers 400', async (method, url, body) => {
    const before = await snapshot();
    const res = await t.call(method, url(), { token: admin, body });
    expectRefusal(res, 400, null);
    expect(await snapshot()).toEqual(before);
  });
});
