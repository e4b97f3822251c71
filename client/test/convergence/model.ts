import { eurosToCents, type AttendanceStatus, type AttendeeDoc, type NoticeAction } from '@fankurve/shared';
import type { BoardingDoc } from '@fankurve/shared/collections/boardings/collection';
import type { RideDoc, RideSeatAnswer, RideSeatDoc } from '@fankurve/shared/collections/rides/collection';
import type { AdminChange, DeviceName, MemberName } from './scenario.js';
import type { Notice } from './world.js';

/*
 * The merge rule (docs/architecture.md, sync: push) as the invariants of a run:
 *
 * - A device's change to a field is its final value compared with the value it last received from
 *   the server for that field (a pull, or the answer to its own push); a field it did not change
 *   keeps the server's value; of two writers that changed one field, the change that reaches the
 *   server last wins; a refused change is undone and reported with a notice.
 *
 * In a run every member field of a row has exactly one writer (Roles in scenario.ts: the status
 * device, or the answers device) and the admin writes only the admin's fields. So the rule says:
 * - each member field ends with the last value its writer wrote (after a change and a change back,
 *   that value is what the writer last received, and nobody else changed the field), unless the
 *   server refused a change of that kind for that member and event and left a notice (invariant 2;
 *   invariant 3 where another device of the member wrote other fields of the row);
 * - each admin field ends with the admin's last value, or its blank when the admin never set it:
 *   no member push changes it (invariant 4); `paid` also ends true when the ledger marked the ticket
 *   paid after that (the member's credit covered it: recorded like an admin's write, world.ts);
 * - every device ends equal to the server, seq included, with nothing waiting (invariant 1).
 *
 * Every write a device made is recorded with the value it wrote, and checked against the server's
 * final state (which every device holds once settled).
 *
 * Seats in rides (docs/architecture.md, Seats in rides; invariant 5): Cem's device offers the ride,
 * the others' devices ask and cancel, Cem's answers. Each ask is on the server iff its member's
 * devices did not cancel it and it was not refused (a notice `rideSeat.ask` for the member at the
 * event: the ride full, a second ask); a cancelled one is gone; a live ask's state is the driver's
 * last answer, or asked (unless the answer was refused: `rideSeat.answer`); the asks hold at most
 * the ride's seats, and the ride's `seats_taken` is what they hold. So of two offline asks for the
 * last seat exactly one holds it, and the other leaves its member a notice.
 *
 * Boarding ticks (docs/architecture.md, The bus; invariant 6): one document per option and
 * passenger, written by the captains' devices. Each ticked document is on the server unless every
 * member who wrote it was refused (`boarding.tick`); its `on_board` is one of the values written to
 * it, and where one device alone wrote it, that device's last value (unless its member was refused).
 */

export type MemberField = 'status' | 'guest_name' | 'needs_ticket' | 'has_ticket' | 'needs_transport';

/** The admin's fields on every row, with their value on a row the admin never changed. */
const ADMIN_DEFAULTS = {
  bought: false,
  paid: false,
  received: false,
  price_cents: null,
  paid_by: null,
  ticket_type: null,
  ticket_price_id: null,
  is_free: false,
  is_price_tbd: false,
} as const;
/** transfer_status follows needs_transport (outstanding when a seat is needed) until the admin sets it. */
export type AdminField = keyof typeof ADMIN_DEFAULTS | 'transfer_status';

export interface RowRef {
  member: MemberName;
  eventId: string;
  guest: boolean;
}

interface Write<Value> {
  value: Value;
  device: DeviceName;
  step: number;
}

export class Expectations {
  /** Per member and event: the own attendance the status device wrote last (null: removed). */
  readonly attendance = new Map<string, RowRef & Write<AttendanceStatus | null>>();
  /** Per guest document: whether its status device last added (true) or removed (false) it. */
  readonly guestPresence = new Map<string, RowRef & Write<boolean>>();
  /** Per document and member-owned field: the last value written (by the one device that writes it). */
  readonly fields = new Map<string, RowRef & { writes: Map<MemberField, Write<unknown>> }>();
  /** Per document: the devices that wrote to it (invariant 3, and the two-device statistics). */
  readonly writers = new Map<string, Set<DeviceName>>();
  /** Per document: the admin's last REST value of each field it sent. */
  readonly admin = new Map<string, Map<AdminField, { value: unknown; step: number }>>();
  /** The run's ride, once Cem's device offered it. */
  ride: { id: string; eventId: string; step: number } | null = null;
  /** Per ask document: who asked, and whether a device of theirs cancelled it since. */
  readonly asks = new Map<string, { member: MemberName; eventId: string; asked: Write<number>; cancelled: Write<true> | null }>();
  /** Per ask document: the driver's last answer. */
  readonly answers = new Map<string, Write<RideSeatAnswer>>();
  /** Per boarding document: every value written to it, in order. */
  readonly ticks = new Map<string, { eventId: string; writes: (Write<boolean> & { member: MemberName })[] }>();

  ownAttendance(docId: string, ref: RowRef, status: AttendanceStatus | null, device: DeviceName, step: number): void {
    this.attendance.set(attendanceKey(ref.member, ref.eventId), { ...ref, value: status, device, step });
    this.wroteTo(docId, device);
  }

  guestPresent(docId: string, ref: RowRef, present: boolean, device: DeviceName, step: number): void {
    this.guestPresence.set(docId, { ...ref, value: present, device, step });
    this.wroteTo(docId, device);
  }

  memberFields(
    docId: string,
    ref: RowRef,
    values: Partial<Record<MemberField, unknown>>,
    device: DeviceName,
    step: number,
  ): void {
    let entry = this.fields.get(docId);
    if (!entry) this.fields.set(docId, (entry = { ...ref, writes: new Map() }));
    for (const [field, value] of Object.entries(values)) entry.writes.set(field as MemberField, { value, device, step });
    this.wroteTo(docId, device);
  }

  adminFields(docId: string, values: Partial<Record<AdminField, unknown>>, step: number): void {
    let fields = this.admin.get(docId);
    if (!fields) this.admin.set(docId, (fields = new Map()));
    for (const [field, value] of Object.entries(values)) fields.set(field as AdminField, { value, step });
  }

  asked(docId: string, member: MemberName, eventId: string, seats: number, device: DeviceName, step: number): void {
    this.asks.set(docId, { member, eventId, asked: { value: seats, device, step }, cancelled: null });
  }

  cancelled(docId: string, device: DeviceName, step: number): void {
    const ask = this.asks.get(docId);
    if (ask) ask.cancelled = { value: true, device, step };
  }

  answered(docId: string, value: RideSeatAnswer, device: DeviceName, step: number): void {
    this.answers.set(docId, { value, device, step });
  }

  ticked(docId: string, eventId: string, member: MemberName, value: boolean, device: DeviceName, step: number): void {
    let entry = this.ticks.get(docId);
    if (!entry) this.ticks.set(docId, (entry = { eventId, writes: [] }));
    entry.writes.push({ member, value, device, step });
  }

  private wroteTo(docId: string, device: DeviceName): void {
    let devices = this.writers.get(docId);
    if (!devices) this.writers.set(docId, (devices = new Set()));
    devices.add(device);
  }
}

const attendanceKey = (member: MemberName, eventId: string) => `${member}|${eventId}`;

/** The values an admin change leaves on the row (the REST body's price is in euros, the document's in cents). */
export function adminValues(change: AdminChange, memberIds: Record<MemberName, string>): Partial<Record<AdminField, unknown>> {
  const { price, paid_by, ticket_type, ...flags } = change;
  const values: Partial<Record<AdminField, unknown>> = { ...flags };
  if (price !== undefined) values.price_cents = price === null ? null : eurosToCents(price);
  if (paid_by !== undefined)
    values.paid_by = paid_by !== null && paid_by in memberIds ? memberIds[paid_by as MemberName] : paid_by;
  if (ticket_type !== undefined) values.ticket_type = ticket_type?.trim() || null;
  return values;
}

export interface FinalState {
  /** The server's live rows of the run's events (every device holds the same once settled). */
  rows: AttendeeDoc[];
  notices: Notice[];
  /** The live rides, asks and boarding ticks of the run's events. */
  rides: RideDoc[];
  seats: RideSeatDoc[];
  boardings: BoardingDoc[];
  memberIds: Record<MemberName, string>;
}

export interface Violation {
  /**
   * 1: devices equal the server; 2: no lost write; 3: two devices' different-field edits survive;
   * 4: admin fields; 5: seats in rides; 6: boarding ticks; null: a device's write threw (no
   * invariant, but the change was not made).
   */
  invariant: Invariant | null;
  /** What went wrong, without ids: for counting failures of thousands of runs by kind. */
  kind: string;
  message: string;
}

type Invariant = 1 | 2 | 3 | 4 | 5 | 6;

export interface CheckResult {
  violations: Violation[];
  /** Live rows to which two devices of one member wrote (different fields), every write kept. */
  twoDeviceRows: number;
}

type Label = (docId: string) => string;

export function checkInvariants(expected: Expectations, final: FinalState, label: Label): CheckResult {
  const check = new Checker(expected, final, label);
  const violations = [
    ...check.attendance(),
    ...check.guestPresence(),
    ...check.memberFields(),
    ...check.adminFields(),
    ...check.rideSeats(),
    ...check.boardings(),
  ];
  return { violations, twoDeviceRows: check.twoDeviceRows() };
}

class Checker {
  private readonly rows: Map<string, AttendeeDoc>;
  /** Documents a violation was found on. */
  private readonly broken = new Set<string>();

  constructor(
    private readonly expected: Expectations,
    private readonly final: FinalState,
    private readonly label: Label,
  ) {
    this.rows = new Map(final.rows.map((row) => [row.id, row]));
  }

  *attendance(): Generator<Violation> {
    for (const write of this.expected.attendance.values()) {
      const memberId = this.final.memberIds[write.member];
      const own = this.final.rows.filter((row) => row.user_id === memberId && row.event_id === write.eventId);
      const row = own[0];
      // A status change to a row the server no longer has is refused as a change (attendanceNotFound).
      const setRefused = this.refused(write, 'attendance.set', 'attendance.change');
      const where = `${write.member}'s own attendance at ${this.label(write.eventId)}: ${write.device} wrote ${write.value ?? 'removed'} at step ${write.step}`;
      if (own.length > 1) {
        yield this.violation(
          2,
          row!.id,
          'own attendance: several live rows',
          `${where}; live rows ${own.map((r) => this.label(r.id)).join(', ')}`,
        );
      } else if (write.value === null && row && !this.refused(write, 'attendance.remove')) {
        yield this.lost(
          row.id,
          'own attendance: removal lost',
          `${where}, but the server keeps ${this.label(row.id)} (${row.status})`,
          write,
        );
      } else if (write.value !== null && !row && !setRefused) {
        yield this.violation(2, null, 'own attendance: lost', `${where}, but the server has no row${this.noticesOf(write)}`);
      } else if (write.value !== null && row && row.status !== write.value && !setRefused) {
        yield this.lost(
          row.id,
          'own attendance: status lost',
          `${where}, but ${this.label(row.id)} has status ${row.status}`,
          write,
        );
      }
    }
  }

  *guestPresence(): Generator<Violation> {
    for (const [docId, write] of this.expected.guestPresence) {
      const live = this.rows.has(docId);
      const said = `guest ${this.label(docId)}: ${write.device} ${write.value ? 'added' : 'removed'} it at step ${write.step}`;
      if (write.value && !live && !this.refused(write, 'guest.add')) {
        yield this.violation(2, docId, 'guest: addition lost', `${said}, but the server has no such row${this.noticesOf(write)}`);
      } else if (!write.value && live && !this.refused(write, 'guest.remove')) {
        yield this.lost(docId, 'guest: removal lost', `${said}, but the server keeps it`, write);
      }
    }
  }

  *memberFields(): Generator<Violation> {
    for (const [docId, entry] of this.expected.fields) {
      const row = this.rows.get(docId);
      // A row that is gone was removed by its status device (checked above); its fields went with it.
      if (!row) continue;
      const action: NoticeAction = entry.guest ? 'guest.change' : 'attendance.change';
      const remover = this.removerOf(docId, entry);
      for (const [field, write] of entry.writes) {
        // A removal sends the row's last state only, so the remover's own earlier edits go with it (kept or refused).
        if (write.device === remover || sameValue(row[field], write.value) || this.refused(entry, action)) continue;
        const message = `${this.label(docId)}.${field}: ${write.device} wrote ${JSON.stringify(write.value)} at step ${write.step}, the server has ${JSON.stringify(row[field])}`;
        yield this.lost(docId, `${entry.guest ? 'guest' : 'own attendance'}: ${field} lost`, message, entry);
      }
    }
  }

  *adminFields(): Generator<Violation> {
    for (const row of this.final.rows) {
      const written = this.expected.admin.get(row.id);
      for (const field of [...(Object.keys(ADMIN_DEFAULTS) as AdminField[]), 'transfer_status' as const]) {
        const last = written?.get(field);
        if (!last && field === 'transfer_status') continue;
        const expectedValue = last ? last.value : ADMIN_DEFAULTS[field as keyof typeof ADMIN_DEFAULTS];
        if (sameValue(row[field], expectedValue)) continue;
        const source = last ? `the admin's last value (step ${last.step})` : 'untouched by the admin';
        const message = `${this.label(row.id)}.${field} is ${JSON.stringify(row[field])}, ${source}: ${JSON.stringify(expectedValue)}`;
        yield this.violation(4, row.id, `admin field changed: ${field}`, message);
      }
    }
  }

  *rideSeats(): Generator<Violation> {
    const { ride } = this.expected;
    if (!ride) return;
    const live = this.final.rides.find((doc) => doc.id === ride.id);
    const memberIds = this.final.memberIds;
    const cem = this.final.notices.filter((notice) => notice.user_id === memberIds.cem);
    if (!live) {
      if (!cem.some((notice) => notice.action === 'ride.offer'))
        yield this.violation(
          5,
          null,
          'ride: offer lost',
          `cem's device offered the ride at step ${ride.step}, the server has none`,
        );
      return;
    }
    const seats = new Map(this.final.seats.filter((seat) => seat.ride_id === ride.id).map((seat) => [seat.id, seat]));
    for (const [docId, ask] of this.expected.asks) {
      const seat = seats.get(docId);
      const ref: RowRef = { member: ask.member, eventId: ask.eventId, guest: false };
      const said = `${this.label(docId)}: ${ask.asked.device} asked for ${ask.asked.value} seat(s) at step ${ask.asked.step}`;
      if (ask.cancelled && seat && !this.refused(ref, 'rideSeat.cancel')) {
        yield this.violation(
          5,
          docId,
          'ask: cancel lost',
          `${said}, ${ask.cancelled.device} cancelled it at step ${ask.cancelled.step}, but the server keeps it${this.noticesOf(ref)}`,
        );
      } else if (!ask.cancelled && !seat && !this.refused(ref, 'rideSeat.ask')) {
        yield this.violation(5, docId, 'ask: lost', `${said}, but the server has no such ask${this.noticesOf(ref)}`);
      } else if (seat && seat.seats !== ask.asked.value) {
        yield this.violation(5, docId, 'ask: seats changed', `${said}, the server's ask holds ${seat.seats}`);
      }
      if (!seat) continue;
      const answer = this.expected.answers.get(docId);
      const state = answer?.value ?? 'asked';
      const driver: RowRef = { member: 'cem', eventId: ask.eventId, guest: false };
      if (seat.state !== state && !(answer && this.refused(driver, 'rideSeat.answer'))) {
        const how = answer ? `${answer.device} answered ${answer.value} at step ${answer.step}` : 'never answered';
        yield this.violation(
          5,
          docId,
          'ask: answer lost',
          `${said}, ${how}, the server has ${seat.state}${this.noticesOf(driver)}`,
        );
      }
    }
    const held = [...seats.values()]
      .filter((seat) => seat.state === 'asked' || seat.state === 'accepted')
      .reduce((sum, seat) => sum + seat.seats, 0);
    if (held > live.seats)
      yield this.violation(5, ride.id, 'ride: more seats held than offered', `the asks hold ${held} of ${live.seats} seat(s)`);
    if (held !== live.seats_taken)
      yield this.violation(
        5,
        ride.id,
        'ride: seats_taken wrong',
        `the asks hold ${held}, the ride says ${live.seats_taken} taken`,
      );
  }

  *boardings(): Generator<Violation> {
    const onServer = new Map(this.final.boardings.map((doc) => [doc.id, doc]));
    for (const [docId, entry] of this.expected.ticks) {
      const doc = onServer.get(docId);
      const members = [...new Set(entry.writes.map((write) => write.member))];
      const refused = (member: MemberName) => this.refused({ member, eventId: entry.eventId, guest: false }, 'boarding.tick');
      const said = `${this.label(docId)}: ${entry.writes.map((write) => `${write.device} ${write.value} (step ${write.step})`).join(', ')}`;
      const notices = members.map((member) => this.noticesOf({ member, eventId: entry.eventId, guest: false })).join('');
      if (!doc) {
        if (!members.every(refused)) yield this.violation(6, docId, 'tick: lost', `${said}, but the server has none${notices}`);
        continue;
      }
      if (!entry.writes.some((write) => write.value === doc.on_board)) {
        yield this.violation(6, docId, 'tick: value never written', `${said}, the server has ${doc.on_board}`);
        continue;
      }
      const devices = new Set(entry.writes.map((write) => write.device));
      const last = entry.writes[entry.writes.length - 1]!;
      if (devices.size === 1 && doc.on_board !== last.value && !refused(last.member))
        yield this.violation(6, docId, 'tick: last value lost', `${said}, the server has ${doc.on_board}${notices}`);
    }
  }

  twoDeviceRows(): number {
    const checked = [...this.expected.writers].filter(([docId, devices]) => devices.size > 1 && this.rows.has(docId));
    return checked.filter(([docId]) => !this.broken.has(docId)).length;
  }

  /** The device whose last word on the row was to remove it, if any. */
  private removerOf(docId: string, ref: RowRef): DeviceName | null {
    const last = ref.guest
      ? this.expected.guestPresence.get(docId)
      : this.expected.attendance.get(attendanceKey(ref.member, ref.eventId));
    return last && (last.value === null || last.value === false) ? last.device : null;
  }

  /** Invariant 3 where the row also carries another device's writes, else 2. */
  private lost(docId: string, kind: string, message: string, ref: RowRef): Violation {
    const twoDevices = (this.expected.writers.get(docId)?.size ?? 0) > 1;
    return this.violation(twoDevices ? 3 : 2, docId, kind, message + this.noticesOf(ref));
  }

  private violation(invariant: Invariant, docId: string | null, kind: string, message: string): Violation {
    if (docId) this.broken.add(docId);
    return { invariant, kind, message };
  }

  private refused(ref: RowRef, ...actions: NoticeAction[]): boolean {
    return this.noticesFor(ref).some((notice) => actions.includes(notice.action as NoticeAction));
  }

  private noticesFor(ref: RowRef): Notice[] {
    const memberId = this.final.memberIds[ref.member];
    return this.final.notices.filter((notice) => notice.user_id === memberId && notice.event_id === ref.eventId);
  }

  private noticesOf(ref: RowRef): string {
    const notices = this.noticesFor(ref).map((notice) => `${notice.action}/${notice.code}`);
    return `; ${ref.member}'s notices for ${this.label(ref.eventId)}: ${notices.length > 0 ? notices.join(', ') : 'none'}`;
  }
}

export function describeViolation(violation: Violation): string {
  const where = violation.invariant === null ? 'device error' : `invariant ${violation.invariant}`;
  return `[${where}] ${violation.message}`;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
