/**
 * The device side in Chromium: a member's first sign-in on a new device (first card, fully synced,
 * bytes), the warm offline start, and 50 answers queued offline reaching the server and an admin's
 * device after reconnect.
 */
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { request as httpRequest } from './http.js';
import {
  evaluateSource,
  MARKS_INIT_SCRIPT,
  SPA_NAVIGATE,
  START_TIMING,
  SYNC_TEXT,
  WAIT_FULLY_SYNCED,
  WAIT_MEMBER_ROWS,
  waitInPage,
} from './inPage.js';
import { pullActivity, recordNetwork, sumBytes, type WireBytes } from './network.js';
import type { SeededEvent, SeededUser } from './seed.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium-args.js';
import { REPO_ROOT } from './server.js';

export interface BrowserFigures {
  firstSignIn: {
    /** Median of the runs: the full first sign-in below, then more fresh devices up to the first card. */
    firstCardMs: number | null;
    firstCardRunsMs: (number | null)[];
    fullySyncedMs: number | null;
    /** When each collection had all its documents on the device (ms after the click). */
    collectionCompleteMs: Record<string, number>;
    deviceCounts: Record<string, number | null>;
    /** Pull requests: first sent and last answered (ms after the click), and the time any was in flight. */
    pulls: { firstMs: number | null; lastMs: number | null; busyMs: number };
    /** From opening /login to fully synced. */
    bytes: WireBytes;
    /** The same, from the click on Anmelden on. */
    bytesAfterClick: WireBytes;
  };
  warmOfflineStart: {
    runsMs: number[];
    medianMs: number | null;
    /** Medians of the same runs: document DOMContentLoaded and first contentful paint (the shell). */
    medianDomContentLoadedMs: number | null;
    medianFirstPaintMs: number | null;
  };
  queuedAnswers: {
    answered: number;
    /** Event pages that had to be loaded fully because the client-side navigation did not show them. */
    fullLoads: number;
    indicatorBeforeReconnect: string | null;
    serverMs: number | null;
    adminDeviceMs: number | null;
    memberIndicatorSettledMs: number | null;
  };
}

export interface BrowserInput {
  baseUrl: string;
  member: SeededUser;
  admin: SeededUser;
  memberToken: string;
  /** Upcoming events the member has no answer to. */
  openEvents: SeededEvent[];
  /** Documents per collection a full pull returns to the member (device counts to reach). */
  expected: Record<string, number>;
  /** The same for the admin: a device keeps the actor's own rows of every season, so the counts differ. */
  adminExpected: Record<string, number>;
  answers: number;
  offlineRuns: number;
  /** New devices measured to the first card (the first of them also to fully synced). */
  firstCardRuns: number;
  /** The club's label (file names). */
  label: string;
  log(message: string): void;
}

/** Uncaught errors of the app's pages, named in the bench's error when a step fails. */
const pageErrors: string[] = [];

async function newContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: 'allow', locale: 'de-DE' });
  await context.addInitScript({ content: MARKS_INIT_SCRIPT });
  context.on('weberror', (error) => pageErrors.push(error.error().message.split('\n')[0]!));
  return context;
}

/** Runs a step; on failure keeps a screenshot and names the app's page errors in the error. */
async function step<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const shot = path.join(REPO_ROOT, 'bench-results', `failed-${name}.png`);
    await page.screenshot({ path: shot }).catch(() => undefined);
    const errors = pageErrors.length ? `; page errors: ${[...new Set(pageErrors)].slice(0, 3).join(' | ')}` : '';
    throw new Error(`${name}: ${String(error).split('\n')[0]}${errors} (screenshot ${path.relative(REPO_ROOT, shot)})`, {
      cause: error,
    });
  }
}

interface Marks {
  clickAt: number | null;
  firstCardAt: number | null;
}

/** Opens /login on a new page, signs in through the form and waits for the first event card. */
async function signInToFirstCard(
  context: BrowserContext,
  user: SeededUser,
  label: string,
  beforeClick?: (page: Page) => Promise<void>,
) {
  const page = await context.newPage();
  await page.goto('/login');
  await beforeClick?.(page);
  await page.getByLabel('Benutzername').fill(user.username);
  await page.getByLabel('Passwort').fill(user.password);
  const clickedNode = Date.now();
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await step(page, label, () => page.getByRole('article').first().waitFor({ timeout: 30_000 }));
  const marks = (await page.evaluate('window.__bench')) as Marks;
  return { page, marks: { ...marks, clickAt: marks.clickAt ?? clickedNode } };
}

async function waitFullySynced(page: Page, expected: Record<string, number>, timeoutMs: number) {
  // The sign-in may replace the document once; evaluate again in the new one.
  for (let attempt = 0; ; attempt++) {
    try {
      return (await page.evaluate(evaluateSource(WAIT_FULLY_SYNCED, { expected, timeoutMs }))) as {
        at: number | null;
        counts: Record<string, number | null>;
        reachedAt: Record<string, number>;
      };
    } catch (error) {
      if (attempt >= 3 || !/context was destroyed|navigation/i.test(String(error))) throw error;
      await page.waitForLoadState('domcontentloaded');
    }
  }
}

async function firstSignIn(browser: Browser, input: BrowserInput) {
  const context = await newContext(browser, input.baseUrl);
  const network = recordNetwork(context);
  const opened = Date.now();
  const profile = process.env.BENCH_DEVICE_PROFILE ? await deviceProfile(context) : null;
  const { page, marks } = await signInToFirstCard(context, input.member, 'first-card', profile?.start);
  const synced = await waitFullySynced(page, input.expected, 90_000);
  await profile?.stop(path.join(process.env.BENCH_DEVICE_PROFILE!, `first-sign-in-${input.label}.cpuprofile`));
  const clickAt = marks.clickAt!;
  const end = synced.at ?? Date.now();
  // Give the sizes of the last responses a moment to arrive.
  await page.waitForTimeout(200);
  const pulls = pullActivity(network, clickAt, end + 50);
  const sinceClick = (at: number | null) => (at === null ? null : at - clickAt);
  const figures: BrowserFigures['firstSignIn'] = {
    firstCardMs: sinceClick(marks.firstCardAt),
    firstCardRunsMs: [sinceClick(marks.firstCardAt)],
    fullySyncedMs: sinceClick(synced.at),
    collectionCompleteMs: Object.fromEntries(Object.entries(synced.reachedAt).map(([name, at]) => [name, at - clickAt])),
    deviceCounts: synced.counts,
    pulls: { firstMs: sinceClick(pulls.first), lastMs: sinceClick(pulls.last), busyMs: pulls.busyMs },
    bytes: await sumBytes(network, opened, end + 50),
    bytesAfterClick: await sumBytes(network, clickAt, end + 50),
  };
  return { context, page, figures };
}

/**
 * BENCH_DEVICE_PROFILE=<folder>: the page's CPU profile from before the click on "Anmelden" to all
 * stored on the device, for Chromium's DevTools (Performance → load profile).
 */
async function deviceProfile(context: BrowserContext) {
  let session: CDPSession | null = null;
  return {
    start: async (page: Page) => {
      session = await context.newCDPSession(page);
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: 200 });
      await session.send('Profiler.start');
    },
    stop: async (file: string) => {
      if (!session) return;
      const { profile } = await session.send('Profiler.stop');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
    },
  };
}

/** Another new device, measured up to its first event card only. */
async function firstCardOnly(browser: Browser, input: BrowserInput): Promise<number | null> {
  const context = await newContext(browser, input.baseUrl);
  try {
    const { marks } = await signInToFirstCard(context, input.member, 'first-card');
    return marks.firstCardAt === null ? null : marks.firstCardAt - marks.clickAt!;
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]! : null);

interface StartTiming {
  firstCard: number;
  domContentLoaded: number | null;
  firstContentfulPaint: number | null;
}

async function warmOfflineStart(context: BrowserContext, page: Page, runs: number): Promise<BrowserFigures['warmOfflineStart']> {
  // The service worker must control the page (and so hold the precache) before the connection goes.
  await waitInPage(page, 'navigator.serviceWorker && navigator.serviceWorker.controller !== null', 20_000);
  await context.setOffline(true);
  const samples: StartTiming[] = [];
  for (let i = 0; i < runs; i++) {
    await page.goto('/events');
    await waitInPage(page, 'window.__bench && window.__bench.firstCardRel !== null', 20_000);
    samples.push((await page.evaluate(evaluateSource(START_TIMING))) as StartTiming);
  }
  const values = (pick: (s: StartTiming) => number | null) => samples.map(pick).filter((v): v is number => v !== null);
  return {
    runsMs: samples.map((s) => s.firstCard),
    medianMs: median(values((s) => s.firstCard)),
    medianDomContentLoadedMs: median(values((s) => s.domContentLoaded)),
    medianFirstPaintMs: median(values((s) => s.firstContentfulPaint)),
  };
}

/** Opens the event page in the running app; returns false when it had to be loaded fully instead. */
async function openEventOffline(page: Page, event: SeededEvent): Promise<boolean> {
  const heading = page.getByRole('heading', { level: 1, name: event.title });
  await page.evaluate(evaluateSource(SPA_NAVIGATE, `/events/${event.id}`));
  try {
    await heading.waitFor({ timeout: 5000 });
    return true;
  } catch {
    // The router did not follow (or an update reloaded the app): load the page from the service worker.
    await page.goto(`/events/${event.id}`);
    await heading.waitFor({ timeout: 10_000 });
    return false;
  }
}

/** Answers "going" on the event page; returns whether the page was reached without a full load. */
async function answerGoing(page: Page, event: SeededEvent): Promise<boolean> {
  const inApp = await openEventOffline(page, event);
  const answer = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Deine Antwort', exact: true, level: 2 }) });
  const going = answer.getByRole('button', { name: 'Zusage', exact: true });
  // The page stays mounted from one event to the next and for a moment may still show the previous
  // event's answer (going): click only once this event's own state (not going yet) is shown.
  await going.and(page.locator('[aria-pressed="false"]:not([disabled])')).waitFor({ timeout: 10_000 });
  await going.click();
  // Pressed shows at once; enabled again means the write to the device has finished.
  await going.and(page.locator('[aria-pressed="true"]:not([disabled])')).waitFor({ timeout: 10_000 });
  return inApp;
}

async function serverHasAnswers(baseUrl: string, token: string, eventIds: Set<string>): Promise<number> {
  const response = await httpRequest(`${baseUrl}/api/attendance/my`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) return 0;
  const rows = (JSON.parse(response.body.toString('utf8')) as { attendance: { event_id: string; status: string }[] }).attendance;
  return rows.filter((row) => eventIds.has(row.event_id) && row.status === 'going').length;
}

async function pollServer(input: BrowserInput, eventIds: Set<string>, start: number, timeoutMs: number): Promise<number | null> {
  while (Date.now() - start < timeoutMs) {
    if ((await serverHasAnswers(input.baseUrl, input.memberToken, eventIds)) >= eventIds.size) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

async function pollIndicatorSettled(page: Page, start: number, timeoutMs: number): Promise<number | null> {
  while (Date.now() - start < timeoutMs) {
    const text = (await page.evaluate(evaluateSource(SYNC_TEXT))) as string | null;
    if (text !== null && !/wartet|warten|Synchronisiere|Offline/.test(text)) return Date.now() - start;
    await page.waitForTimeout(50);
  }
  return null;
}

/** The admin's device: signed in, fully synced, left open on the events list. */
async function adminDevice(browser: Browser, input: BrowserInput) {
  input.log('  admin device: signing in and syncing…');
  const context = await newContext(browser, input.baseUrl);
  const { page } = await signInToFirstCard(context, input.admin, 'admin-first-card');
  const synced = await waitFullySynced(page, input.adminExpected, 90_000);
  if (synced.at === null) throw new Error(`the admin's device did not sync: ${JSON.stringify(synced.counts)}`);
  return { context, page };
}

/** Answers the events offline on the member's device; returns how many pages needed a full load. */
async function answerAllOffline(page: Page, events: SeededEvent[], log: (message: string) => void): Promise<number> {
  log(`  member device (offline): answering ${events.length} events…`);
  let fullLoads = 0;
  for (const event of events) {
    if (!(await step(page, 'offline-answer', () => answerGoing(page, event)))) fullLoads++;
  }
  return fullLoads;
}

async function queuedAnswers(browser: Browser, input: BrowserInput, memberContext: BrowserContext, memberPage: Page) {
  const admin = await adminDevice(browser, input);
  const events = input.openEvents.slice(0, input.answers);
  const fullLoads = await answerAllOffline(memberPage, events, input.log);
  await memberPage.waitForTimeout(300);
  const indicatorBeforeReconnect = (await memberPage.evaluate(evaluateSource(SYNC_TEXT))) as string | null;
  const eventIds = new Set(events.map((e) => e.id));

  const timeoutMs = 30_000;
  const start = Date.now();
  const adminRows = admin.page.evaluate(
    evaluateSource(WAIT_MEMBER_ROWS, { userId: input.member.id, eventIds: [...eventIds], sinceEpoch: start - 1000, timeoutMs }),
  ) as Promise<{ at: number | null; found: number }>;
  await memberContext.setOffline(false);
  const [serverMs, adminRowsAt, settledMs] = await Promise.all([
    pollServer(input, eventIds, start, timeoutMs),
    adminRows,
    pollIndicatorSettled(memberPage, start, timeoutMs),
  ]);
  await admin.context.close();
  return {
    answered: events.length,
    fullLoads,
    indicatorBeforeReconnect,
    serverMs,
    adminDeviceMs: adminRowsAt.at === null ? null : adminRowsAt.at - start,
    memberIndicatorSettledMs: settledMs,
  };
}

export async function benchBrowser(input: BrowserInput): Promise<BrowserFigures> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    input.log('  first sign-in on a new device…');
    const first = await firstSignIn(browser, input);
    input.log(`  warm offline start (${input.offlineRuns} runs)…`);
    const offline = await step(first.page, 'warm-offline-start', () =>
      warmOfflineStart(first.context, first.page, input.offlineRuns),
    );
    const queued = await queuedAnswers(browser, input, first.context, first.page);
    await first.context.close();
    input.log(`  first event card on ${input.firstCardRuns - 1} more new devices…`);
    const firstCards = first.figures.firstCardRunsMs;
    for (let i = 1; i < input.firstCardRuns; i++) firstCards.push(await firstCardOnly(browser, input));
    first.figures.firstCardMs = median(firstCards.filter((v): v is number => v !== null));
    return { firstSignIn: first.figures, warmOfflineStart: offline, queuedAnswers: queued };
  } finally {
    await browser.close();
  }
}
