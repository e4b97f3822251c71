import { describe, expect, it } from 'vitest';
import { changeBatchMs } from '../src/sync/changeBatch.js';

/* How long a change stream gathers changes (docs/architecture.md, The match-day rush on one server). */
describe('change batching', () => {
  it('gathers 100 ms with few streams open, longer with thousands, never past half a second', () => {
    expect([0, 1, 400].map(changeBatchMs)).toEqual([100, 100, 100]);
    expect(changeBatchMs(1000)).toBe(250);
    expect([2000, 10_000].map(changeBatchMs)).toEqual([500, 500]);
  });
});
