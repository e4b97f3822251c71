import { eurosToCents, type AttendanceStatus, type AttendeeDoc, type NoticeAction } from '@fankurve/shared';
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
  memberIds: Record<MemberName, string>;
}

export interface Violation {
  /**
   * 1: devices equal the server; 2: no lost write; 3: two devices' different-field edits survive;
   * 4: admin fields; null: a device's write threw (no invariant, but the change was not made).
   */
  invariant: 1 | 2 | 3 | 4 | null;
  /** What went wrong, without ids: for counting failures of thousands of runs by kind. */
  kind: string;
  message: string;
}

export interface CheckResult {
  violations: Violation[];
  /** Live rows to which two devices of one member wrote (different fields), every write kept. */
  twoDeviceRows: number;
}

type Label = (docId: string) => string;

export function checkInvariants(expected: Expectations, final: FinalState, label: Label): CheckResult {
  const check = new Checker(expected, final, label);
  const violations = [...check.attendance(), ...check.guestPresence(), ...check.memberFields(), ...check.adminFields()];
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

  private violation(invariant: 1 | 2 | 3 | 4, docId: string | null, kind: string, message: string): Violation {
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
