import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { paymentCodeOf } from '@fankurve/shared/rules/paymentCode';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { ADMIN, Api, daysAhead, memberPage, uniqueName, untilServiceWorkerControls } from './support.js';

/**
 * The GiroCode (docs/architecture.md, Club account and GiroCode): a member who owes money sees the
 * EPC QR code on /my-tickets, drawn on the device from the cached club account, also offline. The
 * test reads the code back from a screenshot with a QR decoder, as a banking app would.
 */

const ACCOUNT = { account_holder: 'Eiserne Fans e. V.', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' };

/** The EPC payload the code on the page holds (decoded from its pixels; UTF-8 bytes). */
async function decodeGiroCode(page: Page): Promise<string[]> {
  const shot = PNG.sync.read(await page.getByTestId('giro-code-qr').screenshot());
  const code = jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height);
  expect(code, 'the QR code decodes').not.toBeNull();
  return Buffer.from(code!.binaryData).toString('utf8').split('\n');
}

test.describe('GiroCode', () => {
  let teamFields: Record<string, unknown> = {};

  /** The admin's API for this test, with the club's account configured. */
  async function adminWithAccount(request: APIRequestContext): Promise<Api> {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const { config } = await admin.get('/api/config');
    teamFields = {
      team_id: config.team_id,
      team_name: config.team_name,
      site_title: config.site_title,
      theme_color: config.theme_color,
    };
    await admin.put('/api/config', { ...teamFields, ...ACCOUNT });
    return admin;
  }

  test.afterAll(async ({ playwright }) => {
    // Other specs see the club without an account, as before.
    if (Object.keys(teamFields).length === 0) return;
    const request = await playwright.request.newContext({ baseURL: `http://localhost:${process.env.E2E_PORT}` });
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    await admin.put('/api/config', { ...teamFields, account_holder: null, iban: null, bic: null, loyalty_seasons: null });
    await request.dispose();
  });

  test("a member with a debt sees a code that decodes to their amount and the club's IBAN, also offline", async ({
    browser,
    request,
  }) => {
    const admin = await adminWithAccount(request);
    const member = await admin.registeredMember(uniqueName('giro'));
    const memberApi = await Api.signIn(request, member.username, member.password);
    const title = uniqueName('Hertha ') + ' (A)';
    const date = daysAhead(12);
    const eventId = await admin.createEvent(title, date);
    const attendance = await memberApi.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true });
    await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 23.4 });

    // A big device pixel ratio gives the decoder crisp modules.
    const { context, page } = await memberPage(browser, member, { deviceScaleFactor: 2, viewport: { width: 360, height: 800 } });
    await page.goto('/my-tickets');
    const card = page.getByTestId('giro-code');
    await expect(card).toBeVisible();
    await expect(card.getByRole('heading', { name: 'Mit der Banking-App bezahlen' })).toBeVisible();
    await expect(card.getByTestId('giro-code-iban')).toHaveText('DE89 3704 0044 0532 0130 00');
    await expect(card).toContainText('23,40 €');
    await expect(card).toContainText('Eiserne Fans e. V.');

    const lines = await decodeGiroCode(page);
    expect(lines.slice(0, 8)).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      'COBADEFFXXX',
      'Eiserne Fans e. V.',
      'DE89370400440532013000',
      'EUR23.4',
    ]);
    // No purpose, no structured reference; the reference starts with the member's payment code and
    // names them and the ticket (day and month).
    const code = paymentCodeOf(member.id);
    expect(lines.slice(8)).toEqual(['', '', `${code} ${member.username}: ${title} ${date.slice(8, 10)}.${date.slice(5, 7)}.`]);
    // Nothing overflows at 360 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // Offline, the app starts from the service worker and draws the same code from the cached account.
    await untilServiceWorkerControls(page);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('giro-code')).toBeVisible();
    expect((await decodeGiroCode(page)).slice(4, 8)).toEqual([
      'COBADEFFXXX',
      'Eiserne Fans e. V.',
      'DE89370400440532013000',
      'EUR23.4',
    ]);
    await context.close();
  });

  test('a member who owes nothing sees no code', async ({ browser, request }) => {
    const admin = await adminWithAccount(request);
    const member = await admin.registeredMember(uniqueName('giro-free'));
    const { context, page } = await memberPage(browser, member);
    await page.goto('/my-tickets');
    await expect(page.getByTestId('ledger-balance')).toBeVisible();
    await expect(page.getByTestId('giro-code')).toHaveCount(0);
    await context.close();
  });

  test("the admin enters the club's account in the team configuration, checked like on the server", async ({
    browser,
    request,
  }) => {
    await adminWithAccount(request);
    const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 800 } });
    await page.goto('/config');
    const iban = page.getByLabel('IBAN');
    await expect(iban).toHaveValue('DE89 3704 0044 0532 0130 00');
    await expect(page.getByLabel('Kontoinhaber')).toHaveValue('Eiserne Fans e. V.');
    await expect(page.getByLabel('Gezählte Saisons')).toHaveValue('2');

    // A wrong check digit is refused on the device with the server's words, and nothing is sent.
    await iban.fill('DE89 3704 0044 0532 0130 01');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Bitte gib eine gültige IBAN eines SEPA-Landes ein')).toBeVisible();
    await expect(iban).toBeFocused();

    await iban.fill('gb33 bukb 2020 1555 5555 55');
    await page.getByLabel('BIC (optional)').fill('');
    await page.getByLabel('Gezählte Saisons').fill('3');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Konfiguration gespeichert' })).toBeVisible();
    await expect(iban).toHaveValue('GB33 BUKB 2020 1555 5555 55');
    const { config } = await (await Api.signIn(request, ADMIN.username, ADMIN.password)).get('/api/config');
    expect(config).toMatchObject({
      iban: 'GB33BUKB20201555555555',
      bic: null,
      account_holder: 'Eiserne Fans e. V.',
      loyalty_seasons: 3,
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });
});
