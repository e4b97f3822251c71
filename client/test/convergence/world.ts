import { attendeeSchema, type AttendeeDoc } from '@fankurve/shared';
import { toAttendeeDoc } from '../../../server/src/sync/collections/attendees.js';
import { createTestApp, listen, type TestApp } from '../../../server/test/helpers.js';
import { firstValueFrom } from 'rxjs';
import { rowsOfEvents$ } from '../../src/data/collections/attendees.js';
import type { Outbox } from '../../src/data/outbox.js';
import { eventually, TestClient } from '../sync-clients.js';
import { traceSyncTraffic, TRACING, type TraceSink } from './trace.js';
import { DEVICE_MEMBER, DEVICES, EVENTS_PER_RUN, MEMBERS, type DeviceName, type MemberName } from './scenario.js';
import { kindOf } from '../../src/data/pushedGroup.js';

/*
 * The world every run shares: one real server, the admin, three members and their four devices
 * (each its own RxDB database replicating attendees and notices over HTTP). A run works on fresh
 * events of its own, so runs do not see each other's rows.
 */

/** The fields of an attendee document, as devices hold it and the server's pull sends it. */
export const ATTENDEE_FIELDS = Object.keys(attendeeSchema.properties) as (keyof AttendeeDoc)[];

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
  ) {}

  static async start(): Promise<World> {
    const t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    const server = await listen(t);
    const adminToken = await t.adminToken();
    const members = {} as Record<MemberName, { id: string; token: string }>;
    for (const name of MEMBERS) members[name] = await t.member(name);
    const tokens = await deviceTokens(t, members);
    const devices = {} as Record<DeviceName, Device>;
    for (const name of DEVICES) {
      // Two collections per device: eight open collections, under the open-source RxDB limit of 13.
      const client = await TestClient.connect(server.url, tokens[name], ['attendees', 'notices']);
      await retryQuickly(client);
      devices[name] = { name, member: DEVICE_MEMBER[name], client, writes: new WriteTracker(client.outbox) };
    }
    const world = new World(t, server, adminToken, members, devices);
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

function visibleFields(doc: AttendeeDoc): AttendeeDoc {
  return Object.fromEntries(ATTENDEE_FIELDS.map((field) => [field, doc[field] ?? null])) as unknown as AttendeeDoc;
}
