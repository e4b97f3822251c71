import type { AnswerFields } from '@fankurve/shared';
import { addGuest, removeGuest, setOwnAttendance, updateGuest, updateOwnAnswer } from '../../src/data/collections/attendees.js';
import { LocalRuleError } from '../../src/data/device.js';
import type { RunContext } from './context.js';
import { adminValues, type MemberField, type RowRef } from './model.js';
import type { AdminChange, GuestStepChange, MemberName, Step } from './scenario.js';
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

/** Any error but a local rule's refusal is the data layer's: the app would show it, and the change is not made. */
function deviceError(run: RunContext, step: DeviceStep, index: number, error: unknown): string {
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
    case 'pause':
      return `pause ${step.ms}ms`;
    case 'sync':
      return 'wait for the online devices to catch up';
  }
}
