import { expect, test, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { ADMIN, signInThroughForm, uniqueName } from './support.js';

/**
 * Invites (docs/architecture.md, Invites): an admin on a phone makes a link with its QR code on
 * /admin/invites; a new person opens the link on another device, sees that they are invited,
 * registers and is signed in at once; the admin then sees them under the invite. A link that no
 * longer works says why instead of offering the form.
 */

const PHONE = { width: 360, height: 800 };

/** The link the QR code on the page holds, read back from its pixels as a phone's camera would. */
async function decodeQr(page: Page): Promise<string> {
  const shot = PNG.sync.read(await page.getByTestId('invite-qr').first().screenshot());
  const code = jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height);
  expect(code, 'the QR code decodes').not.toBeNull();
  return code!.data;
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test('an admin invites at 360 px; the newcomer registers through the link and is in at once', async ({ browser }) => {
  const adminContext = await browser.newContext({ viewport: PHONE });
  const admin = await adminContext.newPage();
  await signInThroughForm(admin, ADMIN.username, ADMIN.password);

  // From /users to the invites' page (the menu holds /users on a phone).
  await admin.goto('/users');
  await admin.getByRole('link', { name: 'Einladungen' }).click();
  await expect(admin).toHaveURL(/\/admin\/invites$/);
  await expect(admin.getByRole('heading', { name: 'Einladungen', level: 1 })).toBeVisible();

  // A wrong number says so before anything is sent.
  await admin.getByLabel('Registrierungen').fill('0');
  await admin.getByRole('button', { name: 'Einladung erstellen' }).click();
  await expect(admin.getByText('Eine Einladung erlaubt eine ganze Zahl von 1 bis 1000 Registrierungen')).toBeVisible();

  await admin.getByLabel('Registrierungen').fill('2');
  await admin.getByLabel('Sofort freischalten').check();
  await admin.getByRole('button', { name: 'Einladung erstellen' }).click();
  await expect(admin.getByText('Einladung erstellt')).toBeVisible();
  const card = admin.getByTestId('invite-card').first();
  await expect(card).toContainText('Aktiv');
  await expect(card).toContainText('0 von 2 Registrierungen');
  await expect(card).toContainText('Sofort freigeschaltet');
  const url = await card.getByTestId('invite-url').inputValue();
  expect(url).toMatch(/\/register\?invite=[\w-]{43}$/);
  // The QR code carries the same link, and nothing on the page scrolls sideways.
  await expect(card.getByTestId('invite-qr')).toBeVisible();
  expect(await decodeQr(admin)).toBe(url);
  expect(await noSidewaysScroll(admin)).toBeLessThanOrEqual(PHONE.width);

  // The newcomer's own device: a fresh browser, nobody signed in, in English.
  const newcomerContext = await browser.newContext({ viewport: PHONE });
  const newcomer = await newcomerContext.newPage();
  await newcomer.goto(url);
  await newcomer.getByLabel('Sprache').selectOption('en');
  await expect(newcomer.getByTestId('invite-state')).toContainText('You are invited to join');
  await expect(newcomer.getByTestId('invite-state')).toContainText('Once registered, you are in at once.');
  const username = uniqueName('neu');
  await newcomer.getByLabel('Username', { exact: true }).fill(username);
  await newcomer.getByLabel('Email', { exact: true }).fill(`${username}@example.org`);
  await newcomer.getByLabel('Password', { exact: true }).fill('newcomer-pass');
  await newcomer.getByRole('button', { name: 'Register' }).click();
  // Signed in at once: the events, no waiting for approval.
  await expect(newcomer).toHaveURL(/\/events$/);
  await expect(newcomer.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();
  expect(await noSidewaysScroll(newcomer)).toBeLessThanOrEqual(PHONE.width);

  // The admin sees them under the invite.
  await admin.reload();
  const updated = admin.getByTestId('invite-card').filter({ has: admin.locator(`input[value="${url}"]`) });
  await expect(updated).toContainText('1 von 2 Registrierungen');
  await expect(updated.getByTestId('invite-members')).toContainText(username);

  // Withdrawn, the link says so on the newcomer's side and offers no form.
  await updated.getByRole('button', { name: 'Zurückziehen' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Zurückziehen' }).click();
  await expect(admin.getByText('Einladung zurückgezogen')).toBeVisible();
  await expect(admin.getByTestId('invite-card').filter({ hasText: username })).toContainText('Zurückgezogen');
  const lateContext = await browser.newContext({ viewport: PHONE });
  const late = await lateContext.newPage();
  await late.goto(url);
  await expect(late.getByTestId('invite-state')).toHaveText(
    'Diese Einladung wurde zurückgezogen. Bitte den Verein um einen neuen Link.',
  );
  await expect(late.getByRole('button', { name: 'Registrieren' })).toHaveCount(0);
  await late.getByRole('link', { name: 'Ohne Einladung registrieren' }).click();
  await expect(late.getByRole('button', { name: 'Registrieren' })).toBeVisible();

  await Promise.all([adminContext.close(), newcomerContext.close(), lateContext.close()]);
});

test('a link that is no invite says so on a desktop too', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/register?invite=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByTestId('invite-state')).toHaveText(
    'Dieser Einladungslink ist ungültig. Bitte prüfe den Link oder bitte den Verein um einen neuen.',
  );
  await page.getByLabel('Sprache').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Register', level: 1 })).toBeVisible();
});
