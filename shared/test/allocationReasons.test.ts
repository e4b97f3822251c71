import { describe, expect, it } from 'vitest';
import { allocationOrder, type AllocationRequest, type TicketRequestState } from '../src/index.js';
import { checkRequestNote, placeInAllocation, rankReasons, type PlacedRequest } from '../src/rules/allocationReasons.js';

/* Why a request stands where it does, and the parts of the member's sentence (shared/src/rules/allocationReasons.ts). */

const at = (minute: number) => `2030-02-01T12:${String(minute).padStart(2, '0')}:00.000Z`;

function request(
  id: string,
  who: { user: string } | { host: string },
  minute: number,
  fields: Partial<PlacedRequest> = {},
): PlacedRequest {
  return {
    attendee_id: id,
    user_id: 'user' in who ? who.user : null,
    brought_by: 'host' in who ? who.host : null,
    requested_at: at(minute),
    pinned: false,
    excluded: false,
    state: 'requested',
    ...fields,
  };
}

const points: Record<string, number> = { anna: 12, ben: 12, carl: 3, dora: 40, emil: 7 };
const pointsOf = (userId: string) => points[userId] ?? 0;

describe('rankReasons', () => {
  it('names what decided each place and where request time broke a tie', () => {
    const requests: AllocationRequest[] = [
      request('anna', { user: 'anna' }, 3),
      request('ben', { user: 'ben' }, 1),
      request('carl', { user: 'carl' }, 2, { pinned: true }),
      request('emil', { user: 'emil' }, 4, { pinned: true }),
      request('dora', { user: 'dora' }, 5, { excluded: true }),
      request('g-anna', { host: 'anna' }, 6),
      request('g-ben', { host: 'ben' }, 7),
      request('g-carl', { host: 'carl' }, 8),
    ];
    const reasons = rankReasons(requests, pointsOf);
    expect(Object.fromEntries(reasons)).toEqual({
      // Two pinned: their request times order them.
      carl: { kind: 'pinned', points: null, tie: true },
      emil: { kind: 'pinned', points: null, tie: true },
      // Equal points: the earlier request first.
      anna: { kind: 'points', points: 12, tie: true },
      ben: { kind: 'points', points: 12, tie: true },
      // Guests rank by their host's points; two hosts with 12 points are a tie, carl's guest is not.
      'g-anna': { kind: 'guest', points: 12, tie: true },
      'g-ben': { kind: 'guest', points: 12, tie: true },
      'g-carl': { kind: 'guest', points: 3, tie: false },
      dora: { kind: 'excluded', points: null, tie: false },
    });
    // The reasons explain the shared order.
    expect(allocationOrder(requests, pointsOf).map((entry) => reasons.get(entry.attendee_id)!.kind)).toEqual([
      'pinned',
      'pinned',
      'points',
      'points',
      'guest',
      'guest',
      'guest',
      'excluded',
    ]);
  });

  it('sees no tie where the points differ', () => {
    const reasons = rankReasons([request('a', { user: 'dora' }, 1), request('b', { user: 'emil' }, 2)], pointsOf);
    expect([...reasons.values()].map((reason) => reason.tie)).toEqual([false, false]);
  });
});

describe('placeInAllocation', () => {
  const ordered = (states: [string, TicketRequestState, Partial<PlacedRequest>?][]) =>
    states.map(([id, state, fields], index) => request(id, { user: id }, index, { state, ...fields }));

  it('while requests gather: the place in the allocation order among the current requests', () => {
    const order = ordered([
      ['a', 'requested'],
      ['gone', 'withdrawn'],
      ['b', 'requested'],
      ['x', 'requested', { excluded: true }],
    ]);
    expect(placeInAllocation(order, 'b', { tickets: 5, allocated: false })).toEqual({
      place: 2,
      requests: 3,
      tickets: 5,
      outcome: 'gathering',
      waiting_place: null,
    });
    // Excluded and withdrawn requests have no place.
    expect(placeInAllocation(order, 'x', { tickets: 5, allocated: false })).toBeNull();
    expect(placeInAllocation(order, 'gone', { tickets: 5, allocated: false })).toBeNull();
    expect(placeInAllocation(order, 'nobody', { tickets: 5, allocated: false })).toBeNull();
  });

  it('after the allocation: "7th of 12 requests for 5 tickets: 2nd on the waiting list"', () => {
    const order = ordered([
      ['h1', 'allocated'],
      ['h2', 'allocated'],
      ['h3', 'allocated'],
      ['h4', 'allocated'],
      ['h5', 'allocated'],
      ['w1', 'waiting'],
      ['w2', 'waiting'],
      ['w3', 'waiting'],
      ['w4', 'waiting'],
      ['w5', 'waiting'],
      ['w6', 'waiting'],
      ['out', 'waiting', { excluded: true }],
      ['left', 'declined'],
    ]);
    const contingent = { tickets: 5, allocated: true };
    expect(placeInAllocation(order, 'w2', contingent)).toEqual({
      place: 7,
      requests: 12,
      tickets: 5,
      outcome: 'waiting',
      waiting_place: 2,
    });
    expect(placeInAllocation(order, 'h3', contingent)).toEqual({
      place: 3,
      requests: 12,
      tickets: 5,
      outcome: 'ticket',
      waiting_place: null,
    });
    expect(placeInAllocation(order, 'left', contingent)).toBeNull();
  });

  it('puts holders first, then an open offer, then those waiting, whatever their order', () => {
    // A late request with more points waits behind those who already hold a ticket (no deadline).
    const order = ordered([
      ['late-but-loyal', 'waiting'],
      ['h1', 'allocated'],
      ['offered', 'offered'],
      ['returned', 'returned'],
      ['w', 'waiting'],
      ['deleted', 'waiting', { live: false }],
    ]);
    const contingent = { tickets: 2, allocated: true };
    expect(placeInAllocation(order, 'h1', contingent)).toMatchObject({ place: 1, requests: 4, outcome: 'ticket' });
    expect(placeInAllocation(order, 'offered', contingent)).toMatchObject({ place: 2, outcome: 'offered', waiting_place: null });
    expect(placeInAllocation(order, 'late-but-loyal', contingent)).toMatchObject({
      place: 3,
      outcome: 'waiting',
      waiting_place: 1,
    });
    expect(placeInAllocation(order, 'w', contingent)).toMatchObject({ place: 4, outcome: 'waiting', waiting_place: 2 });
    expect(placeInAllocation(order, 'returned', contingent)).toBeNull();
    expect(placeInAllocation(order, 'deleted', contingent)).toBeNull();
  });
});

describe('checkRequestNote', () => {
  it('trims one line of at most 200 characters; an empty note is none', () => {
    expect(checkRequestNote('  Vorstand  ')).toEqual({ ok: true, value: 'Vorstand' });
    expect(checkRequestNote('   ')).toEqual({ ok: true, value: null });
    expect(checkRequestNote('x'.repeat(200)).ok).toBe(true);
    expect(checkRequestNote('x'.repeat(201))).toEqual({ ok: false, code: 'loyaltyNoteTooLong' });
    expect(checkRequestNote('zwei\nZeilen')).toEqual({ ok: false, code: 'textHasControlCharacters' });
  });
});
