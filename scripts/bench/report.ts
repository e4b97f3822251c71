/** The printed table (figure, target, one column per club with each figure and its verdict) and the JSON file of all figures. */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserFigures } from './browser.js';
import type { HardeningFigures } from './hardening.js';
import type { InstancesResult } from './instances.js';
import type { LighthouseFigures } from './lighthouse.js';
import type { PullsFigures } from './pulls.js';
import type { RestFigures } from './rest.js';
import type { RushFigures } from './rush.js';
import type { StatementFigures } from './statements.js';
import type { MemberImportFigures } from './memberImport.js';
import type { ClubKey } from './seed.js';
import type { UserServerFigures } from './userServer.js';

/** One club's figure beside its target. */
export interface Row {
  figure: string;
  measured: string;
  target: string;
  /** true/false against a target; null for an informative figure. */
  met: boolean | null;
}

export type Cell = Pick<Row, 'measured' | 'met'>;

/** A line of the printed table: a figure with a cell per club, or one cell for the whole run. */
export interface TableRow {
  figure: string;
  target: string;
  /** Per club; a club without a cell did not measure the figure. */
  clubs: Partial<Record<ClubKey, Cell>>;
  /** One cell for the run (the 10 ÷ 5 seasons ratio, the parts that run once), printed across the club columns. */
  shared?: Cell;
}

export const CLUB_LABELS: Record<ClubKey, string> = { fiveSeasons: '5 seasons', tenSeasons: '10 seasons' };

export interface MemoryFigures {
  rssMiB: number;
  peakMiB: number;
}

/** What each club measures: its own seed and server. */
export interface ClubFigures {
  rest?: RestFigures;
  memory?: {
    pid: number;
    command: string;
    /** Right after the server answered /api/version. */
    start: MemoryFigures;
    /** After one sign-in (argon2 verify), before any load. */
    idle: MemoryFigures;
    afterRest?: MemoryFigures;
    /** After the browser phase. */
    end?: MemoryFigures;
  };
  pulls?: PullsFigures;
  browser?: BrowserFigures;
}

export interface Figures {
  clubs: Partial<Record<ClubKey, ClubFigures>>;
  /** The 5-season club only. */
  hardening?: HardeningFigures;
  /** The 5-season club only. */
  lighthouse?: LighthouseFigures;
  /** Two instances on one fresh PostgreSQL database (no club). */
  instances?: InstancesResult;
  /** The match-day rush on one server (its own club of BENCH_RUSH_MEMBERS members). */
  rush?: RushFigures;
  /** A user's server: npm start on an empty data folder, the club built through the HTTP API. */
  userServer?: UserServerFigures;
  /** Reading a bank statement of 10,000 credits in each format. */
  statements?: StatementFigures;
  /** The member import's preview of a 5,000-row list. */
  memberImport?: MemberImportFigures;
}

/** Targets (decimal megabytes: 2 MB = 2,000,000 bytes). */
export const TARGETS = {
  restRatio: 0.5,
  restP99Ms: 50,
  rssMiB: 150,
  firstSyncBytes: 2_000_000,
  firstCardMs: 800,
  fullySyncedMs: 2000,
  /** The 10-season club's time to all stored on the device, at most this times the 5-season club's. */
  fullySyncedRatio: 1.2,
  offlineStartMs: 150,
  /** A bank statement of 10,000 credits, parsed. */
  statementParseMs: 2000,
  /** A member list of 5,000 rows, previewed. */
  memberImportPreviewMs: 2000,
  queuedAnswersMs: 2000,
  /** The app shell's slowest answer while 60 sign-ins run (main: 5.3 s). */
  shellUnderFloodMs: 500,
  /** Extra time per write with 500 open change streams. */
  streamWriteExtraMs: 5,
  /** A write through instance A → the change event on instance B's stream. */
  crossInstanceMs: 500,
  /** The match-day rush on one server: p99 of pulls and of answers, fan-out p99, the server's RSS. */
  rushPullP99Ms: 250,
  rushWriteP99Ms: 250,
  rushFanOutP99Ms: 1000,
  rushRssMiB: 300,
  /** A user's server (the club built through the API) after the list load. */
  userServerRssMiB: 200,
};

/**
 * The device's figures as measured before the work on the device database (the 5- and the 10-season
 * club), shown beside each: the targets came with that work.
 */
const DEVICE_BEFORE = {
  firstCard: 'before 1,060–1,140 ms',
  fullySynced: 'before 4,000–4,150 ms',
  offlineStart: 'before 133–169 ms',
} as const;

/** The user's server's RSS after the list load as measured before the work on it. */
const USER_SERVER_BEFORE = '249–297 MiB (172–193 MiB before the last round of features)';

/**
 * The rush as measured before the work on it (the same measure, load generator on the same two
 * cores): shown beside each figure of the run.
 */
const RUSH_BEFORE = {
  1000: 'before, 1,000 devices: 0 errors, pull p50 7 ms, p99 2,036 ms, write p99 43 ms, fan-out p99 104 ms, RSS 225 MiB',
  2000: 'before, 2,000 devices: 3,254 failed requests, pull p50 91 ms, p99 53 s, write p99 39 s, fan-out p99 28 s, RSS 436 MiB',
} as const;

export const kB = (bytes: number) =>
  bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(2)} MB`;
const ms = (value: number | null) => (value === null ? 'not reached' : `${Math.round(value)} ms`);
const atMost = (value: number | null, target: number) => value !== null && value <= target;
const mib = (m: MemoryFigures) => `${m.rssMiB.toFixed(1)} MiB (peak so far ${m.peakMiB.toFixed(1)} MiB)`;
const info = (figure: string, measured: string): Row => ({ figure, measured, target: '—', met: null });

function restRows(rest: RestFigures): Row[] {
  const rows: Row[] = [
    info(
      'GET /api/events answer',
      `${rest.encoding}, ${kB(rest.wireBytes)} on the wire (${kB(rest.bodyBytes)} JSON), ETag ${rest.etag ? 'yes' : 'no'}`,
    ),
    info('GET /api/events app requests/s', `${Math.round(rest.app.requestsPerSec)} req/s (${rest.app.requests} requests)`),
    info('GET /api/events raw node:http requests/s', `${Math.round(rest.raw.requestsPerSec)} req/s`),
    {
      figure: 'GET /api/events app ÷ raw requests/s',
      measured: `${(rest.ratio * 100).toFixed(1)} %`,
      target: `≥ ${TARGETS.restRatio * 100} %`,
      met: rest.ratio >= TARGETS.restRatio,
    },
    {
      figure: 'GET /api/events app p99 latency',
      measured: `${rest.app.p99Ms} ms`,
      target: `< ${TARGETS.restP99Ms} ms`,
      met: rest.app.p99Ms < TARGETS.restP99Ms,
    },
    info('GET /api/events raw p99 latency', `${rest.raw.p99Ms} ms`),
  ];
  const codes = Object.entries(rest.app.statusCounts)
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  if (rest.app.errors || Object.keys(rest.app.statusCounts).some((code) => code !== '200')) {
    rows.push(info('GET /api/events app non-200 / errors', `${codes}; ${rest.app.errors} errors`));
  }
  rows.push(
    rest.conditional
      ? info(
          'GET /api/events with If-None-Match',
          `${(rest.conditional.rate304 * 100).toFixed(1)} % 304, ${Math.round(rest.conditional.requestsPerSec)} req/s, p99 ${rest.conditional.p99Ms} ms`,
        )
      : info('GET /api/events with If-None-Match', 'not run: the app sends no ETag'),
  );
  return rows;
}

function pullRows(pulls: PullsFigures): Row[] {
  const rows = pulls.collections.map((c) =>
    info(
      `full pull ${c.collection} (v${c.version}, limit ${c.limit})`,
      `${c.requests} req, ${c.documents} docs, ${kB(c.wireBytes)} wire / ${kB(c.bodyBytes)} JSON [${c.encodings.join(',')}], ${Math.round(c.ms)} ms`,
    ),
  );
  rows.push({
    figure: 'full pull all collections, bytes on the wire',
    measured: `${kB(pulls.total.wireBytes)} (${kB(pulls.total.bodyBytes)} JSON, ${pulls.total.requests} req, ${Math.round(pulls.total.ms)} ms)`,
    target: `≤ ${kB(TARGETS.firstSyncBytes)}`,
    met: pulls.total.wireBytes <= TARGETS.firstSyncBytes,
  });
  return rows;
}

const FULLY_SYNCED = 'first sign-in: click → all stored on the device (first device)';

function firstSignInRows(first: BrowserFigures['firstSignIn']): Row[] {
  const bytes = first.bytes;
  // Collections without a document for the member are complete at once: left out.
  const complete = Object.entries(first.collectionCompleteMs)
    .filter(([name]) => first.deviceCounts[name] !== 0)
    .sort((a, b) => a[1] - b[1])
    .map(([name, at]) => `${name} ${Math.round(at)}`)
    .join(', ');
  return [
    {
      figure: `first sign-in: click → first event card (median of ${first.firstCardRunsMs.length})`,
      measured: `${ms(first.firstCardMs)} (${first.firstCardRunsMs.map((v) => (v === null ? '—' : Math.round(v))).join(', ')}; ${DEVICE_BEFORE.firstCard})`,
      target: `≤ ${TARGETS.firstCardMs} ms`,
      met: atMost(first.firstCardMs, TARGETS.firstCardMs),
    },
    {
      figure: FULLY_SYNCED,
      measured: `${ms(first.fullySyncedMs)} (${DEVICE_BEFORE.fullySynced})`,
      target: `≤ ${TARGETS.fullySyncedMs} ms`,
      met: atMost(first.fullySyncedMs, TARGETS.fullySyncedMs),
    },
    info('first sign-in: non-empty collection complete on the device (ms after click)', complete || 'none'),
    info(
      'first sign-in: pulls in flight (ms after click)',
      `first sent ${ms(first.pulls.firstMs)}, last answered ${ms(first.pulls.lastMs)}, any in flight ${ms(first.pulls.busyMs)}`,
    ),
    {
      figure: 'first sign-in: bytes on the wire (open /login → synced)',
      measured: `${kB(bytes.total)} (sync ${kB(bytes.sync)}, app ${kB(bytes.appPage)}, SW precache ${kB(bytes.serviceWorker)}, api ${kB(bytes.api)})`,
      target: `≤ ${kB(TARGETS.firstSyncBytes)}`,
      met: bytes.total <= TARGETS.firstSyncBytes,
    },
    info('first sign-in: requests / pull requests', `${bytes.requests} / ${bytes.pullRequests}`),
  ];
}

function browserRows(b: BrowserFigures): Row[] {
  const offline = b.warmOfflineStart;
  const queued = b.queuedAnswers;
  return [
    ...firstSignInRows(b.firstSignIn),
    {
      figure: `warm offline start → first card (median of ${offline.runsMs.length})`,
      measured: `${ms(offline.medianMs)} (${offline.runsMs.map((v) => Math.round(v)).join(', ')}; ${DEVICE_BEFORE.offlineStart})`,
      target: `≤ ${TARGETS.offlineStartMs} ms`,
      met: atMost(offline.medianMs, TARGETS.offlineStartMs),
    },
    info(
      'warm offline start: DOMContentLoaded / first paint (median)',
      `${ms(offline.medianDomContentLoadedMs)} / ${ms(offline.medianFirstPaintMs)}`,
    ),
    {
      figure: `${queued.answered} answers queued offline: reconnect → on the server`,
      measured: ms(queued.serverMs),
      target: `≤ ${TARGETS.queuedAnswersMs} ms`,
      met: atMost(queued.serverMs, TARGETS.queuedAnswersMs),
    },
    {
      figure: `${queued.answered} answers queued offline: reconnect → admin's device`,
      measured: ms(queued.adminDeviceMs),
      target: `≤ ${TARGETS.queuedAnswersMs} ms`,
      met: atMost(queued.adminDeviceMs, TARGETS.queuedAnswersMs),
    },
    info(
      'member indicator before reconnect / settled after',
      `"${queued.indicatorBeforeReconnect ?? ''}" / ${ms(queued.memberIndicatorSettledMs)}` +
        (queued.fullLoads ? `; ${queued.fullLoads} event pages needed a full load` : ''),
    ),
  ];
}

function hardeningRows(h: HardeningFigures): Row[] {
  const { parallelLogin: p, shell, streams, sqlite } = h;
  return [
    {
      figure: `parallel guesses on one account: checked of ${p.sent}`,
      measured: `${p.checked} checked, ${p.refused} refused (429), ${p.signedIn} signed in`,
      target: '≤ 5 checked, none signed in',
      met: p.checked <= 5 && p.signedIn === 0,
    },
    {
      figure: 'app shell GET / while 60 sign-ins run (vs idle)',
      measured:
        `worst ${ms(shell.floodMaxMs)}, median ${ms(shell.floodMedianMs)} (idle: worst ${ms(shell.idleMaxMs)}, median ${ms(shell.idleMedianMs)}); ` +
        `${shell.loginsChecked} sign-ins checked, ${shell.loginsBusy} told 'server busy'`,
      target: `worst ≤ ${TARGETS.shellUnderFloodMs} ms`,
      met: shell.floodMaxMs <= TARGETS.shellUnderFloodMs,
    },
    {
      figure: `write (POST /api/attendance) with ${streams.open} open change streams (vs none)`,
      measured: `${streams.busyWriteMs.toFixed(2)} ms (none: ${streams.quietWriteMs.toFixed(2)} ms)`,
      target: `≤ +${TARGETS.streamWriteExtraMs} ms`,
      met: streams.busyWriteMs - streams.quietWriteMs <= TARGETS.streamWriteExtraMs,
    },
    info(
      'SQLite write transaction, synchronous FULL (vs NORMAL)',
      `${sqlite.fullWriteMs.toFixed(3)} ms (NORMAL: ${sqlite.normalWriteMs.toFixed(3)} ms; +${(sqlite.fullWriteMs - sqlite.normalWriteMs).toFixed(3)} ms per write, ${sqlite.writes} writes each)`,
    ),
  ];
}

function memoryRows(memory: NonNullable<ClubFigures['memory']>): Row[] {
  const rows = [
    info('server RSS right after start', mib(memory.start)),
    info('server RSS after one sign-in (argon2), before load', mib(memory.idle)),
  ];
  if (memory.afterRest) {
    rows.push({
      figure: 'server RSS after the REST load',
      measured: mib(memory.afterRest),
      target: `≤ ${TARGETS.rssMiB} MiB`,
      met: memory.afterRest.rssMiB <= TARGETS.rssMiB,
    });
  }
  return rows;
}

/** One club's rows, in the order of the run. */
export function clubRows(figures: ClubFigures): Row[] {
  const rows: Row[] = [];
  if (figures.rest) rows.push(...restRows(figures.rest));
  if (figures.memory) rows.push(...memoryRows(figures.memory));
  if (figures.pulls) rows.push(...pullRows(figures.pulls));
  if (figures.browser) rows.push(...browserRows(figures.browser));
  if (figures.memory?.end) rows.push(info('server RSS at the end (after the browser phase)', mib(figures.memory.end)));
  return rows;
}

/** The clubs' rows side by side: one line per figure; a figure only one club has goes after that club's previous one. */
function mergeClubs(clubs: Partial<Record<ClubKey, ClubFigures>>): TableRow[] {
  const merged: TableRow[] = [];
  for (const [club, figures] of Object.entries(clubs) as [ClubKey, ClubFigures][]) {
    let at = -1;
    for (const { figure, target, measured, met } of clubRows(figures)) {
      const found = merged.findIndex((row) => row.figure === figure);
      if (found >= 0) at = found;
      else merged.splice(++at, 0, { figure, target, clubs: {} });
      merged[at]!.clubs[club] = { measured, met };
    }
  }
  return merged;
}

/** The 10-season club's time to all stored on the device ÷ the 5-season club's (both measured). */
function ratioRow(clubs: Figures['clubs']): TableRow | null {
  const [five, ten] = [clubs.fiveSeasons?.browser, clubs.tenSeasons?.browser];
  if (!five || !ten) return null;
  const [a, b] = [five.firstSignIn.fullySyncedMs, ten.firstSignIn.fullySyncedMs];
  const ratio = a === null || b === null ? null : b / a;
  return {
    figure: 'all stored on the device: 10 seasons ÷ 5 seasons',
    target: `≤ ${Math.round(TARGETS.fullySyncedRatio * 100)} %`,
    clubs: {},
    shared: {
      measured: ratio === null ? `not reached (${ms(b)} ÷ ${ms(a)})` : `${(ratio * 100).toFixed(0)} % (${ms(b)} ÷ ${ms(a)})`,
      met: ratio !== null && ratio <= TARGETS.fullySyncedRatio,
    },
  };
}

const once = ({ figure, target, measured, met }: Row): TableRow => ({ figure, target, clubs: {}, shared: { measured, met } });
const heading = (figure: string): TableRow => ({ figure, target: '', clubs: {} });

function instancesRows(result: InstancesResult): TableRow[] {
  const figure = "write through instance A → change event on B's stream";
  const target = `≤ ${TARGETS.crossInstanceMs} ms`;
  if ('skipped' in result) return [once({ figure, target, measured: `skipped: ${result.skipped}`, met: null })];
  return [
    once({
      figure: `${figure} (${result.writes} writes)`,
      target,
      measured: `median ${ms(result.medianMs)}, max ${ms(result.maxMs)} (A answered in median ${ms(result.writeMedianMs)})`,
      met: result.maxMs <= TARGETS.crossInstanceMs,
    }),
  ];
}

function rushRows(r: RushFigures): Row[] {
  const p = (d: { p50Ms: number | null; p99Ms: number | null }) => `p50 ${ms(d.p50Ms)}, p99 ${ms(d.p99Ms)}`;
  const devices = r.devices.toLocaleString('en');
  const before =
    (r.instances ?? 1) > 1 ? 'before: not measured' : r.devices === 1000 || r.devices === 2000 ? RUSH_BEFORE[r.devices] : null;
  const rows: Row[] = [
    info(
      'the rush',
      `${r.members.toLocaleString('en')} members, ${devices} devices opening within ${r.openSeconds} s, then ${r.answersPerSecond} answers/s for ${r.answerSeconds} s`,
    ),
    {
      figure: `failed requests and streams (${devices} devices)`,
      measured:
        `${r.errors} (pulls ${r.pulls.failed}, answers ${r.writes.failed}, streams failed ${r.streams.failed}, dropped ${r.streams.dropped}; ` +
        `${r.streams.opened} streams opened)` +
        (r.firstErrors.length ? `; first: ${r.firstErrors[0]}` : ''),
      target: '0',
      met: r.errors === 0,
    },
    {
      figure: 'pull request (opening and after a change)',
      measured:
        `${p(r.pulls)} (${r.pulls.count.toLocaleString('en')} pulls, ${r.pulls.documents.toLocaleString('en')} documents` +
        `${r.pulls.shed ? `; ${r.pulls.shed.toLocaleString('en')} times shed and asked again` : ''}` +
        `${r.carried ? `; ${r.carried.toLocaleString('en')} documents carried by the change stream` : ''})`,
      target: `p99 < ${TARGETS.rushPullP99Ms} ms`,
      met: r.pulls.p99Ms !== null && r.pulls.p99Ms < TARGETS.rushPullP99Ms,
    },
    info(
      'a device opening: every collection pulled in full',
      `${p(r.opening)}${r.opening.incomplete ? `, ${r.opening.incomplete} incomplete` : ''}`,
    ),
    {
      figure: 'answer (POST /api/attendance)',
      measured: `${p(r.writes)} (${r.writes.count} answered, ${r.writes.refused} refused by a rule)`,
      target: `p99 < ${TARGETS.rushWriteP99Ms} ms`,
      met: r.writes.p99Ms !== null && r.writes.p99Ms < TARGETS.rushWriteP99Ms,
    },
    {
      figure: "answer → every device's stream names attendees",
      measured: `${p(r.fanOut)} (${r.fanOut.count.toLocaleString('en')} deliveries, ${r.fanOut.missing} never told)`,
      target: `p99 ≤ ${TARGETS.rushFanOutP99Ms} ms`,
      met: r.fanOut.p99Ms !== null && r.fanOut.p99Ms <= TARGETS.rushFanOutP99Ms && r.fanOut.missing === 0,
    },
    {
      figure: (r.instances ?? 1) > 1 ? "the largest instance's RSS during the rush" : 'server RSS during the rush',
      measured: `max ${r.rss.maxMiB.toFixed(1)} MiB (start ${r.rss.startMiB.toFixed(1)}, end ${r.rss.endMiB.toFixed(1)})`,
      target: `≤ ${TARGETS.rushRssMiB} MiB`,
      met: r.rss.maxMiB <= TARGETS.rushRssMiB,
    },
  ];
  if (r.cpu) rows.push(info('CPU while the devices ran', cpuText(r.cpu)));
  if (before) rows.push(info('the same rush before', before));
  return rows;
}

/** Busy core-seconds by who used them, and the share of all the cores' time. */
function cpuText(cpu: NonNullable<RushFigures['cpu']>): string {
  const s = (seconds: number) => `${seconds.toFixed(0)} s`;
  const servers = cpu.serverSeconds.map(s).join(' + ');
  const share = (100 * cpu.machineSeconds) / (cpu.wallSeconds * cpu.cores);
  return (
    `${s(cpu.machineSeconds)} busy of ${s(cpu.wallSeconds * cpu.cores)} (${cpu.cores} cores × ${s(cpu.wallSeconds)}, ${share.toFixed(0)} %): ` +
    `server${cpu.serverSeconds.length > 1 ? 's' : ''} ${servers}, PostgreSQL ${s(cpu.postgresSeconds)}, devices ${s(cpu.devicesSeconds)}`
  );
}

function userServerRows(u: UserServerFigures): Row[] {
  const s = (value: number) => `${(value / 1000).toFixed(1)} s`;
  const { rss, ms: took, listLoad } = u;
  return [
    info(
      'the club, built through the API',
      `${u.members} members registered, approved, signed in (${s(took.members)}); ${u.events} events (${u.pastEvents} past) (${s(took.events)}); ` +
        `${u.answers.toLocaleString('en')} answers (${s(took.answers)}); past events moved to their dates (${s(took.moves)})`,
    ),
    info('server RSS right after start', mib(rss.start)),
    info(`server RSS after the ${u.members} members`, mib(rss.afterMembers)),
    info(`server RSS after the ${u.answers.toLocaleString('en')} answers`, mib(rss.afterAnswers)),
    info(
      'the list load (GET /api/events, as for the clubs)',
      `${Math.round(listLoad.app.requestsPerSec)} req/s, p99 ${listLoad.app.p99Ms} ms, ${kB(listLoad.wireBytes)} on the wire (${kB(listLoad.bodyBytes)} JSON)`,
    ),
    {
      figure: 'server RSS after the list load',
      measured: `${mib(rss.afterListLoad)}; before: ${USER_SERVER_BEFORE}`,
      target: `≤ ${TARGETS.userServerRssMiB} MiB`,
      met: rss.afterListLoad.rssMiB <= TARGETS.userServerRssMiB,
    },
    info('server RSS max (sampled every 250 ms)', `${rss.maxSampledMiB.toFixed(1)} MiB; the part took ${s(took.total)}`),
  ];
}

export function tableRows(figures: Figures, errors: Record<string, string>): TableRow[] {
  const rows = mergeClubs(figures.clubs);
  const ratio = ratioRow(figures.clubs);
  if (ratio) rows.splice(rows.findIndex((row) => row.figure === FULLY_SYNCED) + 1, 0, ratio);
  if (figures.hardening) rows.push(heading('hardening (5-season club)'), ...hardeningRows(figures.hardening).map(once));
  if (figures.instances) rows.push(heading('several instances on one PostgreSQL'), ...instancesRows(figures.instances));
  if (figures.rush) {
    const where =
      (figures.rush.instances ?? 1) > 1
        ? `match-day rush over ${figures.rush.instances} instances on one PostgreSQL`
        : 'match-day rush on one server (SQLite)';
    rows.push(heading(where), ...rushRows(figures.rush).map(once));
  }
  if (figures.statements) {
    rows.push(
      heading(`a bank statement of ${figures.statements.lines.toLocaleString('en')} credits`),
      ...figures.statements.formats.map((f) =>
        once({
          figure: `parsed: ${f.format} (${(f.bytes / 1_000_000).toFixed(1)} MB)`,
          measured: `median ${ms(f.medianMs)}`,
          target: `< ${ms(TARGETS.statementParseMs)}`,
          met: f.medianMs < TARGETS.statementParseMs,
        }),
      ),
    );
  }
  if (figures.memberImport) {
    const m = figures.memberImport;
    rows.push(
      heading(`a member list of ${m.rows.toLocaleString('en')} rows (${m.existing.toLocaleString('en')} members already there)`),
      once({
        figure: `previewed (${(m.bytes / 1_000_000).toFixed(1)} MB of JSON)`,
        measured: `median ${ms(m.previewMedianMs)}`,
        target: `< ${ms(TARGETS.memberImportPreviewMs)}`,
        met: m.previewMedianMs < TARGETS.memberImportPreviewMs,
      }),
      once({ figure: 'imported (one transaction, no mail)', measured: ms(m.confirmMs), target: '—', met: null }),
    );
  }
  if (figures.userServer) {
    rows.push(heading("a user's server (npm start, empty data folder, SQLite)"), ...userServerRows(figures.userServer).map(once));
  }
  for (const [phase, message] of Object.entries(errors)) {
    rows.push(
      once({ figure: `${phase}: BENCH FAILED`, measured: message.split('\n')[0]!.slice(0, 120), target: '—', met: false }),
    );
  }
  return rows;
}

const withVerdict = (cell: Cell | undefined) =>
  cell === undefined ? '—' : cell.met === null ? cell.measured : `${cell.measured} [${cell.met ? 'met' : 'NOT met'}]`;

/** figure | target | one column per club; a run-wide cell starts in the first club column and runs on. */
export function printTable(rows: TableRow[], clubs: ClubKey[]): void {
  const widest = (cells: string[]) => Math.max(...cells.map((cell) => cell.length));
  const clubRowsOnly = rows.filter((row) => !row.shared && Object.keys(row.clubs).length > 0);
  const columns = [
    widest(['figure', ...rows.map((r) => r.figure)]),
    widest(['target', ...rows.map((r) => r.target)]),
    ...clubs.map((club) => widest([CLUB_LABELS[club], ...clubRowsOnly.map((r) => withVerdict(r.clubs[club]))])),
  ];
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < cells.length - 1 ? cell.padEnd(columns[i]!) : cell))
      .join('  ')
      .trimEnd();
  console.log(line(['figure', 'target', ...clubs.map((club) => CLUB_LABELS[club])]));
  console.log(line(columns.map((w) => '-'.repeat(w))));
  for (const row of rows) {
    if (row.shared) console.log(line([row.figure, row.target, withVerdict(row.shared)]));
    else if (Object.keys(row.clubs).length === 0) console.log(row.figure);
    else console.log(line([row.figure, row.target, ...clubs.map((club) => withVerdict(row.clubs[club]))]));
  }
}

export function writeResults(file: string, content: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
}
