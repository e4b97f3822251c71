/**
 * Lighthouse 12 on the signed-in app with the device's data warm: a persistent Chromium profile signs
 * in through the form and syncs fully (service worker installed, IndexedDB filled), then Lighthouse
 * runs against that same browser over its remote debugging port without resetting storage. Mobile,
 * simulated throttling (Lighthouse's defaults); several runs per page, median per figure.
 */
import { chromium, type BrowserContext } from '@playwright/test';
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
  /** JavaScript execution time (Lighthouse's bootup-time audit). */
  bootupMs: number | null;
  /** Audits below full marks outside performance (best practices, SEO, accessibility), by id. */
  failedAudits: string[];
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

export interface LighthouseFigures {
  user: string;
  runsPerPage: number;
  pages: LighthousePageFigures[];
}

export interface LighthouseInput {
  baseUrl: string;
  /** Signs in on the persistent profile; an admin, so that /admin/tasks is among the pages. */
  user: SeededUser;
  eventId: string;
  /** Documents per collection a full pull returns to the user (the device counts to reach). */
  expected: Record<string, number>;
  runs: number;
  log(message: string): void;
}

/**
 * The reference: the same pages measured on main before the loading work (Lighthouse 12.8, mobile,
 * simulated throttling, median of 3). Best practices was 82 and SEO 90–91 on every signed-in page.
 */
export const LIGHTHOUSE_REFERENCE: Record<string, { performance: number; tbt: string; lcp: string }> = {
  '/login': { performance: 97, tbt: '—', lcp: '—' },
  '/events': { performance: 64, tbt: '342–779', lcp: '3.5–3.8 s' },
  'event page': { performance: 69, tbt: '342–779', lcp: '3.5–3.8 s' },
  '/profile': { performance: 70, tbt: '342–779', lcp: '3.5–3.8 s' },
  '/admin/tasks': { performance: 75, tbt: '342–779', lcp: '3.5–3.8 s' },
  '/my-tickets': { performance: 76, tbt: '342–779', lcp: '3.5–3.8 s' },
  '/debts': { performance: 77, tbt: '342–779', lcp: '3.5–3.8 s' },
};

export const LIGHTHOUSE_TARGET = { performance: 90, bestPractices: 100 };

interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; scoreDisplayMode: string }>;
  runtimeError?: { code: string; message: string };
}
type RunLighthouse = (url: string, flags: Record<string, unknown>) => Promise<{ lhr: Lhr } | undefined>;

async function loadLighthouse(): Promise<RunLighthouse> {
  // The package has no type declarations of its own; the one call used is typed above.
  const module = (await import('lighthouse' as string)) as { default: RunLighthouse };
  return module.default;
}

function pagesOf(eventId: string): { name: string; path: string }[] {
  return [
    { name: '/login', path: '/login' },
    { name: '/events', path: '/events' },
    { name: 'event page', path: `/events/${eventId}` },
    { name: '/profile', path: '/profile' },
    { name: '/admin/tasks', path: '/admin/tasks' },
    { name: '/my-tickets', path: '/my-tickets' },
    { name: '/debts', path: '/debts' },
  ];
}

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
    bootupMs: numeric('bootup-time'),
    failedAudits,
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
    bootupMs: of((r) => r.bootupMs),
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
async function warmDevice(context: BrowserContext, input: LighthouseInput): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${input.baseUrl}/login`);
  // A device that has answered the push prompt (as the browser tests start): no dialog over the pages.
  await page.evaluate(`localStorage.setItem('pushPromptDone', 'bench')`);
  await page.getByLabel('Benutzername').fill(input.user.username);
  await page.getByLabel('Passwort').fill(input.user.password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.getByRole('article').first().waitFor({ timeout: 60_000 });
  const synced = (await page.evaluate(evaluateSource(WAIT_FULLY_SYNCED, { expected: input.expected, timeoutMs: 180_000 }))) as {
    at: number | null;
    counts: Record<string, number | null>;
  };
  if (synced.at === null) throw new Error(`the device did not sync: ${JSON.stringify(synced.counts)}`);
  await waitInPage(page, 'navigator.serviceWorker && navigator.serviceWorker.controller !== null', 30_000);
  // Every screen once, so the browser's code cache knows the chunks (a member's device has used them).
  for (const { path: pagePath } of pagesOf(input.eventId).slice(1)) {
    await page.goto(`${input.baseUrl}${pagePath}`);
    await page.locator('main').first().waitFor();
  }
  await page.goto('about:blank');
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
  page: { name: string; path: string },
  port: number,
  input: LighthouseInput,
): Promise<LighthousePageFigures> {
  const runs: LighthouseRun[] = [];
  const failedRuns: string[] = [];
  // A run Lighthouse gives up on ("Please run Lighthouse again") is repeated, at most once per run.
  while (runs.length < input.runs && failedRuns.length < input.runs) {
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
    `  ${page.name}: performance ${runs.map((r) => r.scores.performance).join(', ')} → ${figures.median.scores.performance}`,
  );
  return figures;
}

export async function benchLighthouse(input: LighthouseInput): Promise<LighthouseFigures> {
  const runLighthouse = await loadLighthouse();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-lighthouse-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    serviceWorkers: 'allow',
    locale: 'de-DE',
  });
  try {
    const [login, ...all] = pagesOf(input.eventId);
    // BENCH_LIGHTHOUSE_PAGES=/admin/tasks,/events measures only those signed-in pages (a quick re-measure).
    const only = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',').map((name) => name.trim());
    const signedIn = only ? all.filter((page) => only.includes(page.name)) : all;
    // The sign-in page as a new visitor sees it (signed in, it only forwards to /events).
    const pages = [await auditRuns(runLighthouse, login!, port, input)];
    input.log(`  signing in as ${input.user.username} and syncing the device…`);
    await warmDevice(context, input);
    for (const page of signedIn) pages.push(await auditRuns(runLighthouse, page, port, input));
    return { user: input.user.username, runsPerPage: input.runs, pages };
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const ms = (value: number | null) => (value === null ? '—' : `${Math.round(value)}`);
const seconds = (value: number | null) => (value === null ? '—' : `${(value / 1000).toFixed(1)} s`);
const score = (value: number | null) => (value === null ? '—' : String(value));

/** The side-by-side table: this build's medians against the reference measured on main. */
export function printLighthouseTable(figures: LighthouseFigures): void {
  const header = [
    'page',
    'perf',
    '(main)',
    'a11y',
    'best pr.',
    'seo',
    'TBT ms',
    '(main)',
    'LCP',
    '(main)',
    'FCP',
    'JS boot-up ms',
    'target',
  ];
  const rows = figures.pages.map(({ name, median: m }) => {
    const reference = LIGHTHOUSE_REFERENCE[name];
    const met =
      (m.scores.performance ?? 0) >= LIGHTHOUSE_TARGET.performance &&
      (m.scores['best-practices'] ?? 0) >= LIGHTHOUSE_TARGET.bestPractices;
    return [
      name,
      score(m.scores.performance),
      score(reference?.performance ?? null),
      score(m.scores.accessibility),
      score(m.scores['best-practices']),
      score(m.scores.seo),
      ms(m.tbtMs),
      reference?.tbt ?? '—',
      seconds(m.lcpMs),
      reference?.lcp ?? '—',
      seconds(m.fcpMs),
      ms(m.bootupMs),
      met ? 'met' : 'NOT met',
    ];
  });
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.log(
    `Lighthouse 12 (mobile, simulated throttling), median of ${figures.runsPerPage} runs per page, signed in as ${figures.user} with the data warm (/login: a new visitor, before the sign-in);` +
      ` (main) = measured on main before this work (best practices 82, SEO 90–91 on every signed-in page there).` +
      ` Target: performance ≥ ${LIGHTHOUSE_TARGET.performance}, best practices ${LIGHTHOUSE_TARGET.bestPractices}.`,
  );
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
  const failed = figures.pages.filter((p) => p.median.failedAudits.length > 0);
  for (const page of failed) console.log(`  ${page.name}: below full marks: ${page.median.failedAudits.join(', ')}`);
}
