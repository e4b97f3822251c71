import { expect, test, type Page, type Worker } from '@playwright/test';
import { ADMIN, signInThroughForm } from './support.js';

/*
 * The browser's date and number data load on a thread of their own while the app's code loads
 * (docs/architecture.md, Loading): shell.js starts /intl-warmup.js, which closes itself when done.
 */

/** The URL of the warm-up worker the next page load starts, once it has closed itself. */
async function warmupOfNextLoad(page: Page, load: () => Promise<unknown>): Promise<string> {
  const closed = new Promise<string>((resolve) => {
    const onWorker = (worker: Worker) => {
      if (!worker.url().endsWith('/intl-warmup.js')) return;
      page.off('worker', onWorker);
      worker.on('close', () => resolve(worker.url()));
    };
    page.on('worker', onWorker);
  });
  await load();
  return closed;
}

test('every start loads the date and number data on a thread that closes itself, also with a broken cached time zone', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  expect(await warmupOfNextLoad(page, () => page.reload())).toMatch(/\/intl-warmup\.js$/);

  // A cached time zone the browser does not know: the warm-up still finishes, the app takes its default.
  await page.evaluate(() => {
    const config = JSON.parse(localStorage.getItem('siteConfig') ?? '{}') as Record<string, unknown>;
    localStorage.setItem('siteConfig', JSON.stringify({ ...config, time_zone: 'Mars/Olympus_Mons' }));
  });
  await warmupOfNextLoad(page, () => page.reload());
  await expect(page.getByRole('heading', { name: 'Termine', level: 1 })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a start skips checking the cached time zone this browser checked before; a changed one is checked again', async ({
  page,
}) => {
  // Every check of a zone alone ('en' with nothing but the zone), as the configuration makes it.
  await page.addInitScript(() => {
    const checked: string[] = [];
    (window as unknown as { zonesChecked: string[] }).zonesChecked = checked;
    const Original = Intl.DateTimeFormat;
    Intl.DateTimeFormat = function (locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
      if (locales === 'en' && options && Object.keys(options).join() === 'timeZone') checked.push(String(options.timeZone));
      return new Original(locales, options);
    } as unknown as typeof Intl.DateTimeFormat;
    // Its statics (supportedLocalesOf) and instanceof stay the original's.
    Object.setPrototypeOf(Intl.DateTimeFormat, Original);
    Object.defineProperty(Intl.DateTimeFormat, 'prototype', { value: Original.prototype });
  });
  const zonesChecked = () => page.evaluate(() => (window as unknown as { zonesChecked: string[] }).zonesChecked);
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'Termine', level: 1 })).toBeVisible();
  const cached = await page.evaluate(() => JSON.parse(localStorage.getItem('siteConfig') ?? '{}') as Record<string, string>);
  expect(cached.zone_checked).toBe(`${cached.time_zone} in ${await page.evaluate(() => navigator.userAgent)}`);

  // The server's answer names the same zone: no check either.
  const configAnswered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/config');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Termine', level: 1 })).toBeVisible();
  await (await configAnswered).finished();
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  expect(await zonesChecked()).toEqual([]);

  await page.evaluate(() => {
    const config = JSON.parse(localStorage.getItem('siteConfig') ?? '{}') as Record<string, unknown>;
    localStorage.setItem('siteConfig', JSON.stringify({ ...config, time_zone: 'Mars/Olympus_Mons' }));
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Termine', level: 1 })).toBeVisible();
  expect(await zonesChecked()).toContain('Mars/Olympus_Mons');
});
