/**
 * `npm run bench`: for the 5-season club and then the 10-season club (seed.ts CLUBS), each seeded into
 * a temp folder of its own, starts the real server on it (the command of `npm start -w server`) with
 * the built client, and measures the REST list against a raw node:http baseline, the server's
 * memory, full pulls per collection, and in Chromium the first sign-in, the warm offline start and 50
 * answers queued offline; the one club's server is stopped before the other's starts. On the
 * 5-season club's server also Lighthouse on the signed-in pages with the data warm (lighthouse.ts)
 * and the hardening checks (hardening.ts). Last, where PostgreSQL answers, the latency of a change
 * from one server instance to another (instances.ts). Prints each figure beside its target, one
 * column per club, and writes bench-results/latest.json.
 * Exit code 0 whatever the figures; 1 only when the bench itself failed.
 *
 * Then the match-day rush (rush.ts): BENCH_RUSH_MEMBERS members (1,000; 0 leaves it out) with two
 * devices each on one server of their own. Last, a user's server (userServer.ts): `npm start`'s
 * server on an empty data folder, 150 members, 300 events and their answers made through the HTTP
 * API, then the REST list load; its RSS at each step against the target (BENCH_USER_SERVER=0 leaves
 * it out).
 *
 * Parts: `npm run bench -- lighthouse` runs only the Lighthouse part on the 5-season club (build,
 * seed and server as always), `npm run bench -- rush` only the rush, `npm run bench -- user-server`
 * only the user's server, `npm run bench -- statements` only the bank statements' parsing,
 * `npm run bench -- member-import` only the member import's preview of 5,000 rows; no argument runs
 * every part.
 *
 * Knobs: BENCH_CLUBS=5 or BENCH_CLUBS=10 (only that club; both by default), BENCH_DURATION (s per
 * load run, 10), BENCH_CONNECTIONS (50), BENCH_SKIP_BUILD=1 (use the existing build), BENCH_KEEP=1
 * (keep the temp folder), BENCH_DATABASE_URL (PostgreSQL for the instances part; else
 * TEST_DATABASE_URL; neither answering, the part is skipped), BENCH_LIGHTHOUSE_RUNS (per page, 3),
 * BENCH_LIGHTHOUSE_PAGES (a comma-separated choice of the signed-in pages, e.g. `/admin/tasks`),
 * BENCH_LIGHTHOUSE_ROLES (`admin` or `member`: only that user's device),
 * BENCH_LIGHTHOUSE_REPORTS=<folder> (keep each Lighthouse report), BENCH_LIGHTHOUSE_PROFILE=<folder> (each measured
 * page's CPU profile and DevTools trace on the warm device; `scripts/bench/traceTasks.ts` lists a trace's long tasks), BENCH_SKIP_LIGHTHOUSE=1 (a default
 * run without its half hour of Lighthouse), BENCH_USER_SERVER=0 (no user's server), BENCH_RUSH_INSTANCES=2 (the rush
 * over two server instances on one PostgreSQL, the devices spread over them), BENCH_DEVICE_PROFILE=<folder> (the member's first sign-in
 * as a CPU profile of the page, for DevTools), BENCH_SERVER_PROFILE=<folder> (every server's CPU profile, written
 * when it stops), CHROMIUM_PATH.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchBrowser } from './browser.js';
import { closeAgent, signIn } from './http.js';
import { benchLighthouse, printLighthouseTable } from './lighthouse.js';
import { DEVICE_STORE_COLLECTIONS } from '@fankurve/shared';
import { benchPulls, type PullsFigures } from './pulls.js';
import { benchInstances, postgresUrl } from './instances.js';
import {
  CLUB_LABELS,
  printTable,
  tableRows,
  writeResults,
  type ClubFigures,
  type Figures,
  type MemoryFigures,
} from './report.js';
import { benchRest, type RestOptions } from './rest.js';
import { benchRush } from './rush.js';
import { benchStatements } from './statements.js';
import { benchMemberImport } from './memberImport.js';
import { benchHardening } from './hardening.js';
import { CLUBS, seedClub, type ClubKey, type SeededUser, type SeedResult } from './seed.js';
import { benchUserServer } from './userServer.js';
import { memoryOf, REPO_ROOT, serverCommand, startAppServer, type Child, type ServerCommand } from './server.js';

/**
 * What a device holds per collection after a full pull: RxDB keeps tombstones among its documents,
 * the document store deletes them; a collection split by owner is counted without them in both
 * places (docs/architecture.md, Client data layer).
 */
function storedCounts(pulls: PullsFigures): Record<string, number> {
  return Object.fromEntries(
    pulls.collections.map((c) => [
      c.collection,
      (DEVICE_STORE_COLLECTIONS as readonly string[]).includes(c.collection) ? c.documents - c.tombstones : c.documents,
    ]),
  );
}

const RESULT_FILE = path.join(REPO_ROOT, 'bench-results', 'latest.json');
const ADMIN_PASSWORD = 'admin-bench-pass';
const MEMBER_PASSWORD = 'fan-bench-pass';
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret';

const PARTS = ['lighthouse', 'rush', 'user-server', 'statements', 'member-import'] as const;
type Part = (typeof PARTS)[number];
/** The parts named on the command line; none named means every part. */
function requestedParts(args: string[]): Part[] | 'all' {
  if (args.length === 0) return 'all';
  const unknown = args.filter((arg) => !(PARTS as readonly string[]).includes(arg));
  if (unknown.length > 0) throw new Error(`unknown bench part ${unknown.join(', ')} (known: ${PARTS.join(', ')})`);
  return args as Part[];
}
const parts = requestedParts(process.argv.slice(2));

/** The clubs BENCH_CLUBS names by their seasons (`5`, `10`, `5,10`); unset, every club. */
function requestedClubs(value: string | undefined): ClubKey[] {
  const all = Object.keys(CLUBS) as ClubKey[];
  if (!value?.trim()) return all;
  const named = value.split(',').map((v) => v.trim());
  const unknown = named.filter((v) => !all.some((club) => String(CLUBS[club].seasons) === v));
  if (unknown.length > 0)
    throw new Error(`unknown BENCH_CLUBS ${unknown.join(', ')} (known: ${all.map((c) => CLUBS[c].seasons).join(', ')})`);
  return all.filter((club) => named.includes(String(CLUBS[club].seasons)));
}
// Lighthouse runs on the 5-season club only; the rush on a club of its own.
const clubs: ClubKey[] =
  parts === 'all' ? requestedClubs(process.env.BENCH_CLUBS) : parts.includes('lighthouse') ? ['fiveSeasons'] : [];

/** The rush's members (two devices each), BENCH_RUSH_MEMBERS; 0 leaves the rush out. */
function rushMembers(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1000;
  const members = Number(value);
  if (!Number.isInteger(members) || members < 0) throw new Error(`BENCH_RUSH_MEMBERS takes a whole number, not ${value}`);
  return members;
}
const RUSH_MEMBERS = rushMembers(process.env.BENCH_RUSH_MEMBERS);
/** BENCH_RUSH_INSTANCES=2: the rush over that many instances on one PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL). */
const RUSH_INSTANCES = Number(process.env.BENCH_RUSH_INSTANCES || '1');
const USER_SERVER = process.env.BENCH_USER_SERVER !== '0';

const started = Date.now();
const loadAtStart = os.loadavg();
const log = (message: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${message}`);

function run(command: string, args: string[], logFile: string): Promise<number> {
  return new Promise((resolve) => {
    const out = fs.openSync(logFile, 'w');
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', out, out] });
    child.on('exit', (code) => {
      fs.closeSync(out);
      resolve(code ?? 1);
    });
  });
}

/** `npm run build` (the code under test changes); an existing build is measured when the build fails. */
async function ensureBuilt(workDir: string): Promise<string> {
  const index = path.join(REPO_ROOT, 'client', 'dist', 'index.html');
  if (process.env.BENCH_SKIP_BUILD === '1' && fs.existsSync(index)) return 'existing build (BENCH_SKIP_BUILD)';
  const logFile = path.join(workDir, 'build.log');
  const code = await run('npm', ['run', 'build'], logFile);
  if (code === 0) return 'built now';
  const tail = fs.readFileSync(logFile, 'utf8').slice(-2000);
  if (fs.existsSync(index)) {
    log(`npm run build failed; measuring the existing build:\n${tail}`);
    return 'build failed, existing build used';
  }
  throw new Error(`npm run build failed and there is no client/dist:\n${tail}`);
}

async function phase<T>(name: string, errors: Record<string, string>, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (error) {
    errors[name] = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`${name} FAILED: ${errors[name]}`);
    return undefined;
  }
}

/** The REST list load's connections and seconds (BENCH_CONNECTIONS, BENCH_DURATION): the clubs' and the user's server's. */
function restLoad(): Omit<RestOptions, 'warmupS'> {
  return { connections: Number(process.env.BENCH_CONNECTIONS ?? 50), durationS: Number(process.env.BENCH_DURATION ?? 10) };
}

function memoryFigures(pid: number): MemoryFigures {
  const { rssMiB, peakMiB } = memoryOf(pid);
  return { rssMiB, peakMiB };
}

/** Lighthouse as the admin and as the bench member, each on a device of their own synced first. */
async function measureLighthouse(seed: SeedResult, server: Child, figures: Figures, errors: Record<string, string>) {
  const expectedOf = async (user: SeededUser) =>
    storedCounts(await benchPulls(server.baseUrl, await signIn(server.baseUrl, user.username, user.password)));
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  log(`Lighthouse: the sign-in page, then 9 pages as the admin and 6 as a member, ${runs} runs each…`);
  figures.lighthouse = await phase('lighthouse', errors, async () =>
    benchLighthouse({
      baseUrl: server.baseUrl,
      users: [
        { role: 'admin', user: seed.admin, expected: await expectedOf(seed.admin) },
        { role: 'member', user: seed.benchMember, expected: await expectedOf(seed.benchMember) },
      ],
      eventId: seed.openUpcoming[0]!.id,
      runs,
      log,
    }),
  );
}

/** One club: the REST load, the server's memory, full pulls and the browser, with the bench member's token. */
async function measureClub(
  label: string,
  seed: SeedResult,
  server: Child,
  workDir: string,
  figures: ClubFigures,
  errors: Record<string, string>,
) {
  const { command, ...start } = memoryOf(server.pid);
  const token = await signIn(server.baseUrl, seed.benchMember.username, seed.benchMember.password);
  const idle = memoryFigures(server.pid);
  figures.memory = { pid: server.pid, command, start, idle };
  log(
    `server pid ${server.pid} (${command.trim()}): RSS ${start.rssMiB.toFixed(1)} MiB at start, ${idle.rssMiB.toFixed(1)} MiB after a sign-in`,
  );
  const { connections, durationS } = restLoad();

  log(`REST: GET /api/events, ${connections} connections, ${durationS} s app + ${durationS} s raw node:http…`);
  figures.rest = await phase(`${label} REST`, errors, () =>
    benchRest(server.baseUrl, token, workDir, { connections, durationS, warmupS: 2 }),
  );
  figures.memory.afterRest = memoryFigures(server.pid);
  log(`server RSS ${figures.memory.afterRest.rssMiB.toFixed(1)} MiB after the REST load`);

  log('pulls: every collection from checkpoint null…');
  figures.pulls = await phase(`${label} pulls`, errors, () => benchPulls(server.baseUrl, token));
  if (!figures.pulls) return;

  const adminToken = await signIn(server.baseUrl, seed.admin.username, seed.admin.password);
  const adminPulls = await benchPulls(server.baseUrl, adminToken);
  log('browser: Chromium…');
  const expected = storedCounts(figures.pulls);
  figures.browser = await phase(`${label} browser`, errors, () =>
    benchBrowser({
      baseUrl: server.baseUrl,
      member: seed.benchMember,
      admin: seed.admin,
      memberToken: token,
      openEvents: seed.openUpcoming,
      expected,
      adminExpected: storedCounts(adminPulls),
      answers: 50,
      offlineRuns: 5,
      firstCardRuns: 3,
      label,
      log,
    }),
  );
  figures.memory.end = memoryFigures(server.pid);
}

/** Last on the 5-season club's server: the guessed-at account, the flood and 500 streams must not colour the figures before. */
async function measureHardening(
  seed: SeedResult,
  server: Child,
  workDir: string,
  figures: Figures,
  errors: Record<string, string>,
) {
  const token = await signIn(server.baseUrl, seed.benchMember.username, seed.benchMember.password);
  figures.hardening = await phase('hardening', errors, () =>
    benchHardening(
      {
        baseUrl: server.baseUrl,
        workDir,
        target: { username: seed.memberUsernames[1]!, password: MEMBER_PASSWORD },
        streamers: seed.memberUsernames.slice(2, 102),
        password: MEMBER_PASSWORD,
        writer: { token, eventIds: seed.openUpcoming.slice(0, 10).map((e) => e.id) },
      },
      log,
    ),
  );
}

function logSeed(seed: SeedResult): void {
  const c = seed.counts;
  log(
    `seeded in ${Math.round(seed.seedMs)} ms: ${c.events} events (${c.upcomingEvents} upcoming, seasons ${seed.seasons.join(', ')}), ` +
      `${c.members} members, ${c.attendees} attendees (${c.guests} guests, ${c.tombstones} tombstones), ${c.comments} comments, ` +
      `${c.transports} transports, ${c.stadiums} stadiums, max seq ${seed.maxSeq}`,
  );
}

interface ClubRun {
  club: ClubKey;
  workDir: string;
  clientDir: string;
  command: ServerCommand;
  figures: Figures;
  errors: Record<string, string>;
  /** Each club's seed, kept as soon as it is seeded. */
  seeds: Partial<Record<ClubKey, SeedResult>>;
}

/** Seeds one club into a folder of its own, starts its server, measures, and stops the server again. */
async function runClub({ club, workDir, clientDir, command, figures, errors, seeds }: ClubRun): Promise<void> {
  const label = CLUB_LABELS[club];
  const clubDir = path.join(workDir, club);
  const dataDir = path.join(clubDir, 'data');
  log(`seeding the ${CLUBS[club].seasons}-season club…`);
  const seed = await seedClub(dataDir, { admin: ADMIN_PASSWORD, member: MEMBER_PASSWORD }, CLUBS[club]);
  seeds[club] = seed;
  logSeed(seed);
  log(`starting the server: node ${command.args.join(' ')} (${command.source})…`);
  const server = await startAppServer({ dataDir, adminPassword: ADMIN_PASSWORD, jwtSecret: JWT_SECRET, command, clientDir });
  try {
    log(`server on ${server.baseUrl}`);
    if (parts !== 'all') return await measureLighthouse(seed, server, figures, errors);
    const clubFigures: ClubFigures = {};
    figures.clubs[club] = clubFigures;
    await measureClub(label, seed, server, clubDir, clubFigures, errors);
    if (club !== 'fiveSeasons') return;
    if (process.env.BENCH_SKIP_LIGHTHOUSE !== '1') await measureLighthouse(seed, server, figures, errors);
    await measureHardening(seed, server, clubDir, figures, errors);
  } finally {
    await server.stop();
  }
}

/** Two server instances on a fresh PostgreSQL database: a write through one, the change on the other's stream. */
async function measureInstances(command: ServerCommand, workDir: string, figures: Figures, errors: Record<string, string>) {
  const found = await postgresUrl();
  if ('skipped' in found) {
    figures.instances = found;
    log(`instances: skipped: ${found.skipped}`);
    return;
  }
  log('instances: two servers on a fresh PostgreSQL database…');
  figures.instances = await phase('instances', errors, () =>
    benchInstances({
      databaseUrl: found.url,
      workDir,
      command,
      jwtSecret: JWT_SECRET,
      adminPassword: ADMIN_PASSWORD,
      writes: 30,
      log,
    }),
  );
}

/** The match-day rush: its own club and server, the devices in a process of their own. */
async function measureRush(
  command: ServerCommand,
  workDir: string,
  clientDir: string,
  figures: Figures,
  errors: Record<string, string>,
) {
  const postgres = RUSH_INSTANCES > 1 ? await postgresUrl() : null;
  if (postgres && 'skipped' in postgres) {
    errors.rush = `the rush over ${RUSH_INSTANCES} instances: ${postgres.skipped}`;
    return;
  }
  log(`rush: ${RUSH_MEMBERS} members with two devices each on ${postgres ? `${RUSH_INSTANCES} instances` : 'one server'}…`);
  figures.rush = await phase('rush', errors, () =>
    benchRush({
      ...(postgres ? { postgres: { url: postgres.url, instances: RUSH_INSTANCES } } : {}),
      workDir,
      command,
      clientDir,
      members: RUSH_MEMBERS,
      passwords: { admin: ADMIN_PASSWORD, member: MEMBER_PASSWORD },
      jwtSecret: JWT_SECRET,
      log,
    }),
  );
}

/** A user's server: an empty data folder, the club built through the HTTP API, then the list load. */
async function measureUserServer(
  command: ServerCommand,
  workDir: string,
  clientDir: string,
  figures: Figures,
  errors: Record<string, string>,
) {
  log("user's server: npm start's server on an empty data folder, the club built through the API…");
  figures.userServer = await phase('user-server', errors, () =>
    benchUserServer({
      workDir,
      command,
      clientDir,
      passwords: { admin: ADMIN_PASSWORD, member: MEMBER_PASSWORD },
      jwtSecret: JWT_SECRET,
      rest: restLoad(),
      log,
    }),
  );
}

/** Screenshots of an earlier run's failures would only mislead. */
function clearOldFailures(): void {
  const folder = path.dirname(RESULT_FILE);
  if (!fs.existsSync(folder)) return;
  for (const name of fs.readdirSync(folder)) if (/^failed-.*\.png$/.test(name)) fs.rmSync(path.join(folder, name));
}

async function main(): Promise<number> {
  clearOldFailures();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-bench-'));
  const figures: Figures = { clubs: {} };
  const errors: Record<string, string> = {};
  const seeds: Partial<Record<ClubKey, SeedResult>> = {};
  let build = '';
  let command: ServerCommand | undefined;
  try {
    log('building (npm run build)…');
    build = await ensureBuilt(workDir);
    if ((await run(process.execPath, ['scripts/ensure-chromium.mjs'], path.join(workDir, 'chromium.log'))) !== 0) {
      log(`no Chromium: ${fs.readFileSync(path.join(workDir, 'chromium.log'), 'utf8').trim()}`);
    }
    // The server serves a copy: other work in the same tree may rebuild client/dist meanwhile.
    const clientDir = path.join(workDir, 'client');
    fs.cpSync(path.join(REPO_ROOT, 'client', 'dist'), clientDir, { recursive: true });
    command = serverCommand();
    // One club after the other, each on a server of its own: the first is stopped before the next starts.
    for (const club of clubs) {
      const clubRun = { club, workDir, clientDir, command, figures, errors, seeds };
      await phase(CLUB_LABELS[club], errors, () => runClub(clubRun));
    }
    if (parts === 'all') await measureInstances(command, workDir, figures, errors);
    if ((parts === 'all' || parts.includes('rush')) && RUSH_MEMBERS > 0)
      await measureRush(command, workDir, clientDir, figures, errors);
    if (parts === 'all' || parts.includes('statements')) {
      log('bank statements: 10,000 credits in each format…');
      figures.statements = await phase('statements', errors, async () => benchStatements());
    }
    if (parts === 'all' || parts.includes('member-import')) {
      log('member import: a list of 5,000 rows…');
      figures.memberImport = await phase('member-import', errors, () => benchMemberImport());
    }
    if ((parts === 'all' || parts.includes('user-server')) && USER_SERVER)
      await measureUserServer(command, workDir, clientDir, figures, errors);
  } catch (error) {
    errors.bench = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`bench FAILED: ${errors.bench}`);
  } finally {
    closeAgent();
    if (process.env.BENCH_KEEP === '1') log(`kept ${workDir}`);
    else fs.rmSync(workDir, { recursive: true, force: true });
  }

  const rows = tableRows(figures, errors);
  console.log('');
  if (rows.length > 0) printTable(rows, clubs);
  if (figures.lighthouse) {
    console.log('');
    printLighthouseTable(figures.lighthouse);
  }
  const load = os.loadavg()[1]!;
  if (load > os.cpus().length) {
    console.log(
      `\nNote: load average ${load.toFixed(1)} on ${os.cpus().length} cores during the run: other work competed, figures are pessimistic.`,
    );
  }
  writeResults(RESULT_FILE, {
    finishedAt: new Date().toISOString(),
    durationMs: Date.now() - started,
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      platform: `${os.platform()} ${os.release()}`,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: os.loadavg(),
    },
    build,
    serverCommand: command,
    clubs: Object.fromEntries(
      clubs.map((club) => {
        const seed = seeds[club];
        return [club, { seed: seed && { ...seed, openUpcoming: seed.openUpcoming.length }, ...figures.clubs[club] }];
      }),
    ),
    lighthouse: figures.lighthouse,
    hardening: figures.hardening,
    instances: figures.instances,
    rush: figures.rush,
    userServer: figures.userServer,
    table: rows,
    errors,
  });
  console.log(`\nAll figures: ${path.relative(process.cwd(), RESULT_FILE)} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return Object.keys(errors).length > 0 ? 1 : 0;
}

process.exitCode = await main();
