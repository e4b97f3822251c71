import { describe, expect, it } from 'vitest';
import {
  allocationOrder,
  checkRequestDeadline,
  myRequestState,
  nextInLine,
  placeInLine,
  type AllocationRequest,
  type TicketRequestState,
} from '../src/index.js';

/* The allocation order and the deadline rule of a ticket contingent (shared/src/rules/allocation.ts). */

const at = (minute: number) => `2030-02-01T12:${String(minute).padStart(2, '0')}:00.000Z`;

function member(id: string, userId: string, minute: number, flags: Partial<AllocationRequest> = {}): AllocationRequest {
  return {
    attendee_id: id,
    user_id: userId,
    brought_by: null,
    requested_at: at(minute),
    pinned: false,
    excluded: false,
    ...flags,
  };
}

function guest(id: string, host: string, minute: number, flags: Partial<AllocationRequest> = {}): AllocationRequest {
  return { attendee_id: id, user_id: null, brought_by: host, requested_at: at(minute), pinned: false, excluded: false, ...flags };
}

const ids = (order: AllocationRequest[]) => order.map((request) => request.attendee_id);

describe('allocationOrder', () => {
  const points: Record<string, number> = { anna: 12, ben: 12, carl: 3, dora: 40, emil: 7 };
  const pointsOf = (userId: string) => points[userId] ?? 0;

  it('puts pinned requests first by time, then members by points and time, then guests by their hosts, excluded last', () => {
    const requests = [
      guest('g-carl', 'carl', 1),
      member('carl', 'carl', 2),
      member('ben', 'ben', 3),
      guest('g-ben-late', 'ben', 9),
      guest('g-ben', 'ben', 4),
      member('anna', 'anna', 5),
      member('emil', 'emil', 6, { pinned: true }),
      guest('g-dora', 'dora', 7),
      member('dora', 'dora', 8, { excluded: true }),
      guest('g-pinned', 'carl', 10, { pinned: true }),
      member('fritz', 'fritz', 0),
    ];
    expect(ids(allocationOrder(requests, pointsOf))).toEqual([
      // pinned, by time
      'emil',
      'g-pinned',
      // members: points, then time (ben asked before anna at equal points), then nobody's points
      'ben',
      'anna',
      'carl',
      'fritz',
      // guests: their hosts' order (dora is excluded herself but ranks her guest by her 40 points)
      'g-dora',
      'g-ben',
      'g-ben-late',
      'g-carl',
      // excluded
      'dora',
    ]);
  });

  it('ranks a host without a request of their own by points and their guests’ first request', () => {
    const requests = [
      member('carl', 'carl', 1),
      guest('g-emil-2', 'emil', 5),
      guest('g-emil-1', 'emil', 4),
      guest('g-carl', 'carl', 2),
    ];
    // emil (7 points, no request) ranks before carl (3 points).
    expect(ids(allocationOrder(requests, pointsOf))).toEqual(['carl', 'g-emil-1', 'g-emil-2', 'g-carl']);
    const tie = [guest('g-x', 'xaver', 3), guest('g-y', 'yvonne', 2)];
    expect(ids(allocationOrder(tie, () => 0))).toEqual(['g-y', 'g-x']);
  });

  it('breaks a full tie by the attendee id, and does not change the list it is given', () => {
    const requests = [member('b-row', 'anna', 1), member('a-row', 'ben', 1)];
    expect(ids(allocationOrder(requests, () => 5))).toEqual(['a-row', 'b-row']);
    expect(ids(requests)).toEqual(['b-row', 'a-row']);
  });

  it('counts places in line without the excluded', () => {
    const order = [member('a', 'a', 1), member('b', 'b', 2, { excluded: true }), member('c', 'c', 3)];
    expect(placeInLine(order, 'c', () => true)).toBe(2);
    expect(placeInLine(order, 'b', () => true)).toBeNull();
    expect(placeInLine(order, 'a', (request) => request.attendee_id !== 'a')).toBeNull();
  });
});

describe('checkRequestDeadline', () => {
  const kickOff = '2030-03-01 15:30:00';

  it('takes a time in the event’s season, up to the kick-off, to the minute', () => {
    expect(checkRequestDeadline('2030-02-20 18:07', kickOff)).toEqual({ ok: true, value: '2030-02-20 18:07:00' });
    expect(checkRequestDeadline('2029-07-01 00:00', kickOff)).toEqual({ ok: true, value: '2029-07-01 00:00:00' });
    expect(checkRequestDeadline('2030-03-01T15:30', kickOff)).toEqual({ ok: true, value: kickOff });
  });

  it('refuses no date, a time before the season and one after the event', () => {
    expect(checkRequestDeadline('soon', kickOff)).toEqual({ ok: false, code: 'contingentDeadlineInvalid' });
    expect(checkRequestDeadline('2030-02-30 12:00', kickOff)).toEqual({ ok: false, code: 'contingentDeadlineInvalid' });
    expect(checkRequestDeadline('2029-06-30 23:59', kickOff)).toEqual({ ok: false, code: 'contingentDeadlineOutsideSeason' });
    expect(checkRequestDeadline('2030-03-01 15:31', kickOff)).toEqual({ ok: false, code: 'contingentDeadlineOutsideSeason' });
    // An event in autumn: its season began in July of the same year.
    expect(checkRequestDeadline('2030-06-30 12:00', '2030-09-01 15:30:00')).toEqual({
      ok: false,
      code: 'contingentDeadlineOutsideSeason',
    });
  });
});

describe('myRequestState', () => {
  it('shows no request, a withdrawn one and a returned ticket as none', () => {
    expect([null, 'withdrawn', 'returned', 'waiting', 'offered'].map((s) => myRequestState(s as never))).toEqual([
      'none',
      'none',
      'none',
      'waiting',
      'offered',
    ]);
  });
});

describe('nextInLine', () => {
  const request = (id: string, state: TicketRequestState, excluded = false) => ({ id, state, excluded });
  it('takes the first free ones that are in line, skipping excluded, held, offered and declined requests', () => {
    const ordered = [
      request('held', 'allocated'),
      request('out', 'waiting', true),
      request('a', 'requested'),
      request('offered', 'offered'),
      request('b', 'waiting'),
      request('gone', 'declined'),
      request('c', 'waiting'),
    ];
    expect(nextInLine(ordered, 2).map((r) => r.id)).toEqual(['a', 'b']);
    expect(nextInLine(ordered, 5).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(nextInLine(ordered, 0)).toEqual([]);
    expect(nextInLine(ordered, -1)).toEqual([]);
  });
});
