/**
 * `npx tsx scripts/convergence.ts [--runs 2000] [--seed 1] [--repeat 1] [--show 3] [--trace] [--case name]`:
 * the randomized convergence runs of client/test/convergence.test.ts, thousands at a time, on one
 * server and one set of devices. Runs the seeds seed … seed+runs-1 (each `repeat` times: the steps
 * are the same every time, the replication's timing is not), prints each failing run's seed (the
 * first `show` of them with the whole report and operation log) and a summary by kind of
 * violation; exits 1 on any failure. `--trace` adds the sync traffic to the reports; `--case`
 * replays a hand-minimised scenario of client/test/convergence/cases.ts instead of seeds.
 *
 * The harness is loaded through Vite's module runner, as vitest loads it: the client's code reads
 * import.meta.env, which plain Node does not provide.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createServer, createServerModuleRunner } from 'vite';
import type * as CasesModule from '../client/test/convergence/cases.js';
import type * as RunModule from '../client/test/convergence/run.js';
import type * as WorldModule from '../client/test/convergence/world.js';

type RunReport = RunModule.RunReport;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HARNESS = path.join(root, 'client/test/convergence');

interface Options {
  runs: number;
  seed: number;
  repeat: number;
  show: number;
  case?: string;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '1' },
      repeat: { type: 'string', default: '1' },
      show: { type: 'string', default: '3' },
      trace: { type: 'boolean', default: false },
      case: { type: 'string' },
    },
  });
  if (values.trace) process.env.CONVERGENCE_TRACE = '1';
  const numbers = {
    runs: Number(values.runs),
    seed: Number(values.seed),
    repeat: Number(values.repeat),
    show: Number(values.show),
  };
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number, not ${value}`);
  }
  return { ...numbers, case: values.case };
}

/** What the runs so far came to. */
class Tally {
  runs = 0;
  twoDeviceRows = 0;
  slowestMs = 0;
  settleMs = 0;
  readonly failedSeeds: number[] = [];
  readonly violationKinds = new Map<string, number>();
  readonly outcomes = new Map<string, number>();
  private readonly started = Date.now();

  add(report: RunReport): void {
    this.runs++;
    this.twoDeviceRows += report.twoDeviceRows;
    this.slowestMs = Math.max(this.slowestMs, report.durationMs);
    this.settleMs += report.settleMs;
    for (const [kind, n] of Object.entries(report.counts)) increase(this.outcomes, kind, n);
    if (report.ok) return;
    this.failedSeeds.push(report.seed);
    const kinds = report.violations.map(
      ({ invariant, kind }) => `[${invariant === null ? 'device error' : `invariant ${invariant}`}] ${kind}`,
    );
    for (const kind of new Set(kinds)) increase(this.violationKinds, kind, 1);
  }

  get seconds(): number {
    return (Date.now() - this.started) / 1000;
  }

  progress(total: number): string {
    return `${this.runs}/${total} runs, ${this.failedSeeds.length} failed, ${this.seconds.toFixed(0)} s (${this.msPerRun()} ms a run)`;
  }

  summary(what: string): string {
    const kinds = [...this.violationKinds].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `  ${n} run(s): ${kind}`);
    const outcomes = [...this.outcomes].sort((a, b) => a[0].localeCompare(b[0])).map(([kind, n]) => `${kind} ×${n}`);
    const seeds = this.failedSeeds;
    return [
      '',
      `${what} in ${this.seconds.toFixed(1)} s: ${this.runs - seeds.length} passed, ${seeds.length} failed.`,
      `${this.msPerRun()} ms a run on average (${(this.settleMs / Math.max(this.runs, 1)).toFixed(0)} ms of it settling), the slowest ${this.slowestMs} ms.`,
      `${this.twoDeviceRows} rows kept the edits of two devices of one member.`,
      `What the runs did: ${outcomes.join(', ')}`,
      ...(kinds.length > 0 ? ['Failing runs by kind of violation:', ...kinds] : []),
      ...(seeds.length > 0 ? [`Failed seeds: ${seeds.slice(0, 50).join(', ')}${seeds.length > 50 ? ', …' : ''}`] : []),
    ].join('\n');
  }

  private msPerRun(): string {
    return ((this.seconds * 1000) / Math.max(this.runs, 1)).toFixed(0);
  }
}

function increase(counts: Map<string, number>, key: string, by: number): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

async function main(): Promise<void> {
  const { runs, seed, repeat, show, case: caseName } = options();
  const vite = await createServer({
    root,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  const runner = createServerModuleRunner(vite.environments.ssr, { hmr: false });
  const { runSeed, runScenario } = await runner.import<typeof RunModule>(path.join(HARNESS, 'run.ts'));
  const { MINIMAL_CASES } = await runner.import<typeof CasesModule>(path.join(HARNESS, 'cases.ts'));
  const { World } = await runner.import<typeof WorldModule>(path.join(HARNESS, 'world.ts'));
  const scenario = caseName === undefined ? undefined : MINIMAL_CASES[caseName];
  if (caseName !== undefined && !scenario)
    throw new Error(`no case ${caseName}; the cases: ${Object.keys(MINIMAL_CASES).join(', ')}`);
  const world = await World.start();
  const tally = new Tally();
  try {
    for (let index = 0; index < runs * repeat; index++) {
      const thisSeed = seed + Math.floor(index / repeat);
      const report = scenario ? await runScenario(world, scenario) : await runSeed(world, thisSeed);
      tally.add(report);
      if (!report.ok) console.log(tally.failedSeeds.length <= show ? `\n${report.text}\n` : oneLine(report));
      if (tally.runs % 100 === 0) console.log(tally.progress(runs * repeat));
    }
  } finally {
    await world.close();
    await runner.close();
    await vite.close();
  }
  const what = caseName ? `case ${caseName}` : `seeds ${seed}–${seed + runs - 1}`;
  console.log(tally.summary(`${runs * repeat} runs (${what}${repeat > 1 ? `, each ${repeat} times` : ''})`));
  if (tally.failedSeeds.length > 0 && !caseName) {
    console.log(`Replay one: npx tsx scripts/convergence.ts --seed ${tally.failedSeeds[0]} --runs 1 --trace`);
  }
  process.exitCode = tally.failedSeeds.length > 0 ? 1 : 0;
}

function oneLine(report: RunReport): string {
  return `seed ${report.seed} failed: ${report.violations[0]!.message.split('\n')[0]}`;
}

await main();
