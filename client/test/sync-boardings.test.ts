import type { NoticeDoc, TransportDoc } from '@fankurve/shared';
import type { BoardingDoc } from '@fankurve/shared/collections/boardings/collection';
import { boardingIdOf } from '@fankurve/shared/collections/boardings/rules';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { writes } from '../src/collections/boardings/data.js';
import { LocalRuleError } from '../src/data/device.js';
import { kindOf, PUSHED_GROUP } from '../src/data/pushedGroup.js';
import { createEventVia, createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/*
 * Boarding on captains' devices (docs/product.md, Bus; docs/architecture.md, The bus): a captain ticks
 * passengers without signal and the ticks land after reconnecting; two captains ticking the same
 * passengers converge on one document per passenger (the later push wins); a member who is no captain
 * is refused on the device, and a captain dropped meanwhile gets the refusal with a notice.
 */
describe('sync: boardings', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let counter = 0;
  let open: TestClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
  });

  // The open-source RxDB allows 13 collections per process: each test's devices go when it ends.
  afterEach(async () => {
    for (const device of open) await device.close();
    open = [];
  });

  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const device = async (token: string) => {
    const client = await TestClient.connect(server.url, token, ['events', 'transports', 'boardings', 'notices']);
    open.push(client);
    return client;
  };
  const on = (client: TestClient) => ({ db: client.db, docs: client.docs, outbox: client.outbox });
  const serverTicks = (transportId: string) =>
    t.db.selectFrom('boardings').selectAll().where('transport_id', '=', transportId).orderBy('attendee_id').execute();
  const ticksOn = async (client: TestClient, transportId: string) =>
    (
      await kindOf(client.db, 'boardings')
        .find({ selector: { transport_id: transportId } })
        .exec()
    )
      .map((doc) => doc.toJSON() as BoardingDoc)
      .sort((a, b) => a.attendee_id.localeCompare(b.attendee_id));

  /** An away match with a bus of 20 seats, two captains and three passengers seated, each captain with a device. */
  async function setUp() {
    const n = ++counter;
    const event = await createEventVia(t, admin, { title: `Bochum – Union ${n} (A)`, date: '2030-03-01 15:30' });
    const anna = await t.member(`bus-captain-a-${n}`);
    const dora = await t.member(`bus-captain-d-${n}`);
    const carl = await t.member(`bus-rider-c-${n}`);
    const bus = await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: event.id, name: 'Bus', departure_location: 'Köpenick', price_per_seat: 15 },
    });
    expect(bus.status).toBe(201);
    const transportId = bus.body.transport.id as string;
    expect((await t.call('PUT', `/api/transports/${transportId}/seat-plan`, { token: admin, body: { seats: 20 } })).status).toBe(
      200,
    );
    const passengers: string[] = [];
    for (const [i, person] of [anna, dora, carl].entries()) {
      const res = await t.call('POST', `/api/attendance/${event.id}`, { token: person.token, body: { status: 'going' } });
      expect(res.status).toBe(200);
      const row = await t.db
        .selectFrom('attendees')
        .select('id')
        .where('event_id', '=', event.id)
        .where('user_id', '=', person.id)
        .executeTakeFirstOrThrow();
      const seated = await t.call('PUT', `/api/transports/${transportId}/seats/${i + 1}`, {
        token: admin,
        body: { attendee_id: row.id },
      });
      expect(seated.status).toBe(200);
      passengers.push(row.id);
    }
    const set = await t.call('PUT', `/api/transports/${transportId}/captains`, {
      token: admin,
      body: { user_ids: [anna.id, dora.id] },
    });
    expect(set.status).toBe(200);
    const annaPhone = await device(anna.token);
    const doraPhone = await device(dora.token);
    for (const client of [annaPhone, doraPhone])
      await eventually(async () => expect((await client.stored('transports', transportId))?.captain_ids.length).toBe(2));
    const transport = (await annaPhone.stored('transports', transportId)) as TransportDoc;
    return { eventId: event.id as string, transport, anna, dora, carl, passengers, annaPhone, doraPhone };
  }

  it('a captain ticks offline; the ticks land after reconnecting and reach the other captain', async () => {
    const { transport, anna, passengers, annaPhone, doraPhone } = await setUp();
    await annaPhone.goOffline();
    const failed = annaPhone.nextPushFailure('boardings');
    const captain = { id: anna.id, isAdmin: false };
    await writes.tickBoarding(on(annaPhone), captain, transport, passengers[0]!, true);
    await writes.tickBoarding(on(annaPhone), captain, transport, passengers[2]!, true);
    await failed;
    // On the device at once, under the id derived from the pair; the server has not heard of it.
    expect((await ticksOn(annaPhone, transport.id)).map((tick) => [tick.id, tick.on_board])).toEqual(
      [passengers[0]!, passengers[2]!].sort().map((attendeeId) => [boardingIdOf(transport.id, attendeeId), true]),
    );
    expect(await serverTicks(transport.id)).toEqual([]);

    annaPhone.goOnline();
    await eventually(async () => expect((await serverTicks(transport.id)).map((row) => row.on_board)).toEqual([1, 1]));
    await annaPhone.inSync();
    expect(annaPhone.outbox.size).toBe(0);
    await eventually(async () =>
      expect((await ticksOn(doraPhone, transport.id)).map((tick) => tick.attendee_id)).toEqual(
        [passengers[0]!, passengers[2]!].sort(),
      ),
    );
  });

  it("two captains' offline ticks of the same passengers converge, the later push winning", async () => {
    const { transport, anna, dora, passengers, annaPhone, doraPhone } = await setUp();
    await annaPhone.goOffline();
    await doraPhone.goOffline();
    const annaFailed = annaPhone.nextPushFailure('boardings');
    const doraFailed = doraPhone.nextPushFailure('boardings');
    // Both tick passenger 1, and Dora takes hers back (he got off again); Anna ticks passenger 2, Dora passenger 3.
    await writes.tickBoarding(on(annaPhone), { id: anna.id, isAdmin: false }, transport, passengers[0]!, true);
    await writes.tickBoarding(on(annaPhone), { id: anna.id, isAdmin: false }, transport, passengers[1]!, true);
    await writes.tickBoarding(on(doraPhone), { id: dora.id, isAdmin: false }, transport, passengers[0]!, true);
    await writes.tickBoarding(on(doraPhone), { id: dora.id, isAdmin: false }, transport, passengers[0]!, false);
    await writes.tickBoarding(on(doraPhone), { id: dora.id, isAdmin: false }, transport, passengers[2]!, true);
    await Promise.all([annaFailed, doraFailed]);

    annaPhone.goOnline();
    await eventually(async () => expect(await serverTicks(transport.id)).toHaveLength(2));
    await annaPhone.inSync();
    doraPhone.goOnline();
    await eventually(async () => expect(await serverTicks(transport.id)).toHaveLength(3));
    await doraPhone.inSync();
    // One document per passenger on the server: passenger 1 ticked by both, Dora's push came last and wins.
    const rows = await serverTicks(transport.id);
    expect(rows.map((row) => [row.attendee_id, row.on_board])).toEqual(
      passengers.map((id, i) => [id, i === 0 ? 0 : 1] as const).sort((a, b) => a[0].localeCompare(b[0])),
    );
    expect(rows.find((row) => row.attendee_id === passengers[0])!.by_id).toBe(dora.id);
    // Both devices end with the server's documents.
    const serverView = rows.map((row) => ({
      id: row.id,
      attendee_id: row.attendee_id,
      on_board: row.on_board === 1,
      by: row.by_id,
      seq: Number(row.seq),
    }));
    for (const phone of [annaPhone, doraPhone])
      await eventually(async () =>
        expect(
          (await ticksOn(phone, transport.id)).map((tick) => ({
            id: tick.id,
            attendee_id: tick.attendee_id,
            on_board: tick.on_board,
            by: tick.by,
            seq: tick.seq,
          })),
        ).toEqual(serverView),
      );
    // A tick taken back on one device reaches the other.
    await writes.tickBoarding(on(annaPhone), { id: anna.id, isAdmin: false }, transport, passengers[1]!, false);
    await eventually(async () =>
      expect((await ticksOn(doraPhone, transport.id)).find((tick) => tick.attendee_id === passengers[1])?.on_board).toBe(false),
    );
  });

  it("a tick whose passenger the other captain's tick reached meanwhile changes that document", async () => {
    const { transport, anna, dora, passengers, annaPhone, doraPhone } = await setUp();
    const id = boardingIdOf(transport.id, passengers[0]!);
    await writes.tickBoarding(on(annaPhone), { id: anna.id, isAdmin: false }, transport, passengers[0]!, true);
    await eventually(async () => expect((await ticksOn(doraPhone, transport.id)).map((tick) => tick.id)).toEqual([id]));
    // Dora's device read before Anna's tick was pulled: it finds nothing and inserts the same id.
    const group = (doraPhone.db.collections as unknown as Record<string, { findOne: (query: unknown) => unknown }>)[
      PUSHED_GROUP
    ]!;
    const findOne = vi.spyOn(group, 'findOne').mockImplementationOnce(() => ({ exec: async () => null }));
    await writes.tickBoarding(on(doraPhone), { id: dora.id, isAdmin: false }, transport, passengers[0]!, false);
    expect(findOne).toHaveBeenCalledTimes(2);
    findOne.mockRestore();
    // One document, taken off by Dora, on her device, on the server and on Anna's.
    expect((await ticksOn(doraPhone, transport.id)).map((tick) => [tick.id, tick.on_board, tick.by])).toEqual([
      [id, false, dora.id],
    ]);
    await eventually(async () =>
      expect((await serverTicks(transport.id)).map((row) => [row.id, row.on_board, row.by_id])).toEqual([[id, 0, dora.id]]),
    );
    await eventually(async () =>
      expect((await ticksOn(annaPhone, transport.id)).map((tick) => [tick.id, tick.on_board])).toEqual([[id, false]]),
    );
  });

  it('refuses a member who is no captain on the device; a captain dropped meanwhile gets a notice', async () => {
    const { transport, anna, carl, passengers, annaPhone } = await setUp();
    const carlPhone = await device(carl.token);
    await expect(
      writes.tickBoarding(on(carlPhone), { id: carl.id, isAdmin: false }, transport, passengers[0]!, true),
    ).rejects.toEqual(new LocalRuleError('boardingNotAllowed'));
    expect(carlPhone.outbox.size).toBe(0);

    await annaPhone.goOffline();
    const failed = annaPhone.nextPushFailure('boardings');
    await writes.tickBoarding(on(annaPhone), { id: anna.id, isAdmin: false }, transport, passengers[1]!, true);
    await failed;
    // Meanwhile the admin names another captain: Anna's tick arrives refused.
    const set = await t.call('PUT', `/api/transports/${transport.id}/captains`, { token: admin, body: { user_ids: [carl.id] } });
    expect(set.status).toBe(200);
    annaPhone.goOnline();
    await eventually(async () => {
      const notices = (await kindOf(annaPhone.db, 'notices').find().exec()).map((doc) => doc.toJSON() as NoticeDoc);
      expect(notices.map((notice) => [notice.code, notice.action])).toEqual([['boardingNotAllowed', 'boarding.tick']]);
    });
    await eventually(async () => expect(await ticksOn(annaPhone, transport.id)).toEqual([]));
    expect(await serverTicks(transport.id)).toEqual([]);
  });
});
