import { MESSAGES, newId, SYNC_SCHEMAS, transportAnswer } from '@fankurve/shared';
import { boardingAnswer, fareAnswer } from '@fankurve/shared/collections/boardings/answers';
import type { BoardingDoc } from '@fankurve/shared/collections/boardings/collection';
import { boardingIdOf } from '@fankurve/shared/collections/boardings/rules';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { scheduleJobBy } from '../../../src/db/jobs.js';
import { FARE_JOB } from '../../../src/domain/events/fareSchedule.js';
import { createEventVia, createTestApp, type TestApp } from '../../helpers.js';

/*
 * The bus (docs/product.md, Bus): seat plans, seats, captains, boarding ticks (REST and sync) and the
 * fare, charged once by hand or at the departure. Bad input says what is wrong and changes nothing.
 */

type Person = { id: string; token: string };
type Wire = BoardingDoc & { _deleted: boolean };

let t: TestApp;
let admin: string;
let anna: Person;
let bert: Person;
let carl: Person;
let dora: Person;
let emil: Person;
let eventId: string;
let busId: string;
let carId: string;
const rows: Record<string, string> = {};

const put = (path: string, body: unknown, token: string | null = admin) => t.call('PUT', path, { token, body });
const plan = (body: unknown, token: string | null = admin, id = busId) => put(`/api/transports/${id}/seat-plan`, body, token);
const seat = (n: number | string, attendeeId: string | null, token: string | null = admin, id = busId) =>
  put(`/api/transports/${id}/seats/${n}`, { attendee_id: attendeeId }, token);
const captains = (ids: unknown, token: string | null = admin, id = busId) =>
  put(`/api/transports/${id}/captains`, { user_ids: ids }, token);
const tick = (attendeeId: string, onBoard: unknown, token: string | null, id = busId) =>
  put(`/api/transports/${id}/boarding/${attendeeId}`, { on_board: onBoard }, token);
const fare = (id = busId, token: string | null = admin) => t.call('POST', `/api/transports/${id}/charge-fare`, { token });
const transportOf = async (id = busId) =>
  (await t.call('GET', `/api/transports/event/${eventId}`, { token: admin })).body.transports.find(
    (transport: { id: string }) => transport.id === id,
  );
/** What a refused call must leave as it was: the bus's tables, the attendee rows, the ledger and the seq counter. */
const state = async () => ({
  transports: await t.db.selectFrom('transports').selectAll().orderBy('id').execute(),
  seats: await t.db.selectFrom('transport_seats').selectAll().orderBy('transport_id').orderBy('seat').execute(),
  captains: await t.db.selectFrom('transport_captains').selectAll().orderBy('transport_id').orderBy('user_id').execute(),
  boardings: await t.db.selectFrom('boardings').selectAll().orderBy('id').execute(),
  fares: await t.db.selectFrom('transport_fares').selectAll().orderBy('attendee_id').execute(),
  attendees: await t.db.selectFrom('attendees').selectAll().orderBy('id').execute(),
  ledger: await t.db.selectFrom('ledger').select('id').orderBy('id').execute(),
  counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
});
const rowOf = (id: string) => t.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const base = `/api/sync/boardings/${SYNC_SCHEMAS.boardings.version}`;
const pull = async (token: string) => {
  const res = await t.call('POST', `${base}/pull`, { token, body: { checkpoint: null, limit: 1000 } });
  expect(res.status).toBe(200);
  return res.body.documents as Wire[];
};
const push = async (token: string, rows: { assumedMasterState: unknown; newDocumentState: unknown }[]) => {
  const res = await t.call('POST', `${base}/push`, { token, body: rows });
  expect(res.status).toBe(200);
  return res.body as Wire[];
};
/** A tick as a captain's device makes it offline: the id derived from the pair, seq 0. */
const deviceTick = (attendeeId: string, onBoard: boolean, by: string, transportId = busId): BoardingDoc => ({
  id: boardingIdOf(transportId, attendeeId),
  event_id: eventId,
  transport_id: transportId,
  attendee_id: attendeeId,
  on_board: onBoard,
  by,
  created_at: '2030-04-02T06:00:00.000Z',
  updated_at: '2030-04-02T06:00:00.000Z',
  seq: 0,
});
const noticesOf = (userId: string) => t.db.selectFrom('notices').selectAll().where('user_id', '=', userId).execute();

async function attend(person: Person, body: Record<string, unknown> = { status: 'going' }): Promise<string> {
  const res = await t.call('POST', `/api/attendance/${eventId}`, { token: person.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const row = await t.db
    .selectFrom('attendees')
    .select('id')
    .where('event_id', '=', eventId)
    .where('user_id', '=', person.id)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  anna = await t.member('bus-anna');
  bert = await t.member('bus-bert');
  carl = await t.member('bus-carl');
  dora = await t.member('bus-dora');
  emil = await t.member('bus-emil');
  eventId = (await createEventVia(t, admin, { title: 'Hertha – Union (A)', date: '2030-04-02 18:30' })).id;
  rows.anna = await attend(anna);
  rows.bert = await attend(bert);
  rows.dora = await attend(dora);
  rows.emil = await attend(emil);
  rows.carl = await attend(carl, { status: 'maybe', needs_transport: false });
  const guest = await t.call('POST', '/api/guests', { token: anna.token, body: { event_id: eventId, guest_name: 'Zoe' } });
  expect(guest.status).toBe(201);
  rows.zoe = guest.body.guest.id;
  const bus = await t.call('POST', '/api/transports', {
    token: admin,
    body: {
      event_id: eventId,
      name: 'Bus',
      departure_location: 'Köpenick',
      price_per_seat: 15,
      departure_datetime: '2030-04-02 08:00',
    },
  });
  expect(bus.status).toBe(201);
  busId = bus.body.transport.id;
  const car = await t.call('POST', '/api/transports', {
    token: admin,
    body: { event_id: eventId, name: 'Auto', departure_location: 'Ostkreuz', is_price_tbd: true },
  });
  expect(car.status).toBe(201);
  carId = car.body.transport.id;
});
afterAll(() => t.close());

describe('the seat plan', () => {
  it('starts without a plan, admins choosing the seats, not charged at departure', async () => {
    const bus = await transportOf();
    expect(bus).toMatchObject({ seat_count: null, seat_rows: null, seats_per_row: null, seat_choice: 'admin' });
    expect(bus).toMatchObject({ charge_at_departure: false, captain_ids: [], seats: [] });
  });

  it('takes a number of seats, or rows with seats per row, and gives the option a new seq', async () => {
    const seq = async () =>
      Number((await t.db.selectFrom('transports').select('seq').where('id', '=', busId).executeTakeFirstOrThrow()).seq);
    const before = await seq();
    const answer = await t.callTyped(transportAnswer, 'PUT', `/api/transports/${busId}/seat-plan`, {
      token: admin,
      body: { seats: 50 },
    });
    expect(answer.transport).toMatchObject({ seat_count: 50, seat_rows: null, seats_per_row: null });
    expect(await seq()).toBeGreaterThan(before);
    const rowsPlan = await plan({ rows: 10, seats_per_row: 4 });
    expect(rowsPlan.status).toBe(200);
    expect(rowsPlan.body.transport).toMatchObject({ seat_count: 40, seat_rows: 10, seats_per_row: 4 });
  });

  it.each([
    ['no seats', { seats: 0 }],
    ['more than 100', { seats: 101 }],
    ['a fraction', { seats: 2.5 }],
    ['text', { seats: 'viele' }],
    ['31 rows', { rows: 31, seats_per_row: 4 }],
    ['7 seats a row', { rows: 2, seats_per_row: 7 }],
    ['rows without seats per row', { rows: 2 }],
    ['both kinds', { seats: 10, rows: 2, seats_per_row: 2 }],
    ['nothing', {}],
  ])('refuses %s with seatPlanInvalid and changes nothing', async (_name, body) => {
    const before = await state();
    const res = await plan(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'seatPlanInvalid', message: MESSAGES.seatPlanInvalid });
    expect(await state()).toEqual(before);
  });

  it("is the admins': a member is refused, an unknown option is not found", async () => {
    const before = await state();
    expect((await plan({ seats: 20 }, anna.token)).status).toBe(403);
    expect((await plan({ seats: 20 }, null)).status).toBe(401);
    expect((await plan({ seats: 20 }, admin, 'no-such')).body.code).toBe('transportNotFound');
    expect(await state()).toEqual(before);
  });
});

describe('seats', () => {
  it("gives a seat to a passenger, which reserves the row's seat", async () => {
    const res = await seat(1, rows.anna!);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.transport.seats).toEqual([
      { seat: 1, attendee_id: rows.anna, user_id: anna.id, guest_name: null, brought_by: null },
    ]);
    expect((await rowOf(rows.anna!)).transfer_status).toBe('reserved');
  });

  it('moves a passenger who gets another seat, one seat per passenger and option', async () => {
    expect((await seat(2, rows.anna!)).status).toBe(200);
    const bus = await transportOf();
    expect(bus.seats.map((taken: { seat: number }) => taken.seat)).toEqual([2]);
  });

  it.each([
    ['a seat outside the plan', 41, 400, 'seatOutsidePlan'],
    ['seat 0', 0, 400, 'seatOutsidePlan'],
    ['a seat that is no number', 'vorn', 400, 'seatOutsidePlan'],
    ['a taken seat', 2, 409, 'seatTaken'],
  ])('refuses %s and changes nothing', async (_name, number, status, code) => {
    const before = await state();
    const res = await seat(number, rows.bert!);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await state()).toEqual(before);
  });

  it('refuses someone not going with a seat needed, an unknown row, a bad body', async () => {
    const before = await state();
    expect((await seat(3, rows.carl!)).body.code).toBe('seatNotPassenger');
    expect((await seat(3, 'no-such-row')).status).toBe(404);
    expect((await put(`/api/transports/${busId}/seats/3`, { attendee_id: 7 })).status).toBe(400);
    expect((await put(`/api/transports/${busId}/seats/3`, {})).status).toBe(400);
    expect(await state()).toEqual(before);
  });

  it('lets a member choose nothing while the admin assigns the seats', async () => {
    const before = await state();
    const res = await seat(5, rows.bert!, bert.token);
    expect(res.status).toBe(403);
    expect(await state()).toEqual(before);
  });

  it('refuses a seat choice other than admin or members', async () => {
    const before = await state();
    const res = await put(`/api/transports/${busId}`, { seat_choice: 'first come' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('seatChoiceInvalid');
    expect(await state()).toEqual(before);
  });

  it('lets members choose a free seat for themselves and their guests once the admin says so', async () => {
    const changed = await put(`/api/transports/${busId}`, { seat_choice: 'members' });
    expect(changed.status).toBe(200);
    expect(changed.body.transport.seat_choice).toBe('members');
    expect((await seat(5, rows.bert!, bert.token)).status).toBe(200);
    expect((await rowOf(rows.bert!)).transfer_status).toBe('reserved');
    expect((await seat(6, rows.zoe!, anna.token)).status).toBe(200);
    const before = await state();
    expect((await seat(2, rows.bert!, bert.token)).body.code).toBe('seatTaken');
    expect((await seat(7, rows.anna!, bert.token)).status).toBe(403);
    expect((await seat(6, null, bert.token)).status).toBe(403);
    expect(await state()).toEqual(before);
    // Anna frees her guest's seat: back to outstanding, as it is on no option now.
    expect((await seat(6, null, anna.token)).status).toBe(200);
    expect((await rowOf(rows.zoe!)).transfer_status).toBe('outstanding');
    expect((await seat(6, rows.zoe!, anna.token)).status).toBe(200);
  });

  it('refuses to remove or shrink the plan below an assigned seat', async () => {
    const before = await state();
    const removed = await plan({ seats: null });
    expect(removed.status).toBe(409);
    expect(removed.body.code).toBe('seatPlanInUse');
    expect((await plan({ seats: 5 })).body.code).toBe('seatPlanInUse');
    expect(await state()).toEqual(before);
  });
});

describe('captains', () => {
  it('are set by an admin and shown on the option', async () => {
    const res = await captains([anna.id, dora.id, anna.id]);
    expect(res.status).toBe(200);
    expect([...res.body.transport.captain_ids].sort()).toEqual([anna.id, dora.id].sort());
  });

  it.each([
    ['an unknown user', ['no-such-user']],
    ['not a list', 'bus-anna'],
    ['eleven captains', Array.from({ length: 11 }, (_, i) => `id-${i}`)],
  ])('refuses %s with captainsInvalid and changes nothing', async (_name, ids) => {
    const before = await state();
    const res = await captains(ids);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('captainsInvalid');
    expect(await state()).toEqual(before);
  });

  it("are the admins' to set", async () => {
    const before = await state();
    expect((await captains([anna.id], anna.token)).status).toBe(403);
    expect(await state()).toEqual(before);
  });
});

describe('boarding over REST', () => {
  it('lets a captain tick a passenger on board, and an admin too', async () => {
    const answer = await t.callTyped(boardingAnswer, 'PUT', `/api/transports/${busId}/boarding/${rows.bert}`, {
      token: anna.token,
      body: { on_board: true },
    });
    expect(answer.boarding).toMatchObject({ id: boardingIdOf(busId, rows.bert!), on_board: true, by: anna.id });
    expect((await tick(rows.zoe!, true, admin)).status).toBe(200);
  });

  it('refuses a member who is no captain, someone who is no passenger, and a bad body', async () => {
    const before = await state();
    const refused = await tick(rows.anna!, true, carl.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('boardingNotAllowed');
    expect((await tick(rows.carl!, true, anna.token)).body.code).toBe('boardingNotPassenger');
    expect((await tick('no-such-row', true, anna.token)).status).toBe(404);
    expect((await tick(rows.anna!, 'ja', anna.token)).status).toBe(400);
    expect((await tick(rows.anna!, true, anna.token, 'no-such')).status).toBe(404);
    expect(await state()).toEqual(before);
  });
});

describe('boarding on the device', () => {
  it('makes two captains ticking one passenger offline one document, the later push winning', async () => {
    const first = await push(anna.token, [{ assumedMasterState: null, newDocumentState: deviceTick(rows.anna!, true, anna.id) }]);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ on_board: true, by: anna.id, _deleted: false });
    const second = await push(dora.token, [
      { assumedMasterState: null, newDocumentState: deviceTick(rows.anna!, false, dora.id) },
    ]);
    expect(second[0]).toMatchObject({ id: boardingIdOf(busId, rows.anna!), on_board: false, by: dora.id });
    const stored = await t.db.selectFrom('boardings').selectAll().where('attendee_id', '=', rows.anna!).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.on_board).toBe(0);
    // Anna's device, a pull later, ticks again: a change of the field it last had from the server.
    const master = second[0]!;
    const again = await push(anna.token, [{ assumedMasterState: master, newDocumentState: { ...master, on_board: true } }]);
    expect(again[0]).toMatchObject({ on_board: true, by: anna.id });
  });

  it("refuses a member who is no captain with a notice, and keeps the server's tick", async () => {
    const before = await state();
    const answer = await push(carl.token, [
      { assumedMasterState: null, newDocumentState: deviceTick(rows.emil!, true, carl.id) },
    ]);
    expect(answer[0]).toMatchObject({ id: boardingIdOf(busId, rows.emil!), _deleted: true });
    const notices = await noticesOf(carl.id);
    expect(notices.map((notice) => [notice.code, notice.action])).toEqual([['boardingNotAllowed', 'boarding.tick']]);
    const { counters: _c, ...rest } = before;
    const { counters: _d, ...after } = await state();
    expect(after).toEqual(rest);
  });

  it("refuses an id that is not the pair's", async () => {
    const answer = await push(anna.token, [
      { assumedMasterState: null, newDocumentState: { ...deviceTick(rows.emil!, true, anna.id), id: newId() } },
    ]);
    expect(answer[0]!._deleted).toBe(true);
    expect(await t.db.selectFrom('boardings').selectAll().where('attendee_id', '=', rows.emil!).execute()).toEqual([]);
  });

  it('is pulled by every member', async () => {
    const docs = await pull(carl.token);
    expect(
      docs
        .filter((doc) => !doc._deleted)
        .map((doc) => doc.attendee_id)
        .sort(),
    ).toEqual([rows.anna!, rows.bert!, rows.zoe!].sort());
  });
});

describe('the fare', () => {
  it('is refused while the price is to be announced', async () => {
    const before = await state();
    const res = await fare(carId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('fareNotSet');
    expect(await state()).toEqual(before);
  });

  it('charges every passenger once, a guest to their host, not one who cancelled before', async () => {
    // Emil takes seat 9 and then drops his answer: he keeps showing, struck through, but pays nothing.
    expect((await seat(9, rows.emil!, emil.token)).status).toBe(200);
    expect((await t.call('DELETE', `/api/attendance/${eventId}`, { token: emil.token })).status).toBe(200);
    const answer = await t.callTyped(fareAnswer, 'POST', `/api/transports/${busId}/charge-fare`, { token: admin });
    expect(answer).toMatchObject({ charged: 3, total: 45 });
    const charges = await t.db
      .selectFrom('ledger')
      .select(['user_id', 'amount_cents', 'description'])
      .where('kind', '=', 'charge')
      .where('event_id', '=', eventId)
      .orderBy('description')
      .execute();
    expect(charges).toEqual(
      expect.arrayContaining([
        { user_id: anna.id, amount_cents: 1500, description: 'Bus · Hertha – Union (A)' },
        { user_id: anna.id, amount_cents: 1500, description: 'Bus · Hertha – Union (A) (Zoe)' },
        { user_id: bert.id, amount_cents: 1500, description: 'Bus · Hertha – Union (A)' },
      ]),
    );
    expect(charges.some((entry) => entry.user_id === emil.id)).toBe(false);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'ledger.bulkCharge').execute();
    expect(audit.map((entry) => JSON.parse(entry.after!).target)).toContain(`fare:${busId}`);
  });

  it('charges nobody twice: only those who came since', async () => {
    const before = await state();
    const again = await fare();
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('fareNothingToCharge');
    expect(await state()).toEqual(before);
    expect((await seat(10, rows.dora!, dora.token)).status).toBe(200);
    const next = await fare();
    expect(next.body).toMatchObject({ charged: 1, total: 15 });
  });

  it("is the admins'", async () => {
    const before = await state();
    expect((await fare(busId, anna.token)).status).toBe(403);
    expect((await fare('no-such')).status).toBe(404);
    expect(await state()).toEqual(before);
  });
});

describe('the fare at departure', () => {
  afterEach(() => vi.useRealTimers());

  it('is charged by the job once the departure has come, once', async () => {
    const early = await t.call('POST', '/api/transports', {
      token: admin,
      body: {
        event_id: eventId,
        name: 'Frühbus',
        departure_location: 'Hauptbahnhof',
        price_per_seat: 12.5,
        departure_datetime: '2030-04-02 07:30',
        charge_at_departure: true,
      },
    });
    expect(early.status).toBe(201);
    expect(early.body.transport.charge_at_departure).toBe(true);
    const earlyId = early.body.transport.id as string;
    expect((await plan({ seats: 10 }, admin, earlyId)).status).toBe(200);
    expect((await seat(1, rows.bert!, admin, earlyId)).status).toBe(200);
    const job = () => t.db.selectFrom('jobs').selectAll().where('name', '=', FARE_JOB).executeTakeFirstOrThrow();
    // Due at the departure (07:30 in Berlin's summer time is 05:30 UTC), not before.
    await vi.waitFor(async () => expect((await job()).due_at! <= '2030-04-02T05:30:00.000Z').toBe(true));
    const charged = () => t.db.selectFrom('transport_fares').selectAll().where('transport_id', '=', earlyId).execute();
    expect(await charged()).toEqual([]);
    await t.runtime.jobs.tick();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2030-04-02T05:31:00.000Z') });
    for (let round = 0; round < 2; round++) {
      const since = new Date().toISOString();
      await scheduleJobBy(t.db, FARE_JOB, since);
      t.runtime.jobs.wake(new Date());
      await vi.waitFor(
        async () => {
          const row = await job();
          expect(row.last_run_at !== null && row.last_run_at >= since && row.claimed_by === null).toBe(true);
        },
        { timeout: 5_000, interval: 20 },
      );
    }
    const fares = await charged();
    expect(fares.map((row) => row.attendee_id)).toEqual([rows.bert]);
    const entries = await t.db
      .selectFrom('ledger')
      .select(['amount_cents', 'created_by'])
      .where('id', '=', fares[0]!.ledger_id)
      .execute();
    expect(entries).toEqual([{ amount_cents: 1250, created_by: null }]);
    const marked = await t.db
      .selectFrom('transports')
      .select('departure_charged_at')
      .where('id', '=', earlyId)
      .executeTakeFirstOrThrow();
    expect(marked.departure_charged_at).not.toBeNull();
  });
});

describe('the lists for the day', () => {
  it('show the seat numbers with the option', async () => {
    const csv = await t.app.request(`/api/events/${eventId}/export/transport.csv`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Transport;Abfahrt;Abfahrtsort;Platz;Name;Mitglied/Gast;Gast von;Antwort;Platzstatus');
    expect(lines).toContain('Bus;2030-04-02 08:00;Köpenick;2;bus-anna;Mitglied;;zugesagt;reserviert');
    expect(lines).toContain('Bus;2030-04-02 08:00;Köpenick;6;Zoe;Gast;bus-anna;zugesagt;reserviert');
  });
});
