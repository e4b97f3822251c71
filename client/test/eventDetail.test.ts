import { parseEurosAmount } from '@fankurve/shared';
import { CLUB_CASH_DESK, newMemberAttendeeDoc, type AttendeeDoc, type EventDoc, type MemberDoc } from '@fankurve/shared';
import { describe, expect, it } from 'vitest';
import {
  attendanceCounts,
  attendeeRows,
  boughtDraft,
  boughtTicketRows,
  draftBody,
  draftValues,
  membersNotAttending,
  memberNames,
  pickableMembers,
  ticketChoiceOf,
  ticketLabelOf,
  transportSummary,
} from '../src/features/eventDetail/attendeeTable.js';
import { eventFormOf, eventUpdateOf, imageProblem } from '../src/features/eventDetail/eventForm.js';
import { transportFormOf, transportInputOf, EMPTY_TRANSPORT_FORM } from '../src/features/eventDetail/transportForm.js';

const member = (id: string, username: string): MemberDoc => ({ id, username, email: null, scope: 'user', seq: 1 });
const members = [member('u-anna', 'anna'), member('u-bert', 'Bert'), member('u-carl', 'carl')];

function row(id: string, fields: Partial<AttendeeDoc> = {}): AttendeeDoc {
  return {
    ...newMemberAttendeeDoc(
      { id, event_id: 'e1', user_id: 'u-anna', status: 'going', created_at: '2026-01-01T10:00:00Z' },
      'Test match (A)',
    ),
    ...fields,
  };
}

const guest = (id: string, name: string, host: string, fields: Partial<AttendeeDoc> = {}) =>
  row(id, { user_id: null, guest_name: name, brought_by: host, ...fields });

const options = [
  { id: 'p-standing', price_cents: 1850, ticket_type: 'Stehplatz' },
  { id: 'p-seat', price_cents: 3200, ticket_type: 'Sitzplatz' },
];

describe('attendee rows', () => {
  it('sorts members by name (case-insensitive) with each member followed by their guests', () => {
    const rows = attendeeRows(
      [
        row('a-carl', { user_id: 'u-carl' }),
        guest('g-zoe', 'Zoe', 'u-anna'),
        row('a-bert', { user_id: 'u-bert' }),
        guest('g-max', 'Max', 'u-anna'),
        row('a-anna', { user_id: 'u-anna' }),
        guest('g-lost', 'Lost', 'u-gone'),
      ],
      memberNames(members, 'de'),
      '?',
    );
    expect(rows.map((r) => (r.isGuest ? `${r.name} (${r.host})` : r.name))).toEqual([
      'Lost (?)',
      'anna',
      'Max (anna)',
      'Zoe (anna)',
      'Bert',
      'carl',
    ]);
  });

  it('offers only members who are not attending, alphabetically', () => {
    const attending = [row('a1', { user_id: 'u-bert' }), guest('g1', 'Gast', 'u-anna')];
    expect(membersNotAttending(members, attending).map((m) => m.username)).toEqual(['anna', 'carl']);
  });

  // docs/product.md, Data protection: an erased account stays a name in the books, never a choice.
  it("shows an erased member's pseudonym in the reader's language and offers them in no picker", () => {
    const withErased = [...members, member('u-gone', 'Ehemaliges Mitglied 7')];
    expect(memberNames(withErased, 'de').get('u-gone')).toBe('Ehemaliges Mitglied 7');
    expect(memberNames(withErased, 'en').get('u-gone')).toBe('Former member 7');
    expect(membersNotAttending(withErased, []).map((m) => m.id)).toEqual(['u-anna', 'u-bert', 'u-carl']);
    expect(pickableMembers(withErased).map((m) => m.id)).toEqual(['u-anna', 'u-bert', 'u-carl']);
    expect(pickableMembers(withErased, 'u-gone').map((m) => m.id)).toEqual(['u-anna', 'u-bert', 'u-carl', 'u-gone']);
  });

  it("names the bought tickets for the delete confirmation, members' and guests', in the table's order", () => {
    const rows = boughtTicketRows(
      [
        row('a-carl', { user_id: 'u-carl', bought: true, paid: true, price_cents: 1850 }),
        row('a-bert', { user_id: 'u-bert' }),
        guest('g-max', 'Max', 'u-anna', { bought: true, price_cents: 1200 }),
        row('a-anna', { user_id: 'u-anna', bought: false, paid_requested: true }),
      ],
      memberNames(members, 'de'),
      '?',
    );
    expect(rows.map((r) => [r.name, r.host, r.doc.paid])).toEqual([
      ['Max', 'anna', false],
      ['carl', null, true],
    ]);
    expect(boughtTicketRows([row('a'), guest('g', 'G', 'u-anna')], memberNames(members, 'de'), '?')).toEqual([]);
  });

  it('counts going and maybe over members and guests', () => {
    expect(attendanceCounts([row('a'), row('b', { status: 'maybe' }), guest('g', 'G', 'u-anna')])).toEqual({
      going: 2,
      maybe: 1,
    });
  });
});

describe('transport summary', () => {
  it('counts only rows that need a seat, by transfer status', () => {
    const summary = transportSummary([
      row('a', { needs_transport: true, transfer_status: 'reserved' }),
      row('b', { needs_transport: true, transfer_status: 'waiting_list' }),
      row('c', { needs_transport: true, transfer_status: 'outstanding' }),
      guest('g', 'G', 'u-anna', { needs_transport: true, transfer_status: 'reserved' }),
      row('d', { needs_transport: false, transfer_status: 'reserved' }),
    ]);
    expect(summary).toEqual({ needed: 4, reserved: 2, waiting: 1, outstanding: 1 });
  });
});

describe('ticket choice', () => {
  it('reads free, TBD, an option, a plain price, or nothing from a row', () => {
    expect(ticketChoiceOf(row('a', { is_free: true, price_cents: 0 }), options)).toBe('free');
    expect(ticketChoiceOf(row('a', { is_price_tbd: true }), options)).toBe('tbd');
    expect(ticketChoiceOf(row('a', { ticket_price_id: 'p-seat', price_cents: 3200 }), options)).toBe('option:p-seat');
    expect(ticketChoiceOf(row('a', { ticket_price_id: 'p-gone', price_cents: 1000 }), options)).toBe('custom');
    expect(ticketChoiceOf(row('a'), options)).toBe('');
  });

  it('labels the ticket with its type and price', () => {
    expect(ticketLabelOf(row('a', { ticket_price_id: 'p-seat', price_cents: 3200, ticket_type: 'Sitzplatz' }), options)).toEqual({
      kind: 'price',
      cents: 3200,
      type: 'Sitzplatz',
    });
    expect(ticketLabelOf(row('a', { price_cents: 2000 }), options)).toEqual({ kind: 'price', cents: 2000, type: null });
    expect(ticketLabelOf(row('a', { is_free: true, price_cents: 0 }), options)).toEqual({ kind: 'free' });
    expect(ticketLabelOf(row('a'), options)).toEqual({ kind: 'none' });
  });

  it('parses euro amounts with comma or point', () => {
    expect(parseEurosAmount('25')).toBe(25);
    expect(parseEurosAmount('25,5')).toBe(25.5);
    expect(parseEurosAmount(' 18.50 ')).toBe(18.5);
    expect(parseEurosAmount('-1')).toBeNull();
    // German thousands (shared/src/rules/money.ts parseEuros): 1.234 is 1234 €.
    expect(parseEurosAmount('1.234')).toBe(1234);
    expect(parseEurosAmount('1,234')).toBeNull();
    expect(parseEurosAmount('abc')).toBeNull();
    expect(parseEurosAmount('')).toBeNull();
  });
});

describe('ticking Bought without a price', () => {
  it("preselects the event's price (in the category of that price), else the stadium's only category, else leaves the price open", () => {
    const none = { ticket: '' as const };
    expect(boughtDraft(none, 1900, options)).toEqual({ bought: true, ticket: 'custom', customPrice: '19.00' });
    expect(boughtDraft(none, 1850, options)).toEqual({ bought: true, ticket: 'option:p-standing' });
    expect(boughtDraft(none, 0, [options[1]!])).toEqual({ bought: true, ticket: 'option:p-seat' });
    expect(boughtDraft(none, 0, options)).toEqual({ bought: true });
    expect(boughtDraft({ ticket: 'free' }, 1850, options)).toEqual({ bought: true });
    // The draft's body sends the preselected price with the purchase.
    const doc = row('a1');
    expect(draftBody(doc, boughtDraft(none, 1900, options), options)).toEqual({
      ok: true,
      body: expect.objectContaining({ bought: true, price: 19, ticket_price_id: null }),
    });
    expect(draftBody(doc, boughtDraft(none, 1850, options), options)).toEqual({
      ok: true,
      body: expect.objectContaining({ bought: true, price: 18.5, ticket_price_id: 'p-standing' }),
    });
  });
});

describe('edit mode drafts', () => {
  const doc = row('a', { needs_transport: true, transfer_status: 'outstanding' });

  it('sends nothing for an untouched row or a draft equal to the row', () => {
    expect(draftBody(doc, undefined, options)).toEqual({ ok: true, body: null });
    expect(draftBody(doc, { bought: false, ticket: '' }, options)).toEqual({ ok: true, body: null });
  });

  it('sends only the changed fields: an option with its price, bought, paid, payer and seat', () => {
    const result = draftBody(
      doc,
      { ticket: 'option:p-standing', bought: true, paid: true, paid_by: CLUB_CASH_DESK, transfer_status: 'reserved' },
      options,
    );
    expect(result).toEqual({
      ok: true,
      body: {
        ticket_price_id: 'p-standing',
        price: 18.5,
        is_free: false,
        is_price_tbd: false,
        paid_by: CLUB_CASH_DESK,
        bought: true,
        paid: true,
        transfer_status: 'reserved',
      },
    });
  });

  it('free, TBD and a custom price clear the option and the ticket type', () => {
    const priced = row('p', { ticket_price_id: 'p-seat', price_cents: 3200, ticket_type: 'Sitzplatz' });
    expect(draftBody(priced, { ticket: 'free' }, options)).toEqual({
      ok: true,
      body: { ticket_price_id: null, price: 0, is_free: true, is_price_tbd: false, ticket_type: null },
    });
    expect(draftBody(priced, { ticket: 'tbd' }, options)).toEqual({
      ok: true,
      body: { ticket_price_id: null, price: null, is_free: false, is_price_tbd: true, ticket_type: null },
    });
    expect(draftBody(priced, { ticket: 'custom', customPrice: '27,50' }, options)).toEqual({
      ok: true,
      body: { ticket_price_id: null, price: 27.5, is_free: false, is_price_tbd: false, ticket_type: null },
    });
  });

  it('refuses a custom price that is no amount', () => {
    expect(draftBody(doc, { ticket: 'custom', customPrice: 'viel' }, options)).toEqual({ ok: false, error: 'priceInvalid' });
  });

  it('does not send a transfer status for a row without a seat', () => {
    const own = row('o', { needs_transport: false, transfer_status: null });
    expect(draftBody(own, { transfer_status: 'reserved' }, options)).toEqual({ ok: true, body: null });
  });

  it('shows the draft over the row', () => {
    const values = draftValues(row('v', { price_cents: 1500, paid_by: 'u-bert' }), { paid: true }, options);
    expect(values).toMatchObject({ ticket: 'custom', customPrice: '15.00', paid_by: 'u-bert', paid: true, bought: false });
  });
});

describe('event form', () => {
  const event = {
    id: 'e1',
    title: 'Union – Bayern (A)',
    description: null,
    date: '2026-12-05 18:30:00',
    location: 'München',
    stadium_id: 's1',
    stadium_name: 'Allianz Arena',
    stadium_address: null,
    ticket_price_cents: 0,
    ticket_buyer: null,
    season: '2026/27',
    is_updated: false,
    created_by: 'u-anna',
    creator_name: 'anna',
    image_filename: null,
    guest_block_capacity: null,
    ticket_prices: [],
    created_at: '2026-01-01T00:00:00Z',
    archived: false,
    going_count: 0,
    maybe_count: 0,
    answer_deadline: null,
    seq: 3,
  } satisfies EventDoc;

  it('fills the form from the event (price 0 = not yet available)', () => {
    expect(eventFormOf(event)).toMatchObject({
      day: '2026-12-05',
      hour: '18',
      minute: '30',
      price: '',
      priceNotYetAvailable: true,
      stadium_id: 's1',
    });
  });

  it('builds the PUT body: date as YYYY-MM-DD HH:MM, price 0 when not yet available', () => {
    const result = eventUpdateOf({ ...eventFormOf(event), title: ' Neu (A) ', description: '  ' });
    expect(result).toEqual({
      ok: true,
      body: {
        title: 'Neu (A)',
        description: null,
        date: '2026-12-05 18:30',
        location: 'München',
        stadium_id: 's1',
        ticket_price: 0,
        ticket_buyer: null,
        answer_deadline: null,
      },
    });
    const priced = eventUpdateOf({ ...eventFormOf(event), priceNotYetAvailable: false, price: '32.5' });
    expect(priced.ok && priced.body.ticket_price).toBe(32.5);
  });

  it('takes an answer deadline before the event, and refuses one at or after it', () => {
    const withDeadline = { ...event, answer_deadline: '2026-12-03 20:00:00' };
    const form = eventFormOf(withDeadline);
    expect(form.answer_deadline).toBe('2026-12-03T20:00');
    const kept = eventUpdateOf(form);
    expect(kept.ok && kept.body.answer_deadline).toBe('2026-12-03 20:00');
    const cleared = eventUpdateOf({ ...form, answer_deadline: '' });
    expect(cleared.ok && cleared.body.answer_deadline).toBeNull();
    expect(eventUpdateOf({ ...form, answer_deadline: '2026-12-05T18:30' })).toEqual({
      ok: false,
      deadline: 'answerDeadlineAfterEvent',
    });
    expect(eventUpdateOf({ ...form, day: '2026-12-02' })).toEqual({ ok: false, deadline: 'answerDeadlineAfterEvent' });
  });

  it('requires title, date and location and a valid price', () => {
    const form = eventFormOf(event);
    expect(eventUpdateOf({ ...form, title: ' ' })).toEqual({ ok: false, error: 'titleRequired' });
    expect(eventUpdateOf({ ...form, day: '' })).toEqual({ ok: false, error: 'dateRequired' });
    expect(eventUpdateOf({ ...form, location: '' })).toEqual({ ok: false, error: 'locationRequired' });
    expect(eventUpdateOf({ ...form, priceNotYetAvailable: false, price: '-3' })).toEqual({ ok: false, error: 'priceInvalid' });
  });

  it('keeps odd stored minutes on the 15-minute grid', () => {
    expect(eventFormOf({ ...event, date: '2026-12-05 18:37:00' })).toMatchObject({ hour: '18', minute: '30' });
    expect(eventFormOf({ ...event, date: '2026-12-05 23:55:00' })).toMatchObject({ hour: '23', minute: '45' });
  });
});

describe('transport form', () => {
  it('requires name and departure location, and a price unless free or TBD', () => {
    expect(transportInputOf('e1', EMPTY_TRANSPORT_FORM)).toEqual({ ok: false, error: 'nameRequired' });
    expect(transportInputOf('e1', { ...EMPTY_TRANSPORT_FORM, name: 'Bus' })).toEqual({
      ok: false,
      error: 'departureLocationRequired',
    });
    const base = { ...EMPTY_TRANSPORT_FORM, name: 'Bus', departure_location: 'Alte Försterei' };
    expect(transportInputOf('e1', base)).toEqual({ ok: false, error: 'priceRequired' });
    expect(transportInputOf('e1', { ...base, is_price_tbd: true })).toEqual({
      ok: true,
      body: {
        event_id: 'e1',
        name: 'Bus',
        departure_location: 'Alte Försterei',
        price_per_seat: 0,
        is_free: false,
        is_price_tbd: true,
        departure_datetime: null,
        seat_choice: 'admin',
        charge_at_departure: false,
      },
    });
    // docs/product.md, Bus: members choosing their seats and the fare at departure.
    expect(transportInputOf('e1', { ...base, is_free: true, members_choose: true, charge_at_departure: true })).toMatchObject({
      ok: true,
      body: { seat_choice: 'members', charge_at_departure: true },
    });
  });

  it('sends the departure as club wall-clock time and reads it back', () => {
    const result = transportInputOf('e1', {
      ...EMPTY_TRANSPORT_FORM,
      name: 'Bus',
      departure_location: 'S Köpenick',
      departure: '2026-12-05T08:15',
      price: '15',
    });
    expect(result.ok && result.body).toMatchObject({ departure_datetime: '2026-12-05 08:15', price_per_seat: 15 });
    const form = transportFormOf({
      id: 't1',
      event_id: 'e1',
      name: 'Bus',
      price_per_seat_cents: 1500,
      is_free: false,
      is_price_tbd: false,
      departure_datetime: '2026-12-05 08:15:00',
      departure_location: 'S Köpenick',
      created_at: '2026-01-01T00:00:00Z',
      seq: 1,
    });
    expect(form).toMatchObject({ departure: '2026-12-05T08:15', price: '15.00' });
  });
});

describe('image checks', () => {
  it('allows images up to 5 MB only', () => {
    expect(imageProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(imageProblem({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe('fileTooLarge');
    expect(imageProblem({ type: 'application/pdf', size: 10 })).toBe('onlyImages');
  });
});
