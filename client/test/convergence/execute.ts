import type { AnswerFields, TransportDoc } from '@fankurve/shared';
import type { RideSeatDoc } from '@fankurve/shared/collections/rides/collection';
import { writes as boardingWrites } from '../../src/collections/boardings/data.js';
import { writes as rideWrites } from '../../src/collections/rides/data.js';
import { kindOf } from '../../src/data/pushedGroup.js';
import { eventually } from '../sync-clients.js';
import { addGuest, removeGuest, setOwnAttendance, updateGuest, updateOwnAnswer } from '../../src/data/collections/attendees.js';
import { LocalRuleError } from '../../src/data/device.js';
import type { RunContext } from './context.js';
import { adminValues, type MemberField, type RowRef } from './model.js';
import { DRIVER_DEVICE, PASSENGERS, type AdminChange, type GuestStepChange, type MemberName, type Step } from './scenario.js';
import { devicesCaughtUp } from './settle.js';
import type { Device } from './world.js';

/*
 * Runs a scenario's steps against the world: devices write through the client's data layer (the
 * same functions the app calls), the admin over REST. Each write is recorded in the expectations
 * and in the log a failing run prints.
 */

/** A sync step waits at most this long (it is no failure if the devices are slower). */
const SYNC_STEP_MS = 500;

export async function executeStep(run: RunContext, step: Step, index: number): Promise<void> {
  const text = `#${index} ${describeStep(run, step)}`;
  const started = Date.now();
  const outcome = await outcomeOf(run, step, index);
  run.note(`${text} → ${outcome} (${Date.now() - started}ms)`);
}

async function outcomeOf(run: RunContext, step: Step, index: number): Promise<string> {
  switch (step.kind) {
    case 'offline':
      await run.world.devices[step.device].client.goOffline();
      return 'offline';
    case 'online':
      run.world.devices[step.device].client.goOnline();
      return 'online';
    case 'pause':
      await new Promise((resolve) => setTimeout(resolve, step.ms));
      return 'resumed';
    case 'sync':
      return (await devicesCaughtUp(run.world, run.eventIds, SYNC_STEP_MS))
        ? 'every online device holds the server’s rows'
        : 'not caught up yet';
    case 'adminMember':
    case 'adminGuest':
      return adminStep(run, step, index);
    case 'setUpBus':
      return setUpBus(run, step, index);
    case 'adminCaptains':
      return setCaptains(run, step.captains);
    case 'offerRide':
    case 'askSeat':
    case 'cancelSeat':
    case 'answerSeat':
    case 'tick':
      return rideOrBusStep(run, step, index);
    default:
      return deviceStep(run, step, index);
  }
}

type DeviceStep = Extract<Step, { device: unknown; kind: 'attend' | 'answer' | 'addGuest' | 'changeGuest' | 'removeGuest' }>;

async function deviceStep(run: RunContext, step: DeviceStep, index: number): Promise<string> {
  const device = run.world.devices[step.device];
  try {
    if (step.kind === 'attend' || step.kind === 'answer') return await ownRowWrite(run, device, step, index);
    if (step.kind === 'addGuest') return await guestAdded(run, device, step, index);
    return await guestWrite(run, device, step, index);
  } catch (error) {
    if (!(error instanceof LocalRuleError)) return deviceError(run, step, index, error);
    return counted(run, `refused on the device: ${error.code}`);
  }
}

type RideOrBusStep = Extract<Step, { kind: 'offerRide' | 'askSeat' | 'cancelSeat' | 'answerSeat' | 'tick' }>;

async function rideOrBusStep(run: RunContext, step: RideOrBusStep, index: number): Promise<string> {
  try {
    if (step.kind === 'offerRide') return await offerRide(run, step, index);
    if (step.kind === 'askSeat') return await askSeat(run, step, index);
    if (step.kind === 'cancelSeat') return await cancelSeat(run, step, index);
    if (step.kind === 'answerSeat') return await answerSeat(run, step, index);
    return await tick(run, step, index);
  } catch (error) {
    if (!(error instanceof LocalRuleError)) return deviceError(run, step, index, error);
    return counted(run, `refused on the device: ${error.code}`, `${step.kind} refused on the device: ${error.code}`);
  }
}

/** The club's calendar day as a device passes it to a seat ask (the run's events are years ahead). */
const today = (): string => new Date().toISOString().slice(0, 10);
const on = (device: Device) => ({ db: device.client.db, docs: device.client.docs, outbox: device.client.outbox });

/** The driver's device offers the ride once it holds the event (a fresh run's events take a pull to arrive). */
async function offerRide(run: RunContext, step: Extract<Step, { kind: 'offerRide' }>, index: number): Promise<string> {
  const device = run.world.devices[DRIVER_DEVICE];
  const eventId = run.eventIds[step.event]!;
  await eventually(async () => {
    if (!(await device.client.stored('events', eventId))) throw new Error(`${device.name} does not hold e${step.event} yet`);
  }, 2000);
  const input = {
    seats: step.seats,
    departure_location: 'Hauptbahnhof',
    departure_datetime: '2031-05-03 10:00',
    drives_back: false,
    note: null,
    cost_share_cents: null,
  };
  const driverId = run.world.members[device.member].id;
  const { result: rideId } = await device.writes.track(() => rideWrites.offerRide(on(device), driverId, eventId, input));
  run.nameDocument(rideId, 'ride');
  run.expected.ride = { id: rideId, eventId, step: index };
  return counted(run, `offered ${run.label(rideId)}`, 'ride offered');
}

async function askSeat(run: RunContext, step: Extract<Step, { kind: 'askSeat' }>, index: number): Promise<string> {
  const { ride } = run.expected;
  if (!ride) return counted(run, 'no ride was offered');
  const device = run.world.devices[step.device];
  const memberId = run.world.members[device.member].id;
  const input = { seats: step.seats, note: null };
  const { result: askId } = await device.writes.track(() => rideWrites.askSeat(on(device), memberId, ride.id, input, today()));
  run.nameDocument(askId, `ask:${device.member}`);
  run.expected.asked(askId, device.member, ride.eventId, step.seats, device.name, index);
  return counted(run, `wrote ${run.label(askId)}`, 'seat asked');
}

/** The asks of the ride the device holds. */
async function asksOn(device: Device, rideId: string): Promise<RideSeatDoc[]> {
  const docs = await kindOf(device.client.db, 'ride_seats')
    .find({ selector: { ride_id: rideId } })
    .exec();
  return docs.map((doc) => doc.toJSON() as RideSeatDoc);
}

/** The member's ask of the ride as the device holds it. */
async function askOn(device: Device, rideId: string, memberId: string): Promise<RideSeatDoc | null> {
  return (await asksOn(device, rideId)).find((ask) => ask.passenger_id === memberId) ?? null;
}

async function cancelSeat(run: RunContext, step: Extract<Step, { kind: 'cancelSeat' }>, index: number): Promise<string> {
  const { ride } = run.expected;
  if (!ride) return counted(run, 'no ride was offered');
  const device = run.world.devices[step.device];
  const memberId = run.world.members[device.member].id;
  const ask = await askOn(device, ride.id, memberId);
  if (!ask) return counted(run, 'the device holds no ask to cancel');
  const { ids } = await device.writes.track(() => rideWrites.cancelSeat(on(device), memberId, ask.id));
  if (ids.length === 0) return counted(run, 'nothing to cancel on the device');
  run.expected.cancelled(ask.id, device.name, index);
  return counted(run, `cancelled ${run.label(ask.id)}`, 'seat cancelled');
}

async function answerSeat(run: RunContext, step: Extract<Step, { kind: 'answerSeat' }>, index: number): Promise<string> {
  const { ride } = run.expected;
  if (!ride) return counted(run, 'no ride was offered');
  const device = run.world.devices[DRIVER_DEVICE];
  // The asker's ask, else the first the driver's device holds (another member's).
  const held = await asksOn(device, ride.id);
  const ask = held.find((doc) => doc.passenger_id === run.world.members[step.asker].id) ?? held[0];
  if (!ask) return counted(run, "the driver's device holds no ask");
  const driverId = run.world.members[device.member].id;
  const { ids } = await device.writes.track(() => rideWrites.answerSeat(on(device), driverId, ask.id, step.answer));
  if (ids.length === 0) return counted(run, 'the same answer again: nothing to write');
  run.expected.answered(ask.id, step.answer, device.name, index);
  return counted(run, `${step.answer} ${run.label(ask.id)}`, `seat ${step.answer}`);
}

async function tick(run: RunContext, step: Extract<Step, { kind: 'tick' }>, index: number): Promise<string> {
  const { bus } = run;
  if (!bus) return counted(run, 'no bus was set up');
  const device = run.world.devices[step.device];
  const transport = (await device.client.stored('transports', bus.transportId)) as TransportDoc | null;
  if (!transport) return counted(run, 'the device does not hold the bus yet');
  const attendeeId = bus.passengerRows[step.passenger]!;
  const user = { id: run.world.members[device.member].id, isAdmin: false };
  const { ids } = await device.writes.track(() =>
    boardingWrites.tickBoarding(on(device), user, transport, attendeeId, step.onBoard),
  );
  if (ids.length === 0) return counted(run, 'already so on the device');
  const docId = ids[0]!;
  run.nameDocument(docId, `tick:${PASSENGERS[step.passenger]}`);
  run.expected.ticked(docId, bus.eventId, device.member, step.onBoard, device.name, index);
  return counted(run, `wrote ${run.label(docId)}`, 'boarding ticked');
}

/**
 * The admin's bus (docs/architecture.md, The bus): an option with a plan of four seats, the
 * passengers (accounts without a device) going and needing a seat, each given one, and the captains.
 * A seat sets the row's transfer status to reserved: an admin's field, recorded as the admin's write.
 */
async function setUpBus(run: RunContext, step: Extract<Step, { kind: 'setUpBus' }>, index: number): Promise<string> {
  const { world } = run;
  const eventId = run.eventIds[step.event]!;
  const created = await world.admin('POST', '/api/transports', {
    event_id: eventId,
    name: 'Bus',
    departure_location: 'Vereinsheim',
    price_per_seat: 15,
  });
  if (created.status !== 201) throw new Error(`create transport: ${created.status} ${JSON.stringify(created.body)}`);
  const transportId = created.body.transport.id as string;
  run.nameDocument(transportId, 'bus');
  const plan = await world.admin('PUT', `/api/transports/${transportId}/seat-plan`, { seats: 4 });
  if (plan.status !== 200) throw new Error(`seat plan: ${plan.status} ${JSON.stringify(plan.body)}`);
  const passengerRows: string[] = [];
  for (const [seat, passenger] of world.passengers.entries()) {
    const answered = await world.t.call('POST', `/api/attendance/${eventId}`, {
      token: passenger.token,
      body: { status: 'going', needs_transport: true },
    });
    if (answered.status !== 200) throw new Error(`passenger attends: ${answered.status} ${JSON.stringify(answered.body)}`);
    const row = await world.t.runtime.deps.store.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', eventId)
      .where('user_id', '=', passenger.id)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow();
    run.nameDocument(row.id, `${PASSENGERS[seat]}@e${step.event}`);
    const seated = await world.admin('PUT', `/api/transports/${transportId}/seats/${seat + 1}`, { attendee_id: row.id });
    if (seated.status !== 200) throw new Error(`seat: ${seated.status} ${JSON.stringify(seated.body)}`);
    run.expected.adminFields(row.id, { transfer_status: 'reserved' }, index);
    passengerRows.push(row.id);
  }
  run.bus = { transportId, eventId, passengerRows };
  return `bus with seats for ${PASSENGERS.join(', ')}; ${await setCaptains(run, step.captains)}`;
}

async function setCaptains(run: RunContext, captains: readonly MemberName[]): Promise<string> {
  if (!run.bus) return counted(run, 'no bus was set up');
  const ids = captains.map((name) => run.world.members[name].id);
  const res = await run.world.admin('PUT', `/api/transports/${run.bus.transportId}/captains`, { user_ids: ids });
  if (res.status !== 200) throw new Error(`captains: ${res.status} ${JSON.stringify(res.body)}`);
  return counted(run, `captains ${captains.join(', ')}`, 'captains set');
}

/** Any error but a local rule's refusal is the data layer's: the app would show it, and the change is not made. */
function deviceError(run: RunContext, step: DeviceStep | RideOrBusStep, index: number, error: unknown): string {
  const code = String((error as { code?: unknown }).code ?? (error as Error).name);
  const message = `#${index} ${describeStep(run, step)} threw ${code}: ${String((error as Error).message).split('\n')[0]}`;
  run.deviceErrors.push({ invariant: null, kind: `device write threw ${code}`, message });
  return counted(run, `device write threw ${code}`);
}

function counted(run: RunContext, outcome: string, kind = outcome): string {
  run.count(kind);
  return outcome;
}

async function ownRowWrite(run: RunContext, device: Device, step: Extract<Step, { kind: 'attend' | 'answer' }>, index: number) {
  const memberId = run.world.members[device.member].id;
  const eventId = run.eventIds[step.event]!;
  const write =
    step.kind === 'attend'
      ? () => setOwnAttendance(device.client, eventId, memberId, step.status)
      : () => updateOwnAnswer(device.client, eventId, memberId, step.change);
  const [docId] = (await device.writes.track(write)).ids;
  if (!docId) return counted(run, 'nothing to write on the device');
  run.nameDocument(docId, `${device.member}@e${step.event}`);
  const ref: RowRef = { member: device.member, eventId, guest: false };
  if (step.kind === 'attend') run.expected.ownAttendance(docId, ref, step.status, device.name, index);
  else run.expected.memberFields(docId, ref, answerValues(step.change), device.name, index);
  return counted(run, `wrote ${run.label(docId)}`, 'device write');
}

function guestRef(run: RunContext, handle: number): RowRef {
  const plan = run.scenario.guests[handle]!;
  return { member: plan.member, eventId: run.eventIds[plan.event]!, guest: true };
}

async function guestAdded(run: RunContext, device: Device, step: Extract<Step, { kind: 'addGuest' }>, index: number) {
  const ref = guestRef(run, step.guest);
  const memberId = run.world.members[device.member].id;
  const { result: guestId } = await device.writes.track(() => addGuest(device.client, ref.eventId, memberId, step.name));
  run.guestIds.set(step.guest, guestId);
  run.nameDocument(guestId, `g${step.guest}`);
  run.expected.guestPresent(guestId, ref, true, device.name, index);
  run.expected.memberFields(guestId, ref, { guest_name: step.name.trim(), status: 'going' }, device.name, index);
  return counted(run, `added ${run.label(guestId)}`, 'device write');
}

async function guestWrite(
  run: RunContext,
  device: Device,
  step: Extract<Step, { kind: 'changeGuest' | 'removeGuest' }>,
  index: number,
) {
  const guestId = run.guestIds.get(step.guest);
  if (!guestId) return counted(run, 'the guest was never added');
  const write =
    step.kind === 'removeGuest'
      ? () => removeGuest(device.client, guestId)
      : () => updateGuest(device.client, guestId, step.change);
  const { ids } = await device.writes.track(write);
  if (ids.length === 0) return counted(run, 'the device does not hold the guest');
  const ref = guestRef(run, step.guest);
  if (step.kind === 'removeGuest') run.expected.guestPresent(guestId, ref, false, device.name, index);
  else run.expected.memberFields(guestId, ref, guestValues(step.change), device.name, index);
  return counted(run, `wrote ${run.label(guestId)}`, 'device write');
}

/** The flags an answer change writes: the ones it names, and the one a ticket flag set to true clears. */
function answerValues(change: Partial<AnswerFields>): Partial<Record<MemberField, boolean>> {
  const values: Partial<Record<MemberField, boolean>> = { ...change };
  if (change.needs_ticket === true) values.has_ticket = false;
  if (change.has_ticket === true) values.needs_ticket = false;
  return values;
}

function guestValues(change: GuestStepChange): Partial<Record<MemberField, unknown>> {
  const { guest_name, status, ...flags } = change;
  return {
    ...answerValues(flags),
    ...(guest_name === undefined ? {} : { guest_name: guest_name.trim() }),
    ...(status === undefined ? {} : { status }),
  };
}

async function adminStep(
  run: RunContext,
  step: Extract<Step, { kind: 'adminMember' | 'adminGuest' }>,
  index: number,
): Promise<string> {
  const memberIds = run.world.memberIds();
  const body = restBody(step.change, memberIds);
  let url: string;
  if (step.kind === 'adminMember') {
    url = `/api/tickets/event/${run.eventIds[step.event]}/user/${memberIds[step.member]}/status`;
  } else {
    const guestId = run.guestIds.get(step.guest);
    if (!guestId) return counted(run, 'the guest was never added');
    url = `/api/attendees/${guestId}`;
  }
  const res = await run.world.admin('PUT', url, body);
  if (res.status !== 200)
    return counted(run, `${res.status} ${res.body?.code ?? ''}`.trim(), `admin ${res.status} ${res.body?.code}`);
  run.count('admin 200');
  const docId = res.body.attendance.id as string;
  if (step.kind === 'adminMember') run.nameDocument(docId, `${step.member}@e${step.event}`);
  run.expected.adminFields(docId, adminValues(step.change, memberIds), index);
  // The same transaction may have let the ledger mark tickets of the member paid (their credit covers them).
  for (const id of run.world.takeSettledByLedger()) run.expected.adminFields(id, { paid: true }, index);
  return `200 on ${run.label(docId)}`;
}

function restBody(change: AdminChange, memberIds: Record<MemberName, string>): Record<string, unknown> {
  const paidBy = change.paid_by;
  return paidBy && paidBy in memberIds ? { ...change, paid_by: memberIds[paidBy as MemberName] } : { ...change };
}

function describeStep(run: RunContext, step: Step): string {
  const guest = (handle: number) => `g${handle}`;
  switch (step.kind) {
    case 'attend':
      return `${step.device}: own attendance at e${step.event} ${step.status ?? 'removed'}`;
    case 'answer':
      return `${step.device}: own answer at e${step.event} ${JSON.stringify(step.change)}`;
    case 'addGuest':
      return `${step.device}: add guest ${guest(step.guest)} "${step.name}" at e${run.scenario.guests[step.guest]!.event}`;
    case 'changeGuest':
      return `${step.device}: change guest ${guest(step.guest)} ${JSON.stringify(step.change)}`;
    case 'removeGuest':
      return `${step.device}: remove guest ${guest(step.guest)}`;
    case 'offline':
    case 'online':
      return `${step.device} goes ${step.kind}`;
    case 'adminMember':
      return `admin: ${step.member}'s ticket at e${step.event} ${JSON.stringify(step.change)}`;
    case 'adminGuest':
      return `admin: ticket of guest ${guest(step.guest)} ${JSON.stringify(step.change)}`;
    case 'offerRide':
      return `${DRIVER_DEVICE}: offer a ride of ${step.seats} seat(s) to e${step.event}`;
    case 'askSeat':
      return `${step.device}: ask for ${step.seats} seat(s) in the ride`;
    case 'cancelSeat':
      return `${step.device}: cancel the ask`;
    case 'answerSeat':
      return `${DRIVER_DEVICE}: ${step.answer === 'accepted' ? 'accept' : 'decline'} ${step.asker}'s ask`;
    case 'setUpBus':
      return `admin: a bus to e${step.event}, passengers seated, captains ${step.captains.join(', ')}`;
    case 'adminCaptains':
      return `admin: the bus's captains ${step.captains.join(', ')}`;
    case 'tick':
      return `${step.device}: tick ${PASSENGERS[step.passenger]} ${step.onBoard ? 'on board' : 'off'}`;
    case 'pause':
      return `pause ${step.ms}ms`;
    case 'sync':
      return 'wait for the online devices to catch up';
  }
}
