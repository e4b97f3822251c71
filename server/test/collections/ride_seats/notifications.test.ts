import { MEMBER_PUSH_TOPICS } from '@fankurve/shared/push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from '../../helpers.js';
import {
  checkVapid,
  decrypt,
  LocalPushService,
  newKeys,
  subscriptionOf,
  type Device,
  type Payload,
} from '../../push-endpoint.js';

/*
 * Web push of seats in rides (docs/architecture.md, "Web Push" and "Seats in rides"), end to end:
 * the real app sends to the real local push endpoint (push-endpoint.ts), which checks each message's
 * VAPID header and decrypts it. Every member switched every topic but `rides` off.
 */

const SUBJECT = 'mailto:rides-test@fankurve.example';
const PUBLIC_URL = 'https://fankurve.example';
const NAMES = ['driver', 'anna', 'ben', 'outsider'] as const;
type Name = (typeof NAMES)[number];
const ONLY_RIDES = Object.fromEntries(MEMBER_PUSH_TOPICS.map((topic) => [topic, topic === 'rides']));

let service: LocalPushService;
let t: TestApp;
let admin: string;
let serverKey: string;
let eventId: string;
const users = {} as Record<Name, { id: string; token: string }>;
const devices = {} as Record<Name, Device>;

beforeAll(async () => {
  service = await LocalPushService.start();
  t = await createTestApp({ VAPID_SUBJECT: SUBJECT, PUBLIC_URL, PUSH_ENDPOINT_HOSTS: '127.0.0.1' });
  t.runtime.deps.push.agent = service.agent();
  admin = await t.adminToken();
  for (const name of NAMES) {
    users[name] = await t.member(`rides-${name}`);
    const keys = newKeys(service, name);
    const res = await t.call('POST', '/api/fcm/token', {
      token: users[name].token,
      body: { token: subscriptionOf(keys), deviceName: 'Phone' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.call('PUT', '/api/fcm/topics', { token: users[name].token, body: { topics: ONLY_RIDES } })).status).toBe(200);
    devices[name] = { ...keys, token: users[name].token };
  }
  for (const name of ['anna', 'outsider'] as const)
    expect(
      (await t.call('PUT', `/api/auth/users/${users[name].id}`, { token: users[name].token, body: { language: 'en' } })).status,
    ).toBe(200);
  serverKey = (await t.call('GET', '/api/fcm/token/status', { token: admin })).body.data.publicKey as string;
  eventId = (await createEventVia(t, admin, { title: 'Hertha – Union (A)', date: '2030-04-02 18:30' })).id;
});
afterAll(async () => {
  await t.close();
  await service.close();
});

/** What each device received since the last call, as title and body, after every push went out. */
async function heard(): Promise<Partial<Record<Name, string[]>>> {
  await t.runtime.deps.push.idle();
  const byName: Partial<Record<Name, string[]>> = {};
  for (const name of NAMES) {
    const messages = service.received.filter((message) => message.deviceId === devices[name].id);
    if (messages.length === 0) continue;
    byName[name] = messages.map((message) => {
      checkVapid(message.headers.authorization as string | undefined, { serverKey, origin: service.origin, subject: SUBJECT });
      const payload = JSON.parse(decrypt(message.body, devices[name])) as Payload;
      expect(payload.notification.navigate).toBe(`${PUBLIC_URL}/events/${eventId}`);
      return `${payload.notification.title}: ${payload.notification.body}`;
    });
  }
  service.reset();
  return byName;
}

describe('web push of seats in rides', () => {
  it('tells the driver of asks and cancels, the passenger of the answer, and the passengers of a changed or cancelled ride', async () => {
    const offered = await t.call('POST', `/api/events/${eventId}/rides`, {
      token: users.driver.token,
      body: { seats: 3, departure_location: 'Ostkreuz', departure_datetime: '2030-04-02 15:00' },
    });
    expect(offered.status).toBe(201);
    const ride = offered.body.ride.id as string;
    expect(await heard()).toEqual({});

    const annas = await t.call('POST', `/api/rides/${ride}/seats`, { token: users.anna.token, body: { seats: 2 } });
    expect(annas.status).toBe(201);
    expect(await heard()).toEqual({
      driver: ['Neue Platzanfrage: rides-anna fragt 2 Plätze in deiner Fahrt zu Hertha – Union (A) an'],
    });

    const accepted = await t.call('PUT', `/api/rides/${ride}/seats/${annas.body.seat.id}`, {
      token: users.driver.token,
      body: { state: 'accepted' },
    });
    expect(accepted.status).toBe(200);
    expect(await heard()).toEqual({
      anna: ['Seat confirmed: rides-driver takes you to Hertha – Union (A): from Ostkreuz, 2 Apr 2030, 15:00'],
    });

    const bens = await t.call('POST', `/api/rides/${ride}/seats`, { token: users.ben.token, body: { seats: 1 } });
    expect(bens.status).toBe(201);
    await heard();
    // A changed note tells nobody; a new departure tells every passenger whose ask holds seats.
    expect((await t.call('PUT', `/api/rides/${ride}`, { token: users.driver.token, body: { note: 'Grünes Auto' } })).status).toBe(
      200,
    );
    expect(await heard()).toEqual({});
    expect(
      (await t.call('PUT', `/api/rides/${ride}`, { token: users.driver.token, body: { departure_datetime: '2030-04-02 14:30' } }))
        .status,
    ).toBe(200);
    expect(await heard()).toEqual({
      anna: ["Ride changed: rides-driver's ride to Hertha – Union (A): from Ostkreuz, 2 Apr 2030, 14:30"],
      ben: ['Fahrt geändert: Die Fahrt von rides-driver zu Hertha – Union (A): ab Ostkreuz, 02.04.2030, 14:30'],
    });

    expect((await t.call('DELETE', `/api/rides/${ride}/seats/${bens.body.seat.id}`, { token: users.ben.token })).status).toBe(
      200,
    );
    expect(await heard()).toEqual({
      driver: ['Platzanfrage zurückgezogen: rides-ben fährt nicht mehr mit zu Hertha – Union (A)'],
    });

    const late = await t.call('POST', `/api/rides/${ride}/seats`, { token: users.ben.token, body: { seats: 1 } });
    expect(
      (
        await t.call('PUT', `/api/rides/${ride}/seats/${late.body.seat.id}`, {
          token: users.driver.token,
          body: { state: 'declined' },
        })
      ).status,
    ).toBe(200);
    expect((await heard()).ben).toEqual(['Platzanfrage abgelehnt: rides-driver kann dich nicht mitnehmen zu Hertha – Union (A)']);

    // Cancelling the ride tells anna (accepted), not ben (declined), nor the driver who cancelled.
    expect((await t.call('DELETE', `/api/rides/${ride}`, { token: users.driver.token })).status).toBe(200);
    expect(await heard()).toEqual({ anna: ["Ride cancelled: rides-driver's ride to Hertha – Union (A) is cancelled"] });
  });
});
