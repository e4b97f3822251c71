import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, signInThroughForm, uniqueName, untilServiceWorkerControls } from './support.js';

interface Violation {
  directive: string;
  blocked: string;
  source: string;
  sample: string;
}

/** Parses a Content-Security-Policy header into directive → sources. */
function directives(header: string): Map<string, string[]> {
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

test('the app runs under its Content-Security-Policy without a single violation, online and offline', async ({
  page,
  context,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('CSP')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(9));

  // Every violation of every page load: recorded on window by an init script (before any page script
  // runs) and reported to the test as well, so that none is lost to a reload.
  const violations: Violation[] = [];
  await page.exposeFunction('reportCspViolation', (violation: Violation) => void violations.push(violation));
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { cspViolations: unknown[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      const violation = {
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
        sample: event.sample,
      };
      seen.push(violation);
      void (window as unknown as { reportCspViolation?: (v: unknown) => Promise<void> }).reportCspViolation?.(violation);
    });
  });
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) cspErrors.push(message.text());
  });
  const recorded = () => page.evaluate(() => (window as unknown as { cspViolations: Violation[] }).cspViolations);

  // The login page: the document itself carries the policy.
  const documentResponse = await page.goto('/login');
  const header = documentResponse!.headers()['content-security-policy'];
  expect(header).toBeTruthy();
  const policy = directives(header!);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(header).not.toMatch(/unsafe-inline|unsafe-eval/);
  await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
  // No inline script in the document: the shell's bootstrap is a file (/shell.js).
  await expect(page.locator('script:not([src])')).toHaveCount(0);

  // An admin signs in; the events list and an event's detail page show.
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await expect(eventCard(page, title)).toBeVisible();
  await eventCard(page, title).getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/events/${eventId}$`));
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  expect(await recorded()).toEqual([]);

  // The service worker registers and controls the page.
  await untilServiceWorkerControls(page);
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);

  // Offline, the reload is answered by the service worker, which keeps the policy of the precached shell.
  await page.goto('/events');
  await expect(eventCard(page, title)).toBeVisible();
  await context.setOffline(true);
  // A club colour and title as a later configuration would set them (set offline, so that no refresh
  // from the server replaces them): the shell script paints them and the app sets its CSS variables
  // through the CSSOM; the policy must allow both.
  await page.evaluate(() =>
    localStorage.setItem(
      'siteConfig',
      JSON.stringify({ site_title: 'CSP Club', theme_color: '#aa0000', logo_filename: null, time_zone: 'Europe/Berlin' }),
    ),
  );
  const offlineResponse = await page.reload();
  expect(offlineResponse!.headers()['content-security-policy']).toBe(header);
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
  await expect(eventCard(page, title)).toBeVisible();
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--theme').trim())).toBe(
    '#aa0000',
  );
  await expect(page).toHaveTitle('CSP Club');
  expect(await recorded()).toEqual([]);
  expect(violations).toEqual([]);
  expect(cspErrors).toEqual([]);

  // The control: the policy is in force on the offline page, and the listener sees a violation.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true;';
    document.body.append(script);
  });
  await expect.poll(() => violations.map((v) => v.directive)).toEqual(['script-src-elem']);
  expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
  await context.setOffline(false);
});
