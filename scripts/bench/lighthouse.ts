/**
 * Lighthouse 12 on the signed-in app with the device's data warm: a persistent Chromium profile signs
 * in through the form and syncs fully (service worker installed, IndexedDB filled), then Lighthouse
 * runs against that same browser over its remote debugging port without resetting storage. Mobile,
 * simulated throttling (Lighthouse's defaults); several runs per page, median per figure.
 */
import { chromium, type BrowserContext, type CDPSession } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium-args.js';
import { evaluateSource, WAIT_FULLY_SYNCED, waitInPage } from './inPage.js';
import type { SeededUser } from './seed.js';
import { freePort } from './server.js';

export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof LIGHTHOUSE_CATEGORIES)[number];

export interface LighthouseRun {
  /** Category scores, 0–100. */
  scores: Record<Category, number | null>;
  tbtMs: number | null;
  lcpMs: number | null;
  fcpMs: number | null;
  /** Cumulative layout shift and Speed Index, the other parts of the performance score. */
  cls: number | null;
  speedIndexMs: number | null;
  /** JavaScript execution time (Lighthouse's bootup-time audit). */
  bootupMs: number | null;
  /** The longest main-thread task Lighthouse saw (its long-tasks audit), ms. */
  longestTaskMs: number | null;
  /** JavaScript the page loaded (decoded bytes of its script requests, service worker or network), KiB. */
  scriptKiB: number | null;
  /** Audits below full marks outside performance (best practices, SEO, accessibility), by id. */
  failedAudits: string[];
  /**
   * Lighthouse's measure of this machine's speed (its benchmarkIndex): simulated throttling slows
   * the CPU 4× from whatever the host does, so figures of two machines compare only beside it.
   */
  benchmarkIndex: number | null;
}

export interface LighthousePageFigures {
  name: string;
  path: string;
  runs: LighthouseRun[];
  /** Runs Lighthouse itself gave up on (e.g. NO_NAVSTART under load), each repeated once. */
  failedRuns: string[];
  /** Median of the runs, figure by figure. */
  median: LighthouseRun;
}

export type LighthouseRole = 'admin' | 'member';

export interface LighthouseUserFigures {
  role: LighthouseRole;
  user: string;
  /** From the click on "Anmelden" to every collection stored on the device (the sync indicator quiet). */
  firstSyncMs: number;
  pages: LighthousePageFigures[];
  /** Pages every Lighthouse run failed on. */
  failedPages: string[];
}

export interface LighthouseFigures {
  runsPerPage: number;
  /** The browser that ran them (`chromium --version`), and Lighthouse's speed index of this machine (median of every run). */
  browser: string;
  benchmarkIndex: number | null;
  /** The sign-in page as a new visitor sees it. */
  login: LighthousePageFigures;
  users: LighthouseUserFigures[];
}

export interface LighthouseUserInput {
  role: LighthouseRole;
  user: SeededUser;
  /** Documents per collection a full pull returns to the user (the device counts to reach). */
  expected: Record<string, number>;
}

export interface LighthouseInput {
  baseUrl: string;
  /** Each signs in on a persistent profile of their own, in this order. */
  users: LighthouseUserInput[];
  eventId: string;
  runs: number;
  log(message: string): void;
}

/**
 * The reference: every page measured before this round of loading work (338c4ed, the bench as it is
 * now, one run per page on a quiet machine), by page and user. On df0119f, as the admin and the
 * median of 3: /login 94 (TBT 207 ms), /events 77 (853 ms), /my-tickets 86 (564 ms), /debts 62
 * (807 ms); the admin's first sync then looked like 3 minutes, which were the bench's warm visits
 * and the first page's three Lighthouse runs (the sync itself took 2.2 s on 338c4ed).
 */
export const LIGHTHOUSE_REFERENCE: Record<string, { performance: number; tbtMs: number; scriptKiB: number }> = {
  '/login visitor': { performance: 95, tbtMs: 149, scriptKiB: 610 },
  '/events admin': { performance: 81, tbtMs: 624, scriptKiB: 907 },
  '/events member': { performance: 82, tbtMs: 735, scriptKiB: 907 },
  'event page admin': { performance: 83, tbtMs: 690, scriptKiB: 986 },
  'event page member': { performance: 82, tbtMs: 719, scriptKiB: 986 },
  '/my-tickets admin': { performance: 91, tbtMs: 286, scriptKiB: 949 },
  '/my-tickets member': { performance: 83, tbtMs: 475, scriptKiB: 949 },
  '/profile admin': { performance: 92, tbtMs: 344, scriptKiB: 879 },
  '/profile member': { performance: 93, tbtMs: 315, scriptKiB: 879 },
  '/allesfahrer admin': { performance: 89, tbtMs: 413, scriptKiB: 859 },
  '/allesfahrer member': { performance: 91, tbtMs: 341, scriptKiB: 859 },
  '/stats admin': { performance: 89, tbtMs: 429, scriptKiB: 1028 },
  '/stats member': { performance: 89, tbtMs: 431, scriptKiB: 1028 },
  '/admin/tasks admin': { performance: 86, tbtMs: 500, scriptKiB: 872 },
  '/debts admin': { performance: 64, tbtMs: 624, scriptKiB: 906 },
  '/users admin': { performance: 64, tbtMs: 525, scriptKiB: 882 },
};

/**
 * JavaScript a page may load on its first load (decoded KiB, what Lighthouse's requests show): the
 * shell, the data layer and the screen's own chunk, not the code of what opens later.
 */
export const SCRIPT_BUDGET_KIB: Record<string, number> = {
  // Today's sizes (the column "(before)") with a little room: the code a page loads may not grow
  // unnoticed; what a page needs later belongs in a chunk it loads when needed.
  '/login': 620,
  '/events': 920,
  'event page': 1000,
  '/my-tickets': 960,
  '/profile': 890,
  '/allesfahrer': 870,
  '/stats': 1040,
  '/admin/tasks': 885,
  '/debts': 920,
  '/users': 895,
};

export const LIGHTHOUSE_TARGET = { performance: 90, tbtMs: 200, bestPractices: 100, firstSyncMs: 5000 };

interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    { score: number | null; numericValue?: number; scoreDisplayMode: string; details?: { items?: Record<string, unknown>[] } }
  >;
  runtimeError?: { code: string; message: string };
  environment?: { benchmarkIndex?: number };
}
type RunLighthouse = (url: string, flags: Record<string, unknown>) => Promise<{ lhr: Lhr } | undefined>;

async function loadLighthouse(): Promise<RunLighthouse> {
  // The package has no type declarations of its own; the one call used is typed above.
  const module = (await import('lighthouse' as string)) as { default: RunLighthouse };
  return module.default;
}

interface BenchPage {
  name: string;
  path: string;
  adminOnly?: boolean;
}

/** Every signed-in page a member or an admin opens; a member is shown "admins only" on the last three. */
function signedInPages(eventId: string): BenchPage[] {
  return [
    { name: '/events', path: '/events' },
    { name: 'event page', path: `/events/${eventId}` },
    { name: '/my-tickets', path: '/my-tickets' },
    { name: '/profile', path: '/profile' },
    { name: '/allesfahrer', path: '/allesfahrer' },
    { name: '/stats', path: '/stats' },
    { name: '/admin/tasks', path: '/admin/tasks', adminOnly: true },
    { name: '/debts', path: '/debts', adminOnly: true },
    { name: '/users', path: '/users', adminOnly: true },
  ];
}
const LOGIN_PAGE: BenchPage = { name: '/login', path: '/login' };

const median = (values: (number | null)[]): number | null => {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function runOf(lhr: Lhr): LighthouseRun {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (category: Category) => {
    const value = lhr.categories[category]?.score;
    return value === null || value === undefined ? null : Math.round(value * 100);
  };
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? null;
  const items = (id: string) => lhr.audits[id]?.details?.items;
  const taskDurations = (items('long-tasks') ?? []).map((item) => Number(item.duration) || 0);
  const scripts = items('network-requests')?.filter((item) => item.resourceType === 'Script');
  const failedAudits = LIGHTHOUSE_CATEGORIES.filter((c) => c !== 'performance').flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .filter((ref) => {
        const audit = lhr.audits[ref.id];
        return audit && audit.scoreDisplayMode === 'binary'
          ? audit.score !== 1
          : audit?.score !== null && (audit?.score ?? 1) < 1;
      })
      .map((ref) => `${category}:${ref.id}`),
  );
  return {
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    tbtMs: numeric('total-blocking-time'),
    lcpMs: numeric('largest-contentful-paint'),
    fcpMs: numeric('first-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    speedIndexMs: numeric('speed-index'),
    bootupMs: numeric('bootup-time'),
    longestTaskMs: taskDurations.length > 0 ? Math.max(...taskDurations) : 0,
    scriptKiB: scripts ? scripts.reduce((sum, item) => sum + (Number(item.resourceSize) || 0), 0) / 1024 : null,
    failedAudits,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

function medianRun(runs: LighthouseRun[]): LighthouseRun {
  const of = (pick: (run: LighthouseRun) => number | null) => median(runs.map(pick));
  return {
    scores: {
      performance: of((r) => r.scores.performance),
      accessibility: of((r) => r.scores.accessibility),
      'best-practices': of((r) => r.scores['best-practices']),
      seo: of((r) => r.scores.seo),
    },
    tbtMs: of((r) => r.tbtMs),
    lcpMs: of((r) => r.lcpMs),
    fcpMs: of((r) => r.fcpMs),
    cls: of((r) => r.cls),
    speedIndexMs: of((r) => r.speedIndexMs),
    bootupMs: of((r) => r.bootupMs),
    longestTaskMs: of((r) => r.longestTaskMs),
    scriptKiB: of((r) => r.scriptKiB),
    benchmarkIndex: of((r) => r.benchmarkIndex),
    // An audit counts when it failed in most runs.
    failedAudits: [...new Set(runs.flatMap((r) => r.failedAudits))].filter(
      (id) => runs.filter((r) => r.failedAudits.includes(id)).length * 2 > runs.length,
    ),
  };
}

/**
 * Signs in through the form on the persistent profile, lets the device sync fully and the service
 * worker take control, then leaves the tab on about:blank: the tab Lighthouse opens must be the
 * only one of the app, so that it is the leader that replicates, as a member's single tab would be.
 */
async function warmDevice(
  context: BrowserContext,
  input: LighthouseInput,
  who: LighthouseUserInput,
  pages: BenchPage[],
): Promise<number> {
  const page = await context.newPage();
  await page.goto(`${input.baseUrl}/login`);
  // A device that has answered the push prompt (as the browser tests start): no dialog over the pages.
  await page.evaluate(`localStorage.setItem('pushPromptDone', 'bench')`);
  await page.getByLabel('Benutzername').fill(who.user.username);
  await page.getByLabel('Passwort').fill(who.user.password);
  const clickedAt = Date.now();
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.getByRole('article').first().waitFor({ timeout: 60_000 });
  const synced = (await page.evaluate(evaluateSource(WAIT_FULLY_SYNCED, { expected: who.expected, timeoutMs: 180_000 }))) as {
    at: number | null;
    counts: Record<string, number | null>;
    reachedAt: Record<string, number>;
  };
  if (synced.at === null) throw new Error(`the ${who.role}'s device did not sync: ${JSON.stringify(synced.counts)}`);
  const firstSyncMs = synced.at - clickedAt;
  const last = Object.entries(synced.reachedAt).sort((a, b) => b[1] - a[1])[0];
  input.log(
    `  ${who.role}'s device synced in ${firstSyncMs} ms (last stored: ${last?.[0]} at ${last ? last[1] - clickedAt : '—'} ms)`,
  );
  await waitInPage(page, 'navigator.serviceWorker && navigator.serviceWorker.controller !== null', 30_000);
  // Every screen once, so the browser's code cache knows the chunks (a member's device has used them).
  const visitsFrom = Date.now();
  for (const { path: pagePath } of pages) {
    await page.goto(`${input.baseUrl}${pagePath}`);
    await page.locator('main').first().waitFor();
  }
  await page.goto('about:blank');
  input.log(`  ${who.role}'s device: every screen visited once in ${((Date.now() - visitsFrom) / 1000).toFixed(1)} s`);
  return firstSyncMs;
}

/** BENCH_LIGHTHOUSE_REPORTS=<folder> keeps every run's full report (lhr JSON) for a closer look. */
function keepReport(lhr: Lhr, url: string): void {
  const folder = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (!folder) return;
  fs.mkdirSync(folder, { recursive: true });
  const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`;
  fs.writeFileSync(path.join(folder, name), JSON.stringify(lhr));
}

async function auditPage(runLighthouse: RunLighthouse, url: string, port: number): Promise<LighthouseRun> {
  const result = await runLighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...LIGHTHOUSE_CATEGORIES],
    formFactor: 'mobile',
    throttlingMethod: 'simulate',
    // Keep IndexedDB, localStorage (the session) and the service worker: the device's data warm.
    disableStorageReset: true,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  keepReport(result.lhr, url);
  return runOf(result.lhr);
}

async function auditRuns(
  runLighthouse: RunLighthouse,
  page: BenchPage,
  port: number,
  input: LighthouseInput,
): Promise<LighthousePageFigures> {
  const runs: LighthouseRun[] = [];
  const failedRuns: string[] = [];
  const from = Date.now();
  // A run Lighthouse gives up on ("Please run Lighthouse again") is repeated, at most once per run
  // and at least twice a page.
  while (runs.length < input.runs && failedRuns.length < Math.max(2, input.runs)) {
    try {
      runs.push(await auditPage(runLighthouse, `${input.baseUrl}${page.path}`, port));
    } catch (error) {
      failedRuns.push(String(error).split('\n')[0]!);
      input.log(`  ${page.name}: a run failed: ${failedRuns.at(-1)}`);
    }
  }
  if (runs.length === 0) throw new Error(`${page.name}: every Lighthouse run failed: ${failedRuns.join(' | ')}`);
  const figures = { ...page, runs, failedRuns, median: medianRun(runs) };
  input.log(
    `  ${page.name}: performance ${runs.map((r) => r.scores.performance).join(', ')} → ${figures.median.scores.performance} (${((Date.now() - from) / 1000).toFixed(0)} s of Lighthouse)`,
  );
  return figures;
}

/**
 * BENCH_LIGHTHOUSE_PROFILE=<folder>: each page's CPU profile over its first 6 s on the warm device,
 * the CPU slowed 4× as Lighthouse's mobile setting simulates, for DevTools (Performance → load
 * profile) or a summary by function.
 */
async function profilePages(context: BrowserContext, input: LighthouseInput, role: string, pages: BenchPage[]) {
  const folder = process.env.BENCH_LIGHTHOUSE_PROFILE!;
  fs.mkdirSync(folder, { recursive: true });
  for (const { name, path: pagePath } of pages) {
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 500 });
    await session.send('Profiler.start');
    const trace = await startTrace(session);
    await page.goto(`${input.baseUrl}${pagePath}`);
    await page.waitForTimeout(6000);
    const { profile } = await session.send('Profiler.stop');
    const file = path.join(folder, `${role}-${name.replace(/\W+/g, '_')}`);
    fs.writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
    fs.writeFileSync(`${file}.trace.json`, await trace.stop());
    // The first access to localStorage loads all of it at once, inside the first script that reads it.
    const stored = (await page.evaluate(
      'Object.keys(localStorage).map((key) => [key, localStorage.getItem(key).length]).sort((a, b) => b[1] - a[1])',
    )) as [string, number][];
    const chars = stored.reduce((sum, [, length]) => sum + length, 0);
    input.log(
      `  ${role} ${name}: localStorage ${stored.length} keys, ${(chars / 1024).toFixed(0)} K characters (largest: ${stored
        .slice(0, 3)
        .map(([key, length]) => `${key} ${(length / 1024).toFixed(0)} K`)
        .join(', ')})`,
    );
    await page.close();
  }
}

/** A DevTools trace of the page (its tasks, scripts, layout and garbage collection), as JSON text. */
async function startTrace(session: CDPSession): Promise<{ stop(): Promise<string> }> {
  await session.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,toplevel,v8.execute,blink.user_timing',
    transferMode: 'ReturnAsStream',
  });
  return {
    async stop() {
      const complete = new Promise<string>((resolve) =>
        session.once('Tracing.tracingComplete', (event) => resolve(event.stream!)),
      );
      await session.send('Tracing.end');
      const handle = await complete;
      let text = '';
      for (;;) {
        const chunk = await session.send('IO.read', { handle });
        text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
        if (chunk.eof) break;
      }
      await session.send('IO.close', { handle });
      return text;
    },
  };
}

/** One persistent profile: Chromium with its debugging port for Lighthouse, removed afterwards. */
async function withProfile<T>(use: (context: BrowserContext, port: number) => Promise<T>): Promise<T> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-lighthouse-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    serviceWorkers: 'allow',
    locale: 'de-DE',
  });
  try {
    return await use(context, port);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * The sign-in page as a new visitor sees it, then for each user on a fresh profile: the sign-in and
 * first sync (timed), and Lighthouse on every signed-in page they may open.
 * BENCH_LIGHTHOUSE_PAGES=/admin/tasks,/events measures only those signed-in pages (a quick re-measure),
 * BENCH_LIGHTHOUSE_ROLES=admin only that user.
 */
export async function benchLighthouse(input: LighthouseInput): Promise<LighthouseFigures> {
  const runLighthouse = await loadLighthouse();
  const only = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',').map((name) => name.trim());
  const roles = process.env.BENCH_LIGHTHOUSE_ROLES?.split(',').map((name) => name.trim());
  const login = await withProfile((_context, port) => auditRuns(runLighthouse, LOGIN_PAGE, port, input));
  const users: LighthouseUserFigures[] = [];
  for (const who of input.users.filter((u) => !roles || roles.includes(u.role))) {
    const mayOpen = signedInPages(input.eventId).filter((page) => who.role === 'admin' || !page.adminOnly);
    const measured = only ? mayOpen.filter((page) => only.includes(page.name)) : mayOpen;
    users.push(
      await withProfile(async (context, port) => {
        input.log(`  signing in as the ${who.role} ${who.user.username} and syncing the device…`);
        const firstSyncMs = await warmDevice(context, input, who, mayOpen);
        if (process.env.BENCH_LIGHTHOUSE_PROFILE) await profilePages(context, input, who.role, measured);
        const pages: LighthousePageFigures[] = [];
        const failedPages: string[] = [];
        for (const page of measured) {
          try {
            pages.push(await auditRuns(runLighthouse, page, port, input));
          } catch (error) {
            // One page Lighthouse could not measure does not end the others.
            failedPages.push(page.name);
            input.log(`  ${page.name}: NOT measured: ${String(error).split('\n')[0]}`);
          }
        }
        return { role: who.role, user: who.user.username, firstSyncMs, pages, failedPages };
      }),
    );
  }
  const everyRun = [login, ...users.flatMap((u) => u.pages)].flatMap((page) => page.runs);
  return {
    runsPerPage: input.runs,
    browser: browserVersion(),
    benchmarkIndex: median(everyRun.map((run) => run.benchmarkIndex)),
    login,
    users,
  };
}

function browserVersion(): string {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

const ms = (value: number | null) => (value === null ? '—' : `${Math.round(value)}`);
const seconds = (value: number | null) => (value === null ? '—' : `${(value / 1000).toFixed(1)} s`);
const score = (value: number | null) => (value === null ? '—' : String(value));

const kib = (value: number | null) => (value === null ? '—' : `${Math.round(value)}`);

function meetsTarget(m: LighthouseRun, name: string): boolean {
  return (
    (m.scores.performance ?? 0) >= LIGHTHOUSE_TARGET.performance &&
    (name === '/login' || (m.tbtMs ?? Infinity) <= LIGHTHOUSE_TARGET.tbtMs) &&
    (m.scores['best-practices'] ?? 0) >= LIGHTHOUSE_TARGET.bestPractices &&
    (m.scriptKiB ?? 0) <= (SCRIPT_BUDGET_KIB[name] ?? Infinity)
  );
}

/** The side-by-side table: each page as the admin and as a member, beside the reference and the targets. */
export function printLighthouseTable(figures: LighthouseFigures): void {
  const header = [
    'page',
    'as',
    'perf',
    '(before)',
    'TBT ms',
    '(before)',
    'longest task',
    'LCP',
    'FCP',
    'CLS',
    'SI',
    'JS boot-up',
    'JS KiB',
    '(before)',
    'budget',
    'a11y',
    'b.p.',
    'seo',
    'target',
  ];
  const rowOf = (page: LighthousePageFigures, as: string) => {
    const m = page.median;
    const before = LIGHTHOUSE_REFERENCE[`${page.name} ${as}`];
    return [
      page.name,
      as,
      score(m.scores.performance),
      score(before?.performance ?? null),
      ms(m.tbtMs),
      ms(before?.tbtMs ?? null),
      ms(m.longestTaskMs),
      seconds(m.lcpMs),
      seconds(m.fcpMs),
      m.cls === null ? '—' : m.cls.toFixed(3),
      seconds(m.speedIndexMs),
      ms(m.bootupMs),
      kib(m.scriptKiB),
      kib(before?.scriptKiB ?? null),
      kib(SCRIPT_BUDGET_KIB[page.name] ?? null),
      score(m.scores.accessibility),
      score(m.scores['best-practices']),
      score(m.scores.seo),
      meetsTarget(m, page.name) ? 'met' : 'NOT met',
    ];
  };
  const rows = [
    rowOf(figures.login, 'visitor'),
    ...signedInPageNames(figures).flatMap((name) =>
      figures.users.flatMap((user) => {
        const page = user.pages.find((p) => p.name === name);
        return page ? [rowOf(page, user.role)] : [];
      }),
    ),
  ];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.log(
    `Lighthouse 12 (mobile, simulated throttling), median of ${figures.runsPerPage} runs per page, each user on a device of their own with the data warm (/login: a new visitor).` +
      ` (before) = before this round of loading work (338c4ed, one run a page).` +
      ` Target: performance ≥ ${LIGHTHOUSE_TARGET.performance}, TBT ≤ ${LIGHTHOUSE_TARGET.tbtMs} ms, best practices ${LIGHTHOUSE_TARGET.bestPractices}, JavaScript within its budget.`,
  );
  console.log(
    `This machine: Lighthouse benchmark index ${figures.benchmarkIndex ?? '—'} (higher is faster; the figures of two machines compare only beside it), ${figures.browser}.`,
  );
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
  for (const user of figures.users) {
    const met = user.firstSyncMs <= LIGHTHOUSE_TARGET.firstSyncMs ? 'met' : 'NOT met';
    console.log(
      `  the ${user.role}'s first sync: ${(user.firstSyncMs / 1000).toFixed(1)} s (target ≤ ${LIGHTHOUSE_TARGET.firstSyncMs / 1000} s, before: 2.2 s) ${met}`,
    );
  }
  for (const user of figures.users) {
    if (user.failedPages.length > 0) console.log(`  NOT measured as the ${user.role}: ${user.failedPages.join(', ')}`);
  }
  for (const page of [figures.login, ...figures.users.flatMap((u) => u.pages)]) {
    if (page.median.failedAudits.length > 0)
      console.log(`  ${page.name}: below full marks: ${page.median.failedAudits.join(', ')}`);
  }
}

function signedInPageNames(figures: LighthouseFigures): string[] {
  return [...new Set(figures.users.flatMap((user) => user.pages.map((page) => page.name)))];
}
