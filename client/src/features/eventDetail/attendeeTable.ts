import { centsToInputText, parseEurosAmount } from '@fankurve/shared/rules/money';
import {
  centsToEuros,
  CLUB_CASH_DESK,
  defaultTicketPrice,
  type AttendeeDoc,
  type MemberDoc,
  type TicketPriceOption,
  type Language,
  type TransferStatus,
} from '@fankurve/shared';
import type { AttendeeUpdate } from '../../api/eventDetail.js';
import { isFormerMember, shownName } from '../../i18n/memberNames.js';

/**
 * Pure helpers of the attendee table: its rows and counts, the transport summary, the admin's ticket
 * choice and a row's draft as a REST body (money in euros there, cents in the documents).
 */

// ── Attendee table ─────────────────────────────────────────────────────────────────────────────

export interface AttendeeRow {
  doc: AttendeeDoc;
  /** The member's username, or the guest's name. */
  name: string;
  /** For a guest: the username of the member who brought them. */
  host: string | null;
  isGuest: boolean;
}

/** Each member's name as shown (an erased account's pseudonym in the reader's language), by id. */
export const memberNames = (members: readonly MemberDoc[], language: Language): Map<string, string> =>
  new Map(members.map((member) => [member.id, shownName(member.username, language)]));

const collator = new Intl.Collator('de', { sensitivity: 'base' });

/**
 * The table's rows: members in alphabetical order, each followed by the guests they brought (guests
 * whose host is not attending are sorted by their host's name too).
 */
export function attendeeRows(
  attendees: readonly AttendeeDoc[],
  names: ReadonlyMap<string, string>,
  unknown: string,
): AttendeeRow[] {
  const rows = attendees.map((doc): AttendeeRow & { groupKey: string } => {
    if (doc.user_id === null) {
      const host = doc.brought_by ? (names.get(doc.brought_by) ?? unknown) : unknown;
      return { doc, name: doc.guest_name ?? unknown, host, isGuest: true, groupKey: host };
    }
    const name = names.get(doc.user_id) ?? unknown;
    return { doc, name, host: null, isGuest: false, groupKey: name };
  });
  rows.sort(
    (a, b) =>
      collator.compare(a.groupKey, b.groupKey) ||
      Number(a.isGuest) - Number(b.isGuest) ||
      collator.compare(a.name, b.name) ||
      a.doc.created_at.localeCompare(b.doc.created_at) ||
      a.doc.id.localeCompare(b.doc.id),
  );
  return rows.map(({ groupKey: _groupKey, ...row }) => row);
}

/**
 * The bought tickets of the event (member and guest rows), in the table's order: what the delete
 * confirmation names, as an admin's deletion keeps them with their debts (docs/product.md, Tickets and money).
 */
export function boughtTicketRows(
  attendees: readonly AttendeeDoc[],
  names: ReadonlyMap<string, string>,
  unknown: string,
): AttendeeRow[] {
  return attendeeRows(
    attendees.filter((doc) => doc.bought),
    names,
    unknown,
  );
}

/** Active members who are not attending yet: the choices of the admin's add-attendee select. */
export function membersNotAttending(members: readonly MemberDoc[], attendees: readonly AttendeeDoc[]): MemberDoc[] {
  const attending = new Set(attendees.map((row) => row.user_id).filter((userId): userId is string => userId !== null));
  return pickableMembers(members.filter((member) => !attending.has(member.id)));
}

/**
 * The members a picker offers (host, ticket buyer, payer), by name. An erased account stays a name in
 * the books (docs/product.md, Data protection) and is never offered, except as the choice already made.
 */
export const pickableMembers = (members: readonly MemberDoc[], chosen: string | null = null): MemberDoc[] =>
  members
    .filter((member) => member.id === chosen || !isFormerMember(member.username))
    .sort((a, b) => collator.compare(a.username, b.username));

export interface AttendanceCounts {
  going: number;
  maybe: number;
}

export function attendanceCounts(attendees: readonly AttendeeDoc[]): AttendanceCounts {
  let going = 0;
  let maybe = 0;
  for (const row of attendees) {
    if (row.status === 'going') going++;
    else if (row.status === 'maybe') maybe++;
  }
  return { going, maybe };
}

// ── Transport summary ──────────────────────────────────────────────────────────────────────────

export interface TransportSummary {
  /** Attendees (members and guests) who need a seat. */
  needed: number;
  reserved: number;
  waiting: number;
  /** Needing a seat and neither reserved nor on the waiting list. */
  outstanding: number;
}

export function transportSummary(attendees: readonly AttendeeDoc[]): TransportSummary {
  const summary: TransportSummary = { needed: 0, reserved: 0, waiting: 0, outstanding: 0 };
  for (const row of attendees) {
    if (!row.needs_transport) continue;
    summary.needed++;
    if (row.transfer_status === 'reserved') summary.reserved++;
    else if (row.transfer_status === 'waiting_list') summary.waiting++;
    else summary.outstanding++;
  }
  return summary;
}

// ── The admin's ticket fields ──────────────────────────────────────────────────────────────────

/** The ticket select: none, a price option of the event's stadium, free, to be announced, or a custom price. */
export type TicketChoice = '' | 'free' | 'tbd' | 'custom' | `option:${string}`;

export function ticketChoiceOf(doc: AttendeeDoc, options: readonly TicketPriceOption[]): TicketChoice {
  if (doc.is_free) return 'free';
  if (doc.is_price_tbd) return 'tbd';
  if (doc.ticket_price_id && options.some((option) => option.id === doc.ticket_price_id)) return `option:${doc.ticket_price_id}`;
  if (doc.price_cents !== null) return 'custom';
  return '';
}

/** What the table shows as the ticket: the option's type and price, free, TBD, a price, or nothing. */
export type TicketLabel =
  { kind: 'none' } | { kind: 'free' } | { kind: 'tbd' } | { kind: 'price'; cents: number; type: string | null };

export function ticketLabelOf(doc: AttendeeDoc, options: readonly TicketPriceOption[]): TicketLabel {
  if (doc.is_free) return { kind: 'free' };
  if (doc.is_price_tbd) return { kind: 'tbd' };
  const option = doc.ticket_price_id ? options.find((candidate) => candidate.id === doc.ticket_price_id) : undefined;
  if (doc.price_cents !== null)
    return { kind: 'price', cents: doc.price_cents, type: doc.ticket_type ?? option?.ticket_type ?? null };
  if (option) return { kind: 'price', cents: option.price_cents, type: option.ticket_type };
  return { kind: 'none' };
}

/** One row's edits in the admin's edit mode; a field not in the draft keeps the row's value. */
export interface RowDraft {
  ticket?: TicketChoice;
  customPrice?: string;
  paid_by?: string;
  bought?: boolean;
  paid?: boolean;
  received?: boolean;
  transfer_status?: TransferStatus;
}

/** The values the edit mode shows for a row: its draft over the document. */
export function draftValues(doc: AttendeeDoc, draft: RowDraft | undefined, options: readonly TicketPriceOption[]) {
  return {
    ticket: draft?.ticket ?? ticketChoiceOf(doc, options),
    customPrice: draft?.customPrice ?? (doc.price_cents !== null ? centsToInputText(doc.price_cents) : ''),
    paid_by: draft?.paid_by ?? doc.paid_by ?? '',
    bought: draft?.bought ?? doc.bought,
    paid: draft?.paid ?? doc.paid,
    received: draft?.received ?? doc.received,
    transfer_status: draft?.transfer_status ?? doc.transfer_status ?? 'outstanding',
  };
}

export type DraftResult = { ok: true; body: AttendeeUpdate | null } | { ok: false; error: 'priceInvalid' };

/** The PUT /api/attendees/{id} body for a row's draft: only what changed; null when nothing did. */
export function draftBody(doc: AttendeeDoc, draft: RowDraft | undefined, options: readonly TicketPriceOption[]): DraftResult {
  if (!draft) return { ok: true, body: null };
  const values = draftValues(doc, draft, options);
  const body: AttendeeUpdate = {};

  const ticketTouched = draft.ticket !== undefined || draft.customPrice !== undefined;
  if (ticketTouched) {
    const fields = ticketFields(values.ticket, values.customPrice, options);
    if (!fields) return { ok: false, error: 'priceInvalid' };
    const current = {
      ticket_price_id: doc.ticket_price_id,
      price: doc.price_cents === null ? null : centsToEuros(doc.price_cents),
      is_free: doc.is_free,
      is_price_tbd: doc.is_price_tbd,
    };
    if (
      fields.ticket_price_id !== current.ticket_price_id ||
      fields.price !== current.price ||
      fields.is_free !== current.is_free ||
      fields.is_price_tbd !== current.is_price_tbd
    )
      Object.assign(body, fields);
  }
  const paidBy = values.paid_by === '' ? null : values.paid_by;
  if (paidBy !== doc.paid_by) body.paid_by = paidBy;
  if (values.bought !== doc.bought) body.bought = values.bought;
  if (values.paid !== doc.paid) body.paid = values.paid;
  if (values.received !== doc.received) body.received = values.received;
  if (doc.needs_transport && values.transfer_status !== (doc.transfer_status ?? 'outstanding'))
    body.transfer_status = values.transfer_status;
  return { ok: true, body: Object.keys(body).length > 0 ? body : null };
}

/** The ticket fields of a choice; null when a custom price is no valid amount. */
export function ticketFields(
  choice: TicketChoice,
  customPrice: string,
  options: readonly TicketPriceOption[],
):
  | (Required<Pick<AttendeeUpdate, 'ticket_price_id' | 'price' | 'is_free' | 'is_price_tbd'>> &
      Pick<AttendeeUpdate, 'ticket_type'>)
  | null {
  // Without an option the ticket type goes too; an option sets price and type on the server.
  const none = { ticket_price_id: null, price: null, is_free: false, is_price_tbd: false, ticket_type: null };
  if (choice === '') return none;
  if (choice === 'free') return { ...none, price: 0, is_free: true };
  if (choice === 'tbd') return { ...none, is_price_tbd: true };
  if (choice === 'custom') {
    const price = parseEurosAmount(customPrice);
    return price === null ? null : { ...none, price };
  }
  const optionId = choice.slice('option:'.length);
  const option = options.find((candidate) => candidate.id === optionId);
  if (!option) return none;
  return { ticket_price_id: option.id, price: centsToEuros(option.price_cents), is_free: false, is_price_tbd: false };
}

/**
 * The draft when the admin ticks Bought on a row without a price: the price the server would give it
 * (shared rule `defaultTicketPrice`: the event's price, else the stadium's only price category),
 * preselected so the admin sees it before saving. Nothing to add when the row has a price choice or
 * no price is known (it stays open).
 */
export function boughtDraft(
  values: Pick<ReturnType<typeof draftValues>, 'ticket'>,
  eventPriceCents: number,
  options: readonly TicketPriceOption[],
): RowDraft {
  if (values.ticket !== '') return { bought: true };
  const price = defaultTicketPrice(eventPriceCents, options);
  if (!price) return { bought: true };
  if (price.kind === 'event') return { bought: true, ticket: 'custom', customPrice: centsToInputText(price.price_cents) };
  return { bought: true, ticket: `option:${price.category.id}` };
}

export const isClubCashDesk = (paidBy: string | null): boolean => paidBy === CLUB_CASH_DESK;
