import {
  CLUB_CASH_DESK,
  TRANSFER_STATUSES,
  type AnswerFields,
  type AttendanceStatus,
  type TransferStatus,
} from '@fankurve/shared';
import { seededRandom, type Random } from './random.js';

/*
 * The scenario of one run, chosen from its seed alone: who does what, in which order, with which
 * devices offline. Steps name events and guests by index; the executor maps them to ids.
 */

export const MEMBERS = ['anna', 'ben', 'cem'] as const;
export type MemberName = (typeof MEMBERS)[number];

export type DeviceName = 'annaPhone' | 'annaLaptop' | 'ben' | 'cem';
/** Anna uses a phone and a laptop; Ben and Cem one device each. */
export const DEVICE_MEMBER: Record<DeviceName, MemberName> = { annaPhone: 'anna', annaLaptop: 'anna', ben: 'ben', cem: 'cem' };
export const DEVICES = Object.keys(DEVICE_MEMBER) as DeviceName[];

export const EVENTS_PER_RUN = 2;
/** Accounts without a device: the bus's passengers (the admin seats them; captains tick them). */
export const PASSENGERS = ['pia', 'ole'] as const;
/** Cem drives the run's ride (docs/architecture.md, Seats in rides): the others' devices ask for seats. */
export const DRIVER_DEVICE: DeviceName = 'cem';
const ASKER_DEVICES = ['annaPhone', 'annaLaptop', 'ben'] as const satisfies readonly DeviceName[];
/** Anna and Ben are the bus's captains unless the admin changes them; Cem's taps are refused on the device. */
const CAPTAIN_MEMBERS = ['anna', 'ben'] as const satisfies readonly MemberName[];
const RIDE_RUNS = 0.3;
const BUS_RUNS = 0.3;
const MAX_GUESTS = 5;
const STEPS = { min: 6, max: 16 };
const GUEST_NAMES = ['Paul', ' Paula ', 'Jo', 'Kim', 'Mats', 'Ida '];

/**
 * Which device writes which fields of a row. The status device sets, changes and removes the row
 * (and names a guest); the answers device changes needs ticket, has ticket and needs transport.
 * Anna's two devices split the roles, so their edits to one row never touch the same field.
 */
export interface Roles {
  status: DeviceName;
  answers: DeviceName;
}

export interface GuestPlan {
  /** The guest's index in this run, as steps name it. */
  handle: number;
  member: MemberName;
  event: number;
  roles: Roles;
}

/** A body of the admin's REST ticket change; paid_by names a member by name (the executor gives the id). */
export interface AdminChange {
  bought?: boolean;
  paid?: boolean;
  received?: boolean;
  price?: number | null;
  paid_by?: MemberName | typeof CLUB_CASH_DESK | null;
  ticket_type?: string | null;
  transfer_status?: TransferStatus;
}

export interface GuestStepChange extends Partial<AnswerFields> {
  guest_name?: string;
  status?: AttendanceStatus;
}

export type Step =
  | { kind: 'attend'; device: DeviceName; event: number; status: AttendanceStatus | null }
  | { kind: 'answer'; device: DeviceName; event: number; change: Partial<AnswerFields> }
  | { kind: 'addGuest'; device: DeviceName; guest: number; name: string }
  | { kind: 'changeGuest'; device: DeviceName; guest: number; change: GuestStepChange }
  | { kind: 'removeGuest'; device: DeviceName; guest: number }
  | { kind: 'offline' | 'online'; device: DeviceName }
  | { kind: 'adminMember'; member: MemberName; event: number; change: AdminChange }
  | { kind: 'adminGuest'; guest: number; change: AdminChange }
  /** Cem's device offers the run's ride (1 or 2 seats) to an event. */
  | { kind: 'offerRide'; event: number; seats: number }
  | { kind: 'askSeat'; device: DeviceName; seats: number }
  /** The device cancels its member's ask of the ride (the one it holds). */
  | { kind: 'cancelSeat'; device: DeviceName }
  /** The driver's device answers the ask of a member (or, holding none of theirs, the first it holds). */
  | { kind: 'answerSeat'; asker: MemberName; answer: 'accepted' | 'declined' }
  /** The admin (REST): a transport option with a seat plan for the event, the passengers seated, the captains named. */
  | { kind: 'setUpBus'; event: number; captains: MemberName[] }
  | { kind: 'adminCaptains'; captains: MemberName[] }
  /** A device ticks a passenger (index into PASSENGERS) on board or off. */
  | { kind: 'tick'; device: DeviceName; passenger: number; onBoard: boolean }
  | { kind: 'pause'; ms: number }
  /**
   * Wait (a little) until every online device holds the server's rows, rides, asks, ticks and
   * transport options: edits after it start from the same state.
   */
  | { kind: 'sync' };

export interface Scenario {
  seed: number;
  /** How to replay a scenario that was not generated from its seed. */
  replay?: string;
  /** Per member, per event: the roles on the member's own row. */
  ownRoles: Record<MemberName, Roles[]>;
  guests: GuestPlan[];
  steps: Step[];
}

interface Draft extends Scenario {
  random: Random;
  offline: Set<DeviceName>;
  /** Member and event pairs with an attend step so far: answer steps go there, so they find a row. */
  attended: Set<string>;
  /** The run's ride's seats, when it has one. */
  rideSeats: number | null;
  hasBus: boolean;
}

export function generateScenario(seed: number): Scenario {
  const random = seededRandom(seed);
  const draft: Draft = {
    seed,
    random,
    ownRoles: ownRolesOf(random),
    guests: [],
    steps: [],
    offline: new Set(),
    attended: new Set(),
    rideSeats: null,
    hasBus: false,
  };
  const count = random.int(STEPS.min, STEPS.max);
  if (random.chance(0.8)) openWithAnnaAttending(draft);
  // Some runs also have a ride or a bus, set up first (and reached by every device) like Anna's row.
  if (random.chance(RIDE_RUNS)) offerRide(draft);
  if (random.chance(BUS_RUNS)) setUpBus(draft);
  while (draft.steps.length < count) draft.steps.push(nextStep(draft));
  const { ownRoles, guests, steps } = draft;
  return { seed, ownRoles, guests, steps };
}

/** Anna attends the first match and the row reaches her other device: most runs then have both devices edit it. */
function openWithAnnaAttending(draft: Draft): void {
  draft.attended.add('anna@0');
  draft.steps.push({ kind: 'attend', device: draft.ownRoles.anna[0]!.status, event: 0, status: 'going' }, { kind: 'sync' });
}

const otherAnnaDevice = (device: DeviceName): DeviceName => (device === 'annaPhone' ? 'annaLaptop' : 'annaPhone');
const solo = (device: DeviceName): Roles => ({ status: device, answers: device });

function ownRolesOf(random: Random): Record<MemberName, Roles[]> {
  const events = Array.from({ length: EVENTS_PER_RUN });
  const annaRoles = (): Roles => {
    const status = random.pick(['annaPhone', 'annaLaptop'] as const);
    return { status, answers: otherAnnaDevice(status) };
  };
  return { anna: events.map(annaRoles), ben: events.map(() => solo('ben')), cem: events.map(() => solo('cem')) };
}

function nextStep(draft: Draft): Step {
  const { random } = draft;
  const category = random.weighted({
    member: 60,
    admin: 18,
    network: 15,
    pause: 5,
    sync: 2,
    ride: draft.rideSeats === null ? 0 : 40,
    bus: draft.hasBus ? 30 : 0,
  });
  if (category === 'ride') return rideStep(draft);
  if (category === 'bus') return busStep(draft);
  if (category === 'member') return memberStep(draft, random.weighted({ annaPhone: 3, annaLaptop: 3, ben: 2, cem: 2 }));
  if (category === 'admin') return adminStep(draft);
  if (category === 'network') return networkStep(draft);
  if (category === 'sync') return { kind: 'sync' };
  return { kind: 'pause', ms: random.int(2, 25) };
}

function memberStep(draft: Draft, device: DeviceName): Step {
  const { random } = draft;
  const member = DEVICE_MEMBER[device];
  const event = eventFor(draft, member);
  const roles = draft.ownRoles[member][event]!;
  const ownGuests = draft.guests.filter((guest) => guest.member === member);
  const named = ownGuests.filter((guest) => guest.roles.status === device);
  const answered = ownGuests.filter((guest) => guest.roles.answers === device);
  const choice = random.weighted({
    attend: roles.status === device ? 3 : 0,
    answer: roles.answers === device ? 3 : 0,
    addGuest: draft.guests.length < MAX_GUESTS ? 1 : 0,
    changeGuest: named.length > 0 ? 2 : 0,
    removeGuest: named.length > 0 ? 1 : 0,
    answerGuest: answered.length > 0 ? 2 : 0,
  });
  switch (choice) {
    case 'attend':
      draft.attended.add(`${member}@${event}`);
      return { kind: 'attend', device, event, status: random.pick(['going', 'going', 'maybe', null] as const) };
    case 'answer':
      return { kind: 'answer', device, event, change: answerChange(random) };
    case 'addGuest':
      return addGuestStep(draft, device, event);
    case 'changeGuest':
      return { kind: 'changeGuest', device, guest: random.pick(named).handle, change: guestChange(random) };
    case 'removeGuest':
      return { kind: 'removeGuest', device, guest: random.pick(named).handle };
    case 'answerGuest':
      return { kind: 'changeGuest', device, guest: random.pick(answered).handle, change: answerChange(random) };
  }
}

/** Mostly an event the member has attended in this scenario, so both of Anna's devices write to one row. */
function eventFor(draft: Draft, member: MemberName): number {
  const events = Array.from({ length: EVENTS_PER_RUN }, (_, event) => event);
  const attended = events.filter((event) => draft.attended.has(`${member}@${event}`));
  return draft.random.pick(attended.length > 0 && draft.random.chance(0.75) ? attended : events);
}

function addGuestStep(draft: Draft, device: DeviceName, event: number): Step {
  const { random } = draft;
  const member = DEVICE_MEMBER[device];
  // Most of Anna's guests get their answers from her other device: two devices, different fields.
  const answers = member === 'anna' && random.chance(0.75) ? otherAnnaDevice(device) : device;
  const handle = draft.guests.length;
  draft.guests.push({ handle, member, event, roles: { status: device, answers } });
  return { kind: 'addGuest', device, guest: handle, name: random.pick(GUEST_NAMES) };
}

/** A full answer (never both needs and has ticket), or one flag of one. */
function answerChange(random: Random): Partial<AnswerFields> {
  const ticket = random.pick([
    { needs_ticket: true, has_ticket: false },
    { needs_ticket: false, has_ticket: true },
    { needs_ticket: false, has_ticket: false },
  ]);
  const full = { ...ticket, needs_transport: random.chance(0.5) };
  if (random.chance(0.5)) return full;
  const field = random.pick(['needs_ticket', 'has_ticket', 'needs_transport'] as const);
  return { [field]: full[field] };
}

function guestChange(random: Random): GuestStepChange {
  const kind = random.weighted({ name: 2, status: 2, both: 1 });
  const name = { guest_name: random.pick(GUEST_NAMES) };
  const status = { status: random.pick(['going', 'maybe'] as const) };
  return kind === 'name' ? name : kind === 'status' ? status : { ...name, ...status };
}

/** Mostly on a row the scenario has created (a guest, or a member's attendance), so the admin's change lands. */
function adminStep(draft: Draft): Step {
  const { random } = draft;
  const change = adminChange(random);
  if (draft.guests.length > 0 && random.chance(0.4))
    return { kind: 'adminGuest', guest: random.pick(draft.guests).handle, change };
  const attended = [...draft.attended].map((key) => key.split('@') as [MemberName, string]);
  if (attended.length > 0 && random.chance(0.8)) {
    const [member, event] = random.pick(attended);
    return { kind: 'adminMember', member, event: Number(event), change };
  }
  return { kind: 'adminMember', member: random.pick(MEMBERS), event: random.int(0, EVENTS_PER_RUN - 1), change };
}

function adminChange(random: Random): AdminChange {
  const change: AdminChange = {};
  if (random.chance(0.5)) change.bought = random.chance(0.7);
  if (random.chance(0.35)) change.paid = random.chance(0.6);
  if (random.chance(0.2)) change.received = random.chance(0.5);
  if (random.chance(0.35)) change.price = random.pick([null, 0, 12.5, 25, 39.9]);
  if (random.chance(0.15)) change.paid_by = random.pick([null, CLUB_CASH_DESK, ...MEMBERS]);
  if (random.chance(0.15)) change.ticket_type = random.pick([null, 'Stehplatz', ' Sitzplatz ']);
  if (random.chance(0.15)) change.transfer_status = random.pick(TRANSFER_STATUSES);
  if (Object.keys(change).length === 0) change.bought = random.chance(0.5);
  return change;
}

function networkStep(draft: Draft): Step {
  const device = draft.random.pick(DEVICES);
  const wasOffline = draft.offline.has(device);
  if (wasOffline) draft.offline.delete(device);
  else draft.offline.add(device);
  return { kind: wasOffline ? 'online' : 'offline', device };
}

function offerRide(draft: Draft): void {
  const { random } = draft;
  draft.rideSeats = random.pick([1, 1, 2]);
  draft.steps.push({ kind: 'offerRide', event: random.int(0, EVENTS_PER_RUN - 1), seats: draft.rideSeats }, { kind: 'sync' });
}

function setUpBus(draft: Draft): void {
  draft.hasBus = true;
  const event = draft.random.int(0, EVENTS_PER_RUN - 1);
  draft.steps.push({ kind: 'setUpBus', event, captains: [...CAPTAIN_MEMBERS] }, { kind: 'sync' });
}

/**
 * A member asks for seats (from a device that may be offline), cancels, or the driver answers; now
 * and then two members' devices go offline and both ask, so the last seat is asked for twice.
 */
function rideStep(draft: Draft): Step {
  const { random } = draft;
  const seats = (): number => (draft.rideSeats === 2 && random.chance(0.2) ? 2 : 1);
  const choice = random.weighted({ ask: 5, cancel: 2, answer: 3, race: 2 });
  if (choice === 'ask') return { kind: 'askSeat', device: random.pick(ASKER_DEVICES), seats: seats() };
  if (choice === 'cancel') return { kind: 'cancelSeat', device: random.pick(ASKER_DEVICES) };
  // The driver answers what reached the car: the online devices catch up first.
  if (choice === 'answer') {
    draft.steps.push({ kind: 'sync' });
    return {
      kind: 'answerSeat',
      asker: random.pick(['anna', 'ben'] as const),
      answer: random.chance(0.6) ? 'accepted' : 'declined',
    };
  }
  const annaDevice = random.pick(['annaPhone', 'annaLaptop'] as const);
  for (const device of [annaDevice, 'ben'] as const) {
    if (draft.offline.has(device)) continue;
    draft.offline.add(device);
    draft.steps.push({ kind: 'offline', device });
  }
  draft.steps.push({ kind: 'askSeat', device: annaDevice, seats: seats() });
  return { kind: 'askSeat', device: 'ben', seats: seats() };
}

/** Mostly a captain's device ticks a passenger on board or off; Cem (no captain) now and then; rarely the admin changes the captains. */
function busStep(draft: Draft): Step {
  const { random } = draft;
  if (random.chance(0.06)) {
    const captains = random.pick([['anna', 'ben'], ['anna'], ['ben']] as MemberName[][]);
    return { kind: 'adminCaptains', captains };
  }
  const device = random.weighted({ annaPhone: 3, annaLaptop: 3, ben: 4, cem: 1 });
  return { kind: 'tick', device, passenger: random.int(0, PASSENGERS.length - 1), onBoard: random.chance(0.7) };
}
