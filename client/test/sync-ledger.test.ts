import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { myLedger$ } from '../src/data/collections/ledger.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/**
 * The ledger on a member's device (docs/product.md, Tickets and money): the member's own entries
 * only, pulled from the server, summed and ordered by the shared rules, and kept offline.
 */
describe('sync: ledger', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let mia: { id: string; token: string };
  let ben: { id: string; token: string };
  let phone: TestClient;

  const book = async (userId: string, kind: string, amount: number, date: string) => {
    const res = await t.call('POST', '/api/ledger/entries', { token: admin, body: { user_id: userId, kind, amount, date } });
    expect(res.status).toBe(201);
    return res.body.entry.id as string;
  };
  const onDevice = () => firstValueFrom(myLedger$(phone.docs, mia.id));

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
    mia = await t.member('mia');
    ben = await t.member('ben');
    phone = await TestClient.connect(server.url, mia.token, ['events', 'attendees', 'ledger']);
  });

  afterAll(async () => {
    await phone?.close();
    await server?.close();
    await t?.close();
  });

  it('pulls the member’s own entries only, with the balance and the running balance of the statement', async () => {
    await book(ben.id, 'charge', 99, '2030-01-01');
    const event = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Hertha BSC (A)', date: '2030-04-10 15:30', location: 'Olympiastadion' },
    });
    const added = await t.call('POST', `/api/events/${event.body.event.id}/attendees`, {
      token: admin,
      body: { user_id: mia.id },
    });
    expect(
      (await t.call('PUT', `/api/attendees/${added.body.attendance.id}`, { token: admin, body: { bought: true, price: 18.5 } }))
        .status,
    ).toBe(200);
    await book(mia.id, 'charge', 12, '2030-01-02');
    await eventually(async () => expect((await onDevice()).lines).toHaveLength(2));

    const ledger = await onDevice();
    expect(ledger.balanceCents).toBe(3050);
    // Only Mia's: Ben's charge never reaches her device.
    expect(await phone.docs.table('ledger').count()).toBe(2);
    // Ordered by day (the ticket counts from today, the charge from its day in 2030), each with the balance after it.
    expect(ledger.lines.map((line) => [line.kind, line.amount_cents, line.balance_after_cents])).toEqual([
      ['ticket', 1850, 1850],
      ['charge', 1200, 3050],
    ]);
    expect(ledger.lines[0]!.description).toBe('Hertha BSC (A)');
    const fromServer = await t.call('GET', '/api/ledger/my', { token: mia.token });
    expect(fromServer.body.balance * 100).toBe(ledger.balanceCents);
  });

  it('keeps the statement offline and takes the entries booked meanwhile once back online', async () => {
    await phone.goOffline();
    const payment = await book(mia.id, 'payment', 30.5, '2030-01-03');
    expect((await onDevice()).balanceCents).toBe(3050);

    phone.goOnline();
    await eventually(async () => expect((await onDevice()).balanceCents).toBe(0));
    const last = (await onDevice()).lines.at(-1)!;
    expect(last).toMatchObject({ id: payment, kind: 'payment', amount_cents: -3050, balance_after_cents: 0 });
  });

  it('shows a reversal and marks the entry it undoes', async () => {
    const charge = await book(mia.id, 'charge', 5, '2030-01-04');
    expect((await t.call('POST', `/api/ledger/entries/${charge}/reverse`, { token: admin })).status).toBe(201);
    await eventually(async () => {
      const ledger = await onDevice();
      expect(ledger.lines.find((line) => line.id === charge)?.reversed).toBe(true);
      expect(ledger.lines.some((line) => line.kind === 'reversal' && line.reverses_id === charge)).toBe(true);
    });
    expect((await onDevice()).balanceCents).toBe(0);
  });
});
