import {
  adminUsersAnswer,
  debtsAnswer,
  errorAnswer,
  eventDetailAnswer,
  eventsAnswer,
  myTicketsAnswer,
  stadiumAnswer,
  stadiumInUseAnswer,
  userAnswer,
} from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * The REST answers (docs/architecture.md, "REST answers"): every route declares the schema of each
 * answer in the OpenAPI document, and real answers fit them. (Every test's `t.call` also checks its
 * answers against the declared schemas, server/test/answers.ts.)
 */

type Operation = { responses: Record<string, { content?: Record<string, { schema?: object }> }> };

/**
 * The sync routes (server/src/sync/routes.ts) name no answers yet; their schemas are ready in
 * shared/src/schemas/answers/sync.ts. Remove each line once its route declares them.
 */
const NOT_YET_DECLARED = new Set<string>([]);

describe('the OpenAPI document', () => {
  let t: TestApp;
  let operations: [string, Operation][];
  beforeAll(async () => {
    t = await createTestApp();
    const doc = await t.call('GET', '/api/openapi.json');
    expect(doc.status).toBe(200);
    operations = Object.entries(doc.body.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => [`${method} ${path}`, operation] as [string, Operation]),
    );
  });
  afterAll(() => t.close());

  const schemaOf = (response: { content?: Record<string, { schema?: object }> }) => {
    const media = Object.values(response.content ?? {});
    return media.length > 0 && media.every((type) => type.schema && Object.keys(type.schema).length > 0);
  };

  it('gives every 2xx answer of every route a content schema', () => {
    expect(operations.length).toBeGreaterThan(60);
    const missing = operations.flatMap(([name, operation]) =>
      Object.entries(operation.responses)
        .filter(([status, response]) => /^2/.test(status) && !schemaOf(response) && !NOT_YET_DECLARED.has(name))
        .map(([status]) => `${name} ${status}`),
    );
    expect(missing, `2xx answers without a schema: ${missing.join(', ')}`).toEqual([]);
  });

  it('still lists only routes that lack their answer schema', () => {
    const declared = operations
      .filter(
        ([name, operation]) =>
          NOT_YET_DECLARED.has(name) && Object.entries(operation.responses).some(([s, r]) => /^2/.test(s) && schemaOf(r)),
      )
      .map(([name]) => name);
    expect(declared, `declared now, remove from NOT_YET_DECLARED: ${declared.join(', ')}`).toEqual([]);
  });

  it('gives every 4xx and 5xx answer the error answer or a schema of its own', () => {
    const missing = operations.flatMap(([name, operation]) =>
      Object.entries(operation.responses)
        .filter(([status, response]) => /^[45]/.test(status) && !schemaOf(response))
        .map(([status]) => `${name} ${status}`),
    );
    expect(missing, `failures without a schema: ${missing.join(', ')}`).toEqual([]);
  });
});

describe('real answers fit their declared schemas', () => {
  let t: TestApp;
  let admin: string;
  let fan: { id: string; token: string };
  let eventId: string;
  let stadiumId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    fan = await t.member('schema-fan');
    const { stadium } = await t.callTyped(stadiumAnswer, 'POST', '/api/stadiums', {
      token: admin,
      status: 201,
      body: { team_name: 'Schema FC', stadium_name: 'Schema Arena', city: 'Berlin', ticket_price: 25 },
    });
    stadiumId = stadium.id;
    await t.call('POST', '/api/ticket-prices', {
      token: admin,
      body: { stadium_id: stadiumId, price: 19.5, ticket_type: 'Stehplatz' },
    });
    eventId = (await createEventVia(t, admin, { title: 'Schema Arena (H)', stadium_id: stadiumId })).id;
    await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'going', needs_ticket: true } });
    await t.call('POST', '/api/guests', { token: fan.token, body: { event_id: eventId, guest_name: 'Gast Eins' } });
    // A bought, unpaid ticket with a price and one with its price open: a debt, and my tickets in both lists.
    await t.call('PUT', `/api/tickets/event/${eventId}/user/${fan.id}/status`, {
      token: admin,
      body: { bought: true, price: 30 },
    });
    const detail = await t.callTyped(eventDetailAnswer, 'GET', `/api/events/${eventId}`, { token: admin });
    const guest = detail.attendees.find((row) => row.guest_name === 'Gast Eins')!;
    await t.call('PUT', `/api/attendees/${guest.id}`, { token: admin, body: { bought: true, is_price_tbd: true } });
  });
  afterAll(() => t.close());

  it('GET /api/events', async () => {
    const { events } = await t.callTyped(eventsAnswer, 'GET', '/api/events', { token: fan.token });
    expect(events.find((event) => event.id === eventId)).toMatchObject({ going_count: 2, stadium_name: 'Schema Arena' });
  });

  it('GET /api/events/{id}', async () => {
    const detail = await t.callTyped(eventDetailAnswer, 'GET', `/api/events/${eventId}`, { token: fan.token });
    expect(detail.event.id).toBe(eventId);
    expect(detail.attendees).toHaveLength(2);
    expect(detail.ticketPrices).toEqual([expect.objectContaining({ price: 19.5, ticket_type: 'Stehplatz' })]);
  });

  it('GET /api/tickets/my', async () => {
    const mine = await t.callTyped(myTicketsAnswer, 'GET', '/api/tickets/my', { token: fan.token });
    expect(mine.tickets).toHaveLength(2);
    expect(mine).toMatchObject({ unpaidTotal: 30, unpaidOpenPriceCount: 1 });
  });

  it('GET /api/tickets/debts', async () => {
    const debts = await t.callTyped(debtsAnswer, 'GET', '/api/tickets/debts', { token: admin });
    expect(debts.debts).toEqual([expect.objectContaining({ user_id: fan.id, total_debt: 30, open_price_count: 1 })]);
    expect(debts.unpaidTickets).toHaveLength(2);
  });

  it('GET /api/auth/users', async () => {
    const { users } = await t.callTyped(adminUsersAnswer, 'GET', '/api/auth/users', { token: admin });
    expect(users.find((user) => user.id === fan.id)).toMatchObject({ unpaid_count: 2, total_debt: 30 });
  });

  it('GET /api/auth/profile', async () => {
    const { user } = await t.callTyped(userAnswer, 'GET', '/api/auth/profile', { token: fan.token });
    expect(user).toMatchObject({ id: fan.id, username: 'schema-fan', scope: 'user' });
  });

  it('a refusal with a schema of its own, and the shared error answer', async () => {
    const inUse = await t.callTyped(stadiumInUseAnswer, 'DELETE', `/api/stadiums/${stadiumId}`, { token: admin, status: 409 });
    expect(inUse.events).toEqual([expect.objectContaining({ id: eventId })]);
    const refused = await t.callTyped(errorAnswer, 'GET', '/api/tickets/debts', { token: fan.token, status: 403 });
    expect(refused.code).toBe('adminRequired');
  });

  it('a typed call names the schema its route declares', async () => {
    await expect(t.callTyped(userAnswer, 'GET', '/api/tickets/my', { token: fan.token })).rejects.toThrow(/does not declare/);
  });
});
