/** The printed table (figure, measured, target, met) and the JSON file of all figures. */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserFigures } from './browser.js';
import type { HardeningFigures } from './hardening.js';
import type { LighthouseFigures } from './lighthouse.js';
import type { PullsFigures } from './pulls.js';
import type { RestFigures } from './rest.js';

export interface Row {
  figure: string;
  measured: string;
  target: string;
  /** true/false against a target; null for an informative figure. */
  met: boolean | null;
}

export interface MemoryFigures {
  rssMiB: number;
  peakMiB: number;
}

export interface Figures {
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
  hardening?: HardeningFigures;
  lighthouse?: LighthouseFigures;
}

/** Targets (decimal megabytes: 2 MB = 2,000,000 bytes). */
export const TARGETS = {
  restRatio: 0.5,
  restP99Ms: 50,
  rssMiB: 150,
  firstSyncBytes: 2_000_000,
  firstCardMs: 1500,
  fullySyncedMs: 3000,
  offlineStartMs: 300,
  queuedAnswersMs: 2000,
  /** The app shell's slowest answer while 60 sign-ins run (main: 5.3 s). */
  shellUnderFloodMs: 500,
  /** Extra time per write with 500 open change streams. */
  streamWriteExtraMs: 5,
};

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

function firstSignInRows(first: BrowserFigures['firstSignIn']): Row[] {
  const bytes = first.bytes;
  const complete = Object.entries(first.collectionCompleteMs)
    .sort((a, b) => a[1] - b[1])
    .map(([name, at]) => `${name} ${Math.round(at)}`)
    .join(', ');
  return [
    {
      figure: `first sign-in: click → first event card (median of ${first.firstCardRunsMs.length})`,
      measured: `${ms(first.firstCardMs)} (${first.firstCardRunsMs.map((v) => (v === null ? '—' : Math.round(v))).join(', ')})`,
      target: `≤ ${TARGETS.firstCardMs} ms`,
      met: atMost(first.firstCardMs, TARGETS.firstCardMs),
    },
    {
      figure: 'first sign-in: click → fully synced (first device)',
      measured: ms(first.fullySyncedMs),
      target: `≤ ${TARGETS.fullySyncedMs} ms`,
      met: atMost(first.fullySyncedMs, TARGETS.fullySyncedMs),
    },
    info('first sign-in: collection complete on the device (ms after click)', complete || 'none'),
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
      measured: `${ms(offline.medianMs)} (${offline.runsMs.map((v) => Math.round(v)).join(', ')})`,
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

export function tableRows(figures: Figures, errors: Record<string, string>): Row[] {
  const rows: Row[] = [];
  if (figures.rest) rows.push(...restRows(figures.rest));
  const memory = figures.memory;
  if (memory) {
    rows.push(info('server RSS right after start', mib(memory.start)));
    rows.push(info('server RSS after one sign-in (argon2), before load', mib(memory.idle)));
  }
  if (memory?.afterRest) {
    rows.push({
      figure: 'server RSS after the REST load',
      measured: mib(memory.afterRest),
      target: `≤ ${TARGETS.rssMiB} MiB`,
      met: memory.afterRest.rssMiB <= TARGETS.rssMiB,
    });
  }
  if (figures.pulls) rows.push(...pullRows(figures.pulls));
  if (figures.browser) rows.push(...browserRows(figures.browser));
  if (memory?.end) rows.push(info('server RSS at the end (after the browser phase)', mib(memory.end)));
  if (figures.hardening) rows.push(...hardeningRows(figures.hardening));
  for (const [phase, message] of Object.entries(errors)) {
    rows.push({ figure: `${phase}: BENCH FAILED`, measured: message.split('\n')[0]!.slice(0, 120), target: '—', met: false });
  }
  return rows;
}

export function printTable(rows: Row[]): void {
  const verdict = (row: Row) => (row.met === null ? '' : row.met ? 'met' : 'NOT met');
  const columns = [
    { title: 'figure', width: Math.max(6, ...rows.map((r) => r.figure.length)) },
    { title: 'measured', width: Math.max(8, ...rows.map((r) => r.measured.length)) },
    { title: 'target', width: Math.max(6, ...rows.map((r) => r.target.length)) },
  ];
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < columns.length ? cell.padEnd(columns[i]!.width) : cell)).join('  ');
  console.log(line(['figure', 'measured', 'target', 'met']));
  console.log(line(columns.map((c) => '-'.repeat(c.width)).concat('-------')));
  for (const row of rows) console.log(line([row.figure, row.measured, row.target, verdict(row)]));
}

export function writeResults(file: string, content: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
}
