import 'fake-indexeddb/auto';
import type { AttendeeDoc } from '@fankurve/shared';
import { RunContext } from './context.js';
import { executeStep } from './execute.js';
import { checkInvariants, describeViolation, type Violation } from './model.js';
import { generateScenario, type Scenario } from './scenario.js';
import { devicesCaughtUp, settle } from './settle.js';
import type { World } from './world.js';

/*
 * One seeded run: fresh events, the scenario's steps, everything online and settled, then the
 * invariants. A failing run's report names its seed, how to replay it, and the operation log.
 */

export interface RunReport {
  seed: number;
  ok: boolean;
  violations: Violation[];
  /** Live rows to which two devices of one member wrote (different fields), every write kept. */
  twoDeviceRows: number;
  /** How often each kind of outcome happened: device writes, refusals on the device, notices, admin answers. */
  counts: Record<string, number>;
  steps: number;
  /** From every device online to converged. */
  settleMs: number;
  durationMs: number;
  /** The report with the operation log: for a failing run, or for any with `verbose`. */
  text: string;
}

export interface RunOptions {
  settleTimeoutMs?: number;
  verbose?: boolean;
}

interface Outcome {
  violations: Violation[];
  twoDeviceRows: number;
  settleMs: number;
  rows: AttendeeDoc[];
}

const SETTLE_TIMEOUT_MS = 5000;
const CLEAN_UP_MS = 2000;

export function runSeed(world: World, seed: number, options: RunOptions = {}): Promise<RunReport> {
  return runScenario(world, generateScenario(seed), options);
}

/** Runs any scenario, a generated one or one written by hand (a minimised failure, say). */
export async function runScenario(world: World, scenario: Scenario, options: RunOptions = {}): Promise<RunReport> {
  const started = Date.now();
  const { seed } = scenario;
  const run = new RunContext(world, scenario, await world.createEvents(seed));
  try {
    const outcome = await playAndCheck(run, options.settleTimeoutMs ?? SETTLE_TIMEOUT_MS);
    const ok = outcome.violations.length === 0;
    const { violations, twoDeviceRows, settleMs } = outcome;
    const counts = Object.fromEntries(run.counts);
    const text = ok && !options.verbose ? '' : reportText(run, outcome);
    return {
      seed,
      ok,
      violations,
      twoDeviceRows,
      counts,
      steps: scenario.steps.length,
      settleMs,
      durationMs: Date.now() - started,
      text,
    };
  } finally {
    await cleanUp(run);
  }
}

/**
 * Removes the run's events and waits until the devices have dropped their rows, so the next run
 * starts on quiet devices, as a replay of its seed alone does.
 */
async function cleanUp(run: RunContext): Promise<void> {
  await run.world.removeEvents(run.eventIds);
  run.world.clearOutboxes();
  await devicesCaughtUp(run.world, run.eventIds, CLEAN_UP_MS);
}

async function playAndCheck(run: RunContext, settleTimeoutMs: number): Promise<Outcome> {
  const failed = (violation: Violation, settleMs = 0): Outcome => ({
    violations: [...run.deviceErrors, violation],
    twoDeviceRows: 0,
    settleMs,
    rows: [],
  });
  try {
    for (const [index, step] of run.scenario.steps.entries()) await executeStep(run, step, index);
  } catch (error) {
    run.world.allOnline();
    return failed({
      invariant: null,
      kind: 'step failed',
      message: `a step failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    });
  }
  run.world.allOnline();
  run.note('every device online; waiting for convergence');
  const started = Date.now();
  const settled = await settle(run.world, run.eventIds, (id) => run.label(id), settleTimeoutMs);
  const settleMs = Date.now() - started;
  if (!settled.ok) return failed({ invariant: 1, kind: settled.kind, message: settled.reason }, settleMs);
  for (const notice of settled.state.notices) run.count(`notice ${notice.action}: ${notice.code}`);
  for (const id of run.world.takeSettledByLedger()) run.expected.adminFields(id, { paid: true }, run.scenario.steps.length);
  const final = { ...settled.state, memberIds: run.world.memberIds() };
  for (const seat of settled.state.seats) run.count(`ask ends ${seat.state}`);
  for (const { writes } of run.expected.ticks.values())
    if (new Set(writes.map((write) => write.device)).size > 1) run.count('tick written by two devices');
  const { violations, twoDeviceRows } = checkInvariants(run.expected, final, (id) => run.label(id));
  return { violations: [...run.deviceErrors, ...violations], twoDeviceRows, settleMs, rows: settled.state.rows };
}

/** The steps replay exactly; the replication's timing does not, so a replay may need a few tries. */
export function replayHint(seed: number): string {
  return [
    `CONVERGENCE_SEED=${seed} CONVERGENCE_RUNS=1 npx vitest run client/test/convergence.test.ts`,
    `npx tsx scripts/convergence.ts --seed ${seed} --runs 1 --repeat 5 --trace`,
  ].join('\n  or ');
}

function reportText(run: RunContext, { violations, rows }: Outcome): string {
  const { scenario } = run;
  const roles = Object.entries(scenario.ownRoles)
    .filter(([member]) => member === 'anna')
    .flatMap(([, perEvent]) => perEvent.map((roles, event) => `e${event}: status ${roles.status}, answers ${roles.answers}`));
  const guests = scenario.guests.map(
    (guest) =>
      `g${guest.handle} of ${guest.member} at e${guest.event}: status ${guest.roles.status}, answers ${guest.roles.answers}`,
  );
  return [
    `Convergence run with seed ${scenario.seed} ${violations.length > 0 ? 'failed' : 'passed'}.`,
    `Replay: ${scenario.replay ?? replayHint(scenario.seed)}`,
    'Violations:',
    ...violations.map((violation) => `  ${describeViolation(violation)}`),
    `Anna's roles: ${roles.join('; ')}`,
    `Guests: ${guests.join('; ') || 'none'}`,
    'Operation log:',
    ...run.log.map((line) => `  ${line}`),
    'Final server rows:',
    ...rows.map((row) => `  ${describeRow(run, row)}`),
  ].join('\n');
}

function describeRow(run: RunContext, row: AttendeeDoc): string {
  const flags = (['needs_ticket', 'has_ticket', 'needs_transport', 'bought', 'paid', 'received'] as const).filter(
    (flag) => row[flag],
  );
  const name = row.guest_name === null ? '' : ` "${row.guest_name}"`;
  const price = row.price_cents === null ? '' : ` ${row.price_cents}ct`;
  return `${run.label(row.id)}${name} ${row.status} [${flags.join(' ')}]${price} transfer ${row.transfer_status} seq ${row.seq}`;
}
