import { expect, test } from '@playwright/test';
import { ADMIN, signInThroughForm } from './support.js';

// Without the service worker, so that each start screen's links come from the page itself.
test.use({ serviceWorkers: 'block' });

/**
 * The shell's code is one script and the bundler's runtime (docs/architecture.md, Loading): every
 * module the entry imports statically is in the entry's chunk, so the first load starts two script
 * requests, not a dozen small ones (each costs the main thread a few milliseconds on a phone). A
 * screen's chunk is asked for without a preload link for each module it imports: the browser finds
 * them in the chunk (from the service worker's cache), only its style sheets are linked.
 */
test("the first load asks for the shell's code in one script and the bundler's runtime", async ({ page, request }) => {
  const html = await (await request.get('/login')).text();
  const entries = [...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g)].map((match) => match[1]);
  const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]);
  expect(entries).toHaveLength(1);
  expect(preloads.length).toBeLessThanOrEqual(1);

  // The entry imports nothing beyond what the page already asked for.
  const entry = await (await request.get(entries[0]!)).text();
  const staticImports = [...entry.matchAll(/(?:^|[;}])\s*import\s*(?:[\w$*{},\s]+from\s*)?["'`](\.\/[^"'`]+)["'`]/g)].map(
    (match) => new URL(match[1]!, new URL(entries[0]!, 'http://x')).pathname,
  );
  expect(staticImports.every((path) => preloads.includes(path))).toBe(true);

  // Signed in, on screens with many shared modules: only style sheets were linked for them.
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/users');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/debts');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const linked = await page.evaluate(() =>
    [...document.querySelectorAll('link[rel="modulepreload"]')].map((link) => new URL((link as HTMLLinkElement).href).pathname),
  );
  expect(linked.every((path) => preloads.includes(path))).toBe(true);
  expect(await page.locator('link[rel="stylesheet"]').count()).toBeGreaterThan(1);
});
