import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSeed } from './convergence/run.js';
import { World } from './convergence/world.js';

/*
 * Randomized convergence: one member on two devices, two more members and the admin work on the
 * same events at once, with devices going offline and back. Every seeded run must keep the merge
 * rule of docs/architecture.md (sync: push), as client/test/convergence/model.ts states it: each
 * device equal to the server and its outbox empty, no device's change lost unless the server
 * refused it with a notice, both of a member's devices' edits of different fields kept, and the
 * admin's ticket fields untouched by member pushes. Some runs also have a ride whose seats members'
 * devices ask for, cancel and its driver's device answers (docs/architecture.md, Seats in rides:
 * no more seats held than offered, a refused ask leaves a notice), or a bus whose captains' devices
 * tick its passengers on board (docs/architecture.md, The bus).
 *
 * A failing run prints its seed and operation log. Replay it with
 * CONVERGENCE_SEED=<seed> CONVERGENCE_RUNS=1 (CONVERGENCE_TRACE=1 adds the sync traffic to the log,
 * CONVERGENCE_VERBOSE=1 prints passing runs too); run thousands with scripts/convergence.ts.
 */

const RUNS = Number(process.env.CONVERGENCE_RUNS ?? 200);
const FIRST_SEED = Number(process.env.CONVERGENCE_SEED ?? 1);
const VERBOSE = process.env.CONVERGENCE_VERBOSE === '1';

describe('convergence: randomized offline edits of members, their devices and the admin', () => {
  let world: World;
  let twoDeviceRows = 0;

  beforeAll(async () => {
    world = await World.start();
  });

  afterAll(async () => {
    await world?.close();
  });

  for (let seed = FIRST_SEED; seed < FIRST_SEED + RUNS; seed++) {
    it(`seed ${seed}`, async () => {
      const report = await runSeed(world, seed, { verbose: VERBOSE });
      twoDeviceRows += report.twoDeviceRows;
      if (VERBOSE) console.log(report.text);
      // The operations are the seed's, the replication's timing is not: a run that fails fails, first time.
      if (!report.ok) expect.fail(report.text);
    });
  }

  it.runIf(RUNS >= 100)('often has both of a member’s devices edit different fields of one row', () => {
    expect(twoDeviceRows).toBeGreaterThanOrEqual(RUNS / 10);
  });
});
