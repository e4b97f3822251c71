import type { AttendeeDoc } from '@fankurve/shared';
import { sameValue } from './model.js';
import {
  ATTENDEE_FIELDS,
  BOARDING_FIELDS,
  RIDE_FIELDS,
  RIDE_SEAT_FIELDS,
  visibleSeats,
  type Device,
  type Notice,
  type RideAndBusDocs,
  type World,
} from './world.js';

/*
 * The end of a run: with every device online, each must come to hold exactly the server's attendee
 * rows and notices of the run's events, its rides, the asks its member may see, the boarding ticks
 * and the transport options (their seq), and have nothing left in its outbox, the same state seen
 * on two polls in a row (so a conflict answer still under way cannot slip through).
 */

const POLL_MS = 10;
/** How long a device may hold the server's state with ids still in its outbox before that counts as a leak. */
const OUTBOX_GRACE_MS = 300;

export interface ServerState extends RideAndBusDocs {
  rows: AttendeeDoc[];
  notices: Notice[];
}

export type Settled = { ok: true; state: ServerState } | { ok: false; kind: string; reason: string };

type Label = (id: string) => string;

export async function settle(world: World, eventIds: string[], label: Label, timeoutMs: number): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  let previous: string | null = null;
  let equalWithOutboxSince: number | null = null;
  for (;;) {
    const state = await serverState(world, eventIds);
    const fingerprint = JSON.stringify(state);
    const equal = (await differencesFrom(world, eventIds, state, label, false)).length === 0;
    const waiting = outboxesWaiting(world, label);
    if (equal && !waiting && fingerprint === previous) return { ok: true, state };
    previous = equal ? fingerprint : null;
    equalWithOutboxSince = equal && waiting ? (equalWithOutboxSince ?? Date.now()) : null;
    if (equalWithOutboxSince !== null && Date.now() - equalWithOutboxSince > OUTBOX_GRACE_MS) {
      return {
        ok: false,
        kind: 'outbox keeps ids',
        reason: `every device holds the server's state, but ${waiting} (no push takes them out)`,
      };
    }
    if (Date.now() > deadline) {
      const all = await differencesFrom(world, eventIds, state, label, true);
      const reason = `not converged after ${timeoutMs}ms:\n    ${[...all, waiting ?? ''].filter(Boolean).join('\n    ')}`;
      return { ok: false, kind: 'not converged', reason };
    }
    await sleep(POLL_MS);
  }
}

/** Null when every outbox is empty; else which ids wait where. */
function outboxesWaiting(world: World, label: Label): string | null {
  const full = Object.values(world.devices).filter((device) => device.client.outbox.size > 0);
  if (full.length === 0) return null;
  return full.map((device) => `${device.name}'s outbox keeps ${[...device.writes.waiting].map(label).join(', ')}`).join('; ');
}

/** Whether every online device came to hold the server's rows of the events within the time. */
export async function devicesCaughtUp(world: World, eventIds: string[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const online = Object.values(world.devices).filter((device) => !device.client.offline);
  const label = (id: string) => id;
  for (;;) {
    const rows = (await world.serverRows(eventIds)).sort(byId);
    const others = await world.serverRideAndBus(eventIds);
    const behind = await Promise.all(
      online.map(
        async (device) =>
          rowsDifference(rows, await world.deviceRows(device, eventIds), label) ??
          rideAndBusDifference(world, device, others, await world.deviceRideAndBus(device, eventIds), label),
      ),
    );
    if (behind.every((difference) => difference === null)) return true;
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
}

async function serverState(world: World, eventIds: string[]): Promise<ServerState> {
  const rows = (await world.serverRows(eventIds)).sort(byId);
  const notices = (await world.serverNotices(eventIds)).sort(byId);
  const others = await world.serverRideAndBus(eventIds);
  return {
    rows,
    notices,
    rides: others.rides.sort(byId),
    seats: others.seats.sort(byId),
    boardings: others.boardings.sort(byId),
    transports: others.transports.sort(byId),
  };
}

/** What keeps the devices from the server's state; with `all`, every device's differences, else the first. */
async function differencesFrom(
  world: World,
  eventIds: string[],
  server: ServerState,
  label: Label,
  all: boolean,
): Promise<string[]> {
  const found: string[] = [];
  for (const device of Object.values(world.devices)) {
    const difference = await differenceOf(world, device, eventIds, server, label);
    if (difference) found.push(`${device.name}: ${difference}`);
    if (found.length > 0 && !all) break;
  }
  return found;
}

async function differenceOf(
  world: World,
  device: Device,
  eventIds: string[],
  server: ServerState,
  label: Label,
): Promise<string | null> {
  const rows = await world.deviceRows(device, eventIds);
  const rowDifference = rowsDifference(server.rows, rows, label);
  if (rowDifference) return rowDifference;
  const otherDifference = rideAndBusDifference(world, device, server, await world.deviceRideAndBus(device, eventIds), label);
  if (otherDifference) return otherDifference;
  const memberId = world.members[device.member].id;
  const expected = server.notices.filter((notice) => notice.user_id === memberId).map((notice) => notice.id);
  const held = await world.deviceNotices(device, eventIds);
  if (!sameValue(expected.sort(), held.sort())) return `notices: ${held.length} on the device, ${expected.length} on the server`;
  return null;
}

function rowsDifference(server: AttendeeDoc[], device: AttendeeDoc[], label: Label): string | null {
  return docsDifference(ATTENDEE_FIELDS, server, device, label);
}

/** The rides, the asks the device's member may see, the ticks and the transport options' seqs. */
function rideAndBusDifference(
  world: World,
  device: Device,
  server: RideAndBusDocs,
  held: RideAndBusDocs,
  label: Label,
): string | null {
  const seats = visibleSeats(server.seats, server.rides, world.members[device.member].id);
  const differences = [
    docsDifference(RIDE_FIELDS, server.rides, held.rides, label, 'ride '),
    docsDifference(RIDE_SEAT_FIELDS, seats, held.seats, label, 'ask '),
    docsDifference(BOARDING_FIELDS, server.boardings, held.boardings, label, 'tick '),
    docsDifference(['id', 'seq'], server.transports, held.transports, label, 'transport '),
  ].filter(Boolean);
  return differences.length > 0 ? differences.join('; ') : null;
}

function docsDifference<Doc extends { id: string }>(
  fieldList: readonly (keyof Doc)[],
  server: readonly Doc[],
  device: readonly Doc[],
  label: Label,
  what = '',
): string | null {
  const onDevice = new Map(device.map((row) => [row.id, row]));
  const differences: string[] = [];
  for (const row of server) {
    const held = onDevice.get(row.id);
    onDevice.delete(row.id);
    if (!held) differences.push(`${what}${label(row.id)} missing`);
    else {
      const fields = fieldList.filter((field) => !sameValue(row[field], held[field]));
      const shown = fields.map(
        (field) => `${String(field)} ${JSON.stringify(held[field])} (server ${JSON.stringify(row[field])})`,
      );
      if (fields.length > 0) differences.push(`${what}${label(row.id)}: ${shown.join(', ')}`);
    }
  }
  for (const id of onDevice.keys()) differences.push(`${what}${label(id)} held but not on the server`);
  return differences.length > 0 ? differences.join('; ') : null;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
