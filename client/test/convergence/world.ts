import { attendeeSchema, type AttendeeDoc } from '@fankurve/shared';
import { boardingSchema, type BoardingDoc } from '@fankurve/shared/collections/boardings/collection';
import { rideSchema, rideSeatSchema, type RideDoc, type RideSeatDoc } from '@fankurve/shared/collections/rides/collection';
import { toAttendeeDoc } from '../../../server/src/sync/collections/attendees.js';
import { createTestApp, listen, type TestApp } from '../../../server/test/helpers.js';
import { firstValueFrom } from 'rxjs';
import { rowsOfEvents$ } from '../../src/data/collections/attendees.js';
import type { Outbox } from '../../src/data/outbox.js';
import { eventually, TestClient } from '../sync-clients.js';
import { traceSyncTraffic, TRACING, type TraceSink } from './trace.js';
import { DEVICE_MEMBER, DEVICES, EVENTS_PER_RUN, MEMBERS, PASSENGERS, type DeviceName, type MemberName } from './scenario.js';
import { kindOf } from '../../src/data/pushedGroup.js';

/*
 * The world every run shares: one real server, the admin, three members and their four devices
 * (each its own RxDB database replicating attendees, notices, rides, ride seats and boarding ticks
 * over HTTP, with events and transport options in its document store), and two passengers of the
 * bus without a device. A run works on fresh events of its own, so runs do not see each other's rows.
 */

/** The fields of an attendee document, as devices hold it and the server's pull sends it. */
export const ATTENDEE_FIELDS = Object.keys(attendeeSchema.properties) as (keyof AttendeeDoc)[];
export const RIDE_FIELDS = Object.keys(rideSchema.properties) as (keyof RideDoc)[];
export const RIDE_SEAT_FIELDS = Object.keys(rideSeatSchema.properties) as (keyof RideSeatDoc)[];
export const BOARDING_FIELDS = Object.keys(boardingSchema.properties) as (keyof BoardingDoc)[];

/** A transport option as a device must come to hold it: its id and seq (a new seq with every seat and captain change). */
export interface TransportStamp {
  id: string;
  seq: number;
}

/** The pushed documents of the rides and the bus (docs/architecture.md, Seats in rides; The bus) as the server holds them. */
export interface RideAndBusDocs {
  rides: RideDoc[];
  /** Every live ask; each member's devices hold those the member may see (`visibleSeats`). */
  seats: RideSeatDoc[];
  boardings: BoardingDoc[];
  transports: TransportStamp[];
}

export interface Notice {
  id: string;
  user_id: string;
  event_id: string | null;
  action: string | null;
  code: string;
}

/**
 * Tells which documents the data layer's writes touch (every write function adds the id to the
 * outbox first), and mirrors the outbox's ids so a report can name them.
 */
export class WriteTracker {
  private touched: string[] = [];
  readonly waiting = new Set<string>();

  constructor(outbox: Outbox) {
    const add = outbox.add.bind(outbox);
    const remove = outbox.delete.bind(outbox);
    outbox.add = (id) => {
      this.touched.push(id);
      this.waiting.add(id);
      add(id);
    };
    outbox.delete = (id) => {
      this.waiting.delete(id);
      remove(id);
    };
  }

  async track<T>(write: () => Promise<T>): Promise<{ ids: string[]; result: T }> {
    this.touched = [];
    const result = await write();
    return { ids: this.touched, result };
  }
}

export interface Device {
  name: DeviceName;
  member: MemberName;
  client: TestClient;
  writes: WriteTracker;
}

const RETRY_MS = 30;

type Server = Awaited<ReturnType<typeof listen>>;

export class World {
  /** Where the sync traffic goes when tracing (CONVERGENCE_TRACE=1): the current run's log. */
  traceSink: TraceSink | null = null;
  /** Tickets the ledger marked paid since the last look (the member's money covered them). */
  private settledByLedger: string[] = [];

  private constructor(
    readonly t: TestApp,
    private readonly server: Server,
    readonly adminToken: string,
    readonly members: Record<MemberName, { id: string; token: string }>,
    readonly devices: Record<DeviceName, Device>,
    /** The bus's passengers: accounts without a device, answering over REST. */
    readonly passengers: { id: string; token: string }[],
  ) {}

  static async start(): Promise<World> {
    const t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    const server = await listen(t);
    const adminToken = await t.adminToken();
    const members = {} as Record<MemberName, { id: string; token: string }>;
    for (const name of MEMBERS) members[name] = await t.member(name);
    const passengers = [];
    for (const name of PASSENGERS) passengers.push(await t.member(name));
    const tokens = await deviceTokens(t, members);
    const devices = {} as Record<DeviceName, Device>;
    for (const name of DEVICES) {
      // Two RxDB collections per device (attendees, and the group of the small pushed kinds: notices,
      // rides, ride_seats, boardings): eight open collections, under the open-source RxDB limit of 13.
      // Events and transports go to the document store (a ride's event date, a bus's captains).
      const client = await TestClient.connect(server.url, tokens[name], [
        'attendees',
        'notices',
        'events',
        'rides',
        'ride_seats',
        'transports',
        'boardings',
      ]);
      await retryQuickly(client);
      devices[name] = { name, member: DEVICE_MEMBER[name], client, writes: new WriteTracker(client.outbox) };
    }
    const world = new World(t, server, adminToken, members, devices, passengers);
    // The ledger marks a ticket paid when the member's credit covers it (docs/architecture.md, Ledger).
    t.runtime.deps.store.commits.subscribe((commit) => {
      for (const event of commit.events) {
        if (event.type === 'ticket.paid' && event.actorId === 'system') world.settledByLedger.push(event.attendeeId);
      }
    });
    if (TRACING) {
      const deviceOfToken = new Map(DEVICES.map((name) => [tokens[name], name]));
      traceSyncTraffic(
        (token) => deviceOfToken.get(token),
        () => world.traceSink,
      );
    }
    return world;
  }

  async createEvents(seed: number): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < EVENTS_PER_RUN; index++) {
      const res = await this.admin('POST', '/api/events', {
        title: `Run ${seed}: match ${index}`,
        date: '2031-05-03 15:30',
        location: 'Stadion',
      });
      if (res.status !== 201) throw new Error(`create event: ${res.status} ${JSON.stringify(res.body)}`);
      ids.push(res.body.event.id as string);
    }
    return ids;
  }

  /**
   * Takes the run's bought tickets back (through the admin's route, so devices hear of it), then
   * deletes its events: they are tombstoned with all their rows, and no debt of this run blocks the
   * next one (an event with bought tickets would be archived, its tickets and debts kept). Paid goes
   * too: a paid ticket no longer bought would leave its payment in the ledger as credit, which would
   * pay the member's next ticket (docs/architecture.md, Ledger).
   */
  async removeEvents(eventIds: readonly string[]): Promise<void> {
    const bought = await this.t.runtime.deps.store.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', 'in', [...eventIds])
      .where((eb) => eb.or([eb('bought', '=', 1), eb('paid', '=', 1)]))
      .where('deleted', '=', 0)
      .execute();
    for (const { id } of bought) await this.admin('PUT', `/api/attendees/${id}`, { bought: false, paid: false });
    for (const id of eventIds) await this.admin('DELETE', `/api/events/${id}`);
  }

  /** The tickets the ledger marked paid since the last call. */
  takeSettledByLedger(): string[] {
    return this.settledByLedger.splice(0);
  }

  admin(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
    return this.t.call(method, url, { token: this.adminToken, body });
  }

  /** The server's live attendee documents of the events, as its pull sends them. */
  async serverRows(eventIds: readonly string[]): Promise<AttendeeDoc[]> {
    const rows = await this.t.runtime.deps.store.db
      .selectFrom('attendees')
      .selectAll()
      .where('event_id', 'in', [...eventIds])
      .where('deleted', '=', 0)
      .execute();
    return rows.map((row) => visibleFields(toAttendeeDoc(row)));
  }

  async serverNotices(eventIds: readonly string[]): Promise<Notice[]> {
    return this.t.runtime.deps.store.db
      .selectFrom('notices')
      .select(['id', 'user_id', 'event_id', 'action', 'code'])
      .where('event_id', 'in', [...eventIds])
      .where('deleted', '=', 0)
      .execute();
  }

  async deviceRows(device: Device, eventIds: readonly string[]): Promise<AttendeeDoc[]> {
    // The device's own rows (RxDB) and the other members' (its document store).
    const rows = await firstValueFrom(rowsOfEvents$(device.client.db, device.client.docs, eventIds));
    return rows.map(visibleFields);
  }

  async deviceNotices(device: Device, eventIds: readonly string[]): Promise<string[]> {
    const docs = await kindOf(device.client.db, 'notices')
      .find({ selector: { event_id: { $in: [...eventIds] } } })
      .exec();
    return docs.map((doc) => doc.id);
  }

  /** The live rides, asks, ticks and transport options of the events, as the pulls send them. */
  async serverRideAndBus(eventIds: readonly string[]): Promise<RideAndBusDocs> {
    const db = this.t.runtime.deps.store.db;
    const events = [...eventIds];
    const rides = await db
      .selectFrom('rides as r')
      .innerJoin('events as e', 'e.id', 'r.event_id')
      .selectAll('r')
      .where('r.event_id', 'in', events)
      .where('r.deleted', '=', 0)
      .where('e.deleted', '=', 0)
      .where('e.archived', '=', 0)
      .execute();
    const seats = await db
      .selectFrom('ride_seats as s')
      .innerJoin('rides as r', 'r.id', 's.ride_id')
      .innerJoin('events as e', 'e.id', 's.event_id')
      .selectAll('s')
      .where('s.event_id', 'in', events)
      .where('s.deleted', '=', 0)
      .where('r.deleted', '=', 0)
      .where('e.deleted', '=', 0)
      .where('e.archived', '=', 0)
      .execute();
    const boardings = await db
      .selectFrom('boardings as b')
      .innerJoin('transports as t', 't.id', 'b.transport_id')
      .innerJoin('events as e', 'e.id', 'b.event_id')
      .selectAll('b')
      .where('b.event_id', 'in', events)
      .where('b.deleted', '=', 0)
      .where('t.deleted', '=', 0)
      .where('e.deleted', '=', 0)
      .where('e.archived', '=', 0)
      .execute();
    const transports = await db
      .selectFrom('transports as t')
      .innerJoin('events as e', 'e.id', 't.event_id')
      .select(['t.id', 't.seq'])
      .where('t.event_id', 'in', events)
      .where('t.deleted', '=', 0)
      .where('e.deleted', '=', 0)
      .execute();
    return {
      rides: rides.map((row) =>
        pick(RIDE_FIELDS, {
          ...row,
          drives_back: Boolean(Number(row.drives_back)),
          cost_share_cents: row.cost_share_cents === null ? null : Number(row.cost_share_cents),
          seats: Number(row.seats),
          seats_taken: Number(row.seats_taken),
          seq: Number(row.seq),
        }),
      ),
      seats: seats.map((row) => pick(RIDE_SEAT_FIELDS, { ...row, seats: Number(row.seats), seq: Number(row.seq) })),
      boardings: boardings.map((row) =>
        pick(BOARDING_FIELDS, { ...row, on_board: Boolean(Number(row.on_board)), by: row.by_id, seq: Number(row.seq) }),
      ),
      transports: transports.map((row) => ({ id: row.id, seq: Number(row.seq) })),
    };
  }

  /** The rides, asks, ticks and transport options of the events on the device. */
  async deviceRideAndBus(device: Device, eventIds: readonly string[]): Promise<RideAndBusDocs> {
    const { db, docs } = device.client;
    const selector = { selector: { event_id: { $in: [...eventIds] } } };
    const rides = await kindOf(db, 'rides').find(selector).exec();
    const seats = await kindOf(db, 'ride_seats').find(selector).exec();
    const boardings = await kindOf(db, 'boardings').find(selector).exec();
    const transports = (await docs.table('transports').toArray()).filter((doc) => eventIds.includes(doc.event_id));
    return {
      rides: rides.map((doc) => pick(RIDE_FIELDS, doc.toJSON() as RideDoc)),
      seats: seats.map((doc) => pick(RIDE_SEAT_FIELDS, doc.toJSON() as RideSeatDoc)),
      boardings: boardings.map((doc) => pick(BOARDING_FIELDS, doc.toJSON() as BoardingDoc)),
      transports: transports.map((doc) => ({ id: doc.id, seq: doc.seq })),
    };
  }

  memberIds(): Record<MemberName, string> {
    return Object.fromEntries(MEMBERS.map((name) => [name, this.members[name].id])) as Record<MemberName, string>;
  }

  /** A run that failed may leave ids in an outbox; the next run starts without them. */
  clearOutboxes(): void {
    for (const device of Object.values(this.devices)) {
      device.client.outbox.clear();
      device.writes.waiting.clear();
    }
  }

  allOnline(): void {
    for (const device of Object.values(this.devices)) if (device.client.offline) device.client.goOnline();
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.devices).map((device) => device.client.close()));
    await this.server.close();
    await this.t.close();
  }
}

/**
 * A run's offline windows last milliseconds: a device back online retries its failed push or pull
 * after RETRY_MS instead of TestClient's 150 ms, which would otherwise make up most of a run.
 */
async function retryQuickly(client: TestClient): Promise<void> {
  await eventually(() => {
    if (!client.handle.states.attendees) throw new Error('attendees not replicating yet');
  });
  for (const state of Object.values(client.handle.states)) state.retryTime = RETRY_MS;
}

/** Each device its own session; Anna's second one signs in a second later (a token is the same within a second). */
async function deviceTokens(t: TestApp, members: Record<MemberName, { token: string }>): Promise<Record<DeviceName, string>> {
  let laptop = members.anna.token;
  while (laptop === members.anna.token) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    laptop = await t.login('anna', 'member-pass');
  }
  return { annaPhone: members.anna.token, annaLaptop: laptop, ben: members.ben.token, cem: members.cem.token };
}

/**
 * The asks a member's devices hold (docs/architecture.md, Seats in rides, pull scope): those of
 * rides the member drives, their own, and once they hold an accepted ask, the ride's other accepted ones.
 */
export function visibleSeats(seats: readonly RideSeatDoc[], rides: readonly RideDoc[], memberId: string): RideSeatDoc[] {
  const driverOf = new Map(rides.map((ride) => [ride.id, ride.driver_id]));
  const acceptedIn = new Set(
    seats.filter((seat) => seat.passenger_id === memberId && seat.state === 'accepted').map((seat) => seat.ride_id),
  );
  return seats.filter(
    (seat) =>
      driverOf.get(seat.ride_id) === memberId ||
      seat.passenger_id === memberId ||
      (seat.state === 'accepted' && acceptedIn.has(seat.ride_id)),
  );
}

function pick<Doc>(fields: readonly (keyof Doc)[], doc: Record<string, unknown> | Doc): Doc {
  const source = doc as Record<string, unknown>;
  return Object.fromEntries(fields.map((field) => [field, source[field as string] ?? null])) as Doc;
}

function visibleFields(doc: AttendeeDoc): AttendeeDoc {
  return Object.fromEntries(ATTENDEE_FIELDS.map((field) => [field, doc[field] ?? null])) as unknown as AttendeeDoc;
}
