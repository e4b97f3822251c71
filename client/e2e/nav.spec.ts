import { USERNAME_MAX_LENGTH } from '@fankurve/shared';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, memberPage, png, signInThroughForm, uniqueName } from './support.js';

/*
 * The nav bar (docs/architecture.md, Nav bar): one row at every width, whatever the language, the
 * username, the logo and the admin's links; what does not fit folds into the menu.
 */

const WIDTHS = [360, 768, 1024, 1280, 1920];

/** What breaks the one-row bar on this page: a list of problems, empty when none. */
function rowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth}px`);
    const bar = document.querySelector('.navbar-inner')!.getBoundingClientRect();
    const middle = bar.top + bar.height / 2;
    const items = [
      ...document.querySelectorAll<HTMLElement>(
        '.navbar-inner > .brand, .sync-indicator, .sync-refusals, .nav-row a, .nav-row button, .nav > .menu-toggle',
      ),
    ];
    for (const item of items) {
      const box = item.getBoundingClientRect();
      const name = item.textContent?.trim() || item.className;
      if (box.width === 0) continue;
      if (box.left < 0 || box.right > width + 0.5) problems.push(`${name} outside the window: ${box.left}–${box.right}`);
      if (Math.abs(box.top + box.height / 2 - middle) > 4) problems.push(`${name} off the row: top ${box.top}`);
    }
    const texts = document.querySelectorAll<HTMLElement>(
      '.brand-title, .nav-row a, .nav-row button, .nav-row .nav-username, .sync-state, .sync-pending',
    );
    for (const text of texts) {
      if (text.scrollWidth > text.clientWidth + 0.5)
        problems.push(`${text.textContent} cut: ${text.scrollWidth} > ${text.clientWidth}`);
    }
    if (bar.height > 64) problems.push(`bar ${bar.height}px high`);
    return problems;
  });
}

/** What is wrong in the open menu: a cut or shared-line username, an item on more than one line. */
function menuProblems(page: Page, username: string): Promise<string[]> {
  return page.evaluate((username) => {
    const problems: string[] = [];
    const menu = document.querySelector('#main-menu')!;
    const name = menu.querySelector<HTMLElement>('.nav-username');
    if (!name) return ['no username in the menu'];
    if (name.textContent !== username) problems.push(`username reads ${name.textContent}`);
    if (name.scrollWidth > name.clientWidth + 0.5 || getComputedStyle(name).textOverflow === 'ellipsis')
      problems.push('username cut');
    const nameBox = name.getBoundingClientRect();
    if (nameBox.right > window.innerWidth) problems.push('username outside the window');
    for (const item of menu.querySelectorAll<HTMLElement>('.nav-links a, .nav-user .button')) {
      const box = item.getBoundingClientRect();
      if (box.top < nameBox.bottom && box.bottom > nameBox.top) problems.push(`${item.textContent} beside the username`);
      const range = document.createRange();
      range.selectNodeContents(item);
      // One line: every box of its text and badge overlaps the others vertically.
      const rects = [...range.getClientRects()].filter((rect) => rect.height > 0);
      const top = Math.max(...rects.map((rect) => rect.top));
      const bottom = Math.min(...rects.map((rect) => rect.bottom));
      if (top >= bottom) problems.push(`${item.textContent} on more than one line`);
    }
    return problems;
  }, username);
}

test.afterAll(async ({ request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  await request.delete('/api/config/logo', { headers: { authorization: `Bearer ${admin.token}` } });
});

test('an admin with a logo and the longest username: one row at 360–1920 px in German and English, the logout reachable', async ({
  browser,
  request,
}, testInfo) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const logo = await request.post('/api/config/logo', {
    headers: { authorization: `Bearer ${admin.token}` },
    multipart: { logo: { name: 'wappen.png', mimeType: 'image/png', buffer: png(160, 160, [200, 16, 46]) } },
  });
  expect(logo.ok()).toBe(true);
  const prefix = uniqueName('Lang ');
  const longName = `${prefix} ${'Wuhlesyndikat Köpenick Fanclub'.repeat(2)}`.slice(0, USERNAME_MAX_LENGTH).trim();
  const long = { username: longName, password: 'fan-pass' };
  const registered = await request.post('/api/auth/register', {
    data: { ...long, email: `${uniqueName('lang')}@example.org` },
  });
  const { user } = await registered.json();
  await admin.put(`/api/auth/users/${user.id}/approve`);
  await admin.put(`/api/auth/users/${user.id}`, { scope: 'admin' });
  const longApi = await Api.signIn(request, long.username, long.password);
  expect([...long.username]).toHaveLength(USERNAME_MAX_LENGTH);
  // A waiting registration: the tasks link carries its red count.
  const waiting = uniqueName('wartend');
  await request.post('/api/auth/register', {
    data: { username: waiting, email: `${waiting}@example.org`, password: 'fan-pass' },
  });

  for (const language of ['de', 'en'] as const) {
    const logout = language === 'de' ? 'Abmelden' : 'Log out';
    const menu = language === 'de' ? 'Menü' : 'Menu';
    await longApi.put(`/api/auth/users/${user.id}`, { language: 'de' });
    const { context, page } = await memberPage(browser, long, { viewport: { width: 1920, height: 900 } });
    await longApi.put(`/api/auth/users/${user.id}`, { language });
    await page.reload();
    await expect(page.getByRole('heading', { name: language === 'de' ? 'Termine' : 'Events', level: 1 })).toBeVisible();
    const nav = page.getByRole('navigation', { name: language === 'de' ? 'Hauptnavigation' : 'Main navigation' });
    await expect(page.locator('header.navbar .brand-logo')).toBeVisible();
    await expect(nav.getByRole('link', { name: /Aufgaben|Tasks/ })).toHaveCount(1);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => rowProblems(page), { message: `${language} ${width}px` }).toEqual([]);
      await page.screenshot({
        path: testInfo.outputPath(`nav-${language}-${width}.png`),
        clip: { x: 0, y: 0, width, height: 80 },
      });
      const toggle = nav.getByRole('button', { name: menu, exact: true });
      if (await toggle.isVisible()) {
        await toggle.click();
        const button = page.locator('#main-menu').getByRole('button', { name: logout });
        await expect(button).toBeInViewport({ ratio: 1 });
        // The name in full on its own line (wrapped, never cut), every other item on one line.
        expect(await menuProblems(page, long.username), `${language} ${width}px menu`).toEqual([]);
        await page.screenshot({ path: testInfo.outputPath(`nav-${language}-${width}-menu.png`) });
        await page.keyboard.press('Escape');
        await expect(button).toBeHidden();
      } else {
        await expect(nav.getByRole('button', { name: logout })).toBeInViewport({ ratio: 1 });
      }
    }
    // The room is used: a wide screen shows all seven links in the row (in German the long name waits in the menu).
    await page.setViewportSize({ width: 1920, height: 800 });
    await expect(page.locator('.nav-row .nav-links a')).toHaveCount(7);
    await context.close();
  }
});

test('a reload at the same width starts from the row fitted last: it is not fitted again', async ({ page, request }) => {
  // A new member: no badge arrives during the load to change the items' widths (that does re-fit the row).
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('Reihe'));
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughForm(page, member.username, member.password);
  await expect(page.locator('.nav-row .nav-links a').first()).toBeVisible();
  // Every time a row is found not to fit (and hidden until the fitted one is rendered), counted from the page's start.
  await page.addInitScript(() => {
    const refits = { count: 0 };
    (window as unknown as { navRefits: typeof refits }).navRefits = refits;
    new MutationObserver((records) => {
      for (const record of records)
        if (record.target instanceof Element && record.target.classList.contains('nav-fitting')) refits.count++;
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  await page.reload();
  const links = page.locator('.nav-row .nav-links a');
  await expect(links.first()).toBeVisible();
  await expect.poll(() => rowProblems(page)).toEqual([]);
  const fitted = await links.count();
  expect(fitted).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { navRefits: { count: number } }).navRefits.count)).toBe(0);

  // Another width is fitted again, and the row that did not fit is hidden meanwhile.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect.poll(() => rowProblems(page)).toEqual([]);
  await expect(page.locator('.nav-fitting')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { navRefits: { count: number } }).navRefits.count)).toBeGreaterThan(0);
  expect(await links.count()).toBeLessThan(fitted);
});
