import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * The bus in the browser (docs/product.md, Bus): a captain opens the boarding list on a 360 px phone,
 * ticks passengers without signal, and the admin sees the ticks once the captain's phone is back
 * online; the print view shows the seat numbers.
 */

const PHONE = { viewport: { width: 360, height: 740 } };
const SHOTS = process.env.E2E_SCREENSHOTS;

test('a captain ticks passengers offline at 360 px; the admin sees the ticks after the captain reconnects', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const eventId = await admin.createEvent(`${uniqueName('Freiburg ')} (A)`, daysAhead(12, '15:30'));
  const captain = await admin.registeredMember(uniqueName('kapitaen'));
  const riders = [await admin.registeredMember(uniqueName('mitfahrer')), await admin.registeredMember(uniqueName('mitfahrer'))];
  const late = await admin.registeredMember(uniqueName('absager'));
  const bus = await admin.post('/api/transports', {
    event_id: eventId,
    name: 'Bus Köpenick',
    departure_location: 'S Köpenick',
    departure_datetime: daysAhead(12, '08:00'),
    price_per_seat: 15,
  });
  const busId = bus.transport.id as string;
  await admin.put(`/api/transports/${busId}/seat-plan`, { rows: 10, seats_per_row: 4 });
  for (const [i, person] of [captain, ...riders, late].entries()) {
    const api = await Api.signIn(request, person.username, person.password);
    const answer = await api.post(`/api/attendance/${eventId}`, { status: 'going', needs_transport: true });
    const seated = await admin.put(`/api/transports/${busId}/seats/${i + 1}`, { attendee_id: answer.attendance.id });
    expect(seated.success).toBe(true);
  }
  await admin.put(`/api/transports/${busId}/captains`, { user_ids: [captain.id] });
  // The last one cancels late: still listed, struck through, not counted.
  const lateApi = await Api.signIn(request, late.username, late.password);
  await lateApi.post(`/api/attendance/${eventId}`, { status: 'going', needs_transport: false });

  const { context, page } = await memberPage(browser, captain, PHONE);
  await page.goto(`/events/${eventId}`);
  const option = page.getByRole('listitem', { name: 'Bus Köpenick' });
  await expect(option).toContainText('Sitzplan: 10 Reihen × 4 · 3 von 40 Plätzen belegt');
  await expect(option).toContainText(`Kapitäne: ${captain.username}`);
  await expect(option).toContainText('Dein Platz: 1');
  await untilServiceWorkerControls(page);
  await option.getByRole('link', { name: 'Einstiegsliste' }).click();
  await expect(page).toHaveURL(new RegExp(`/events/${eventId}/boarding/${busId}$`));
  await expect(page.getByRole('heading', { name: 'Einstieg: Bus Köpenick' })).toBeVisible();
  await expect(page.getByText('0 von 3 an Bord')).toBeVisible();
  const list = page.getByRole('list', { name: 'Mitfahrer' });
  const cancelled = list.getByRole('listitem').filter({ hasText: late.username });
  await expect(cancelled).toContainText('abgesagt');
  await expect(cancelled.locator('s')).toHaveText(late.username);

  // At the bus without signal: two ticks, kept on the phone.
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await expect(page.getByText('Ohne Verbindung: deine Haken werden gesendet')).toBeVisible();
  for (const person of riders) await page.getByRole('button', { name: `${person.username} ist an Bord` }).click();
  await expect(page.getByText('2 von 3 an Bord')).toBeVisible();
  await expect(page.getByRole('button', { name: `${riders[0]!.username} ist doch nicht an Bord` })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // Who is missing comes first; "only who is missing" leaves the captain alone.
  await expect(list.getByRole('listitem').first()).toContainText(captain.username);
  await page.getByLabel('Nur wer noch fehlt').check();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await page.getByLabel('Nur wer noch fehlt').uncheck();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/boarding-offline-de-360.png`, fullPage: true });

  // Back online: the ticks reach the server and the admin's boarding list.
  await context.setOffline(false);
  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN);
  await adminPage.goto(`/events/${eventId}/boarding/${busId}`);
  await expect(adminPage.getByText('2 von 3 an Bord')).toBeVisible({ timeout: 20_000 });
  for (const person of riders)
    await expect(adminPage.getByRole('button', { name: `${person.username} ist doch nicht an Bord` })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  await expect(adminPage.getByRole('button', { name: `${captain.username} ist an Bord` })).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  // The print view names each passenger's seat.
  await adminPage.goto(`/events/${eventId}/print`);
  const transport = adminPage.getByTestId('print-transport');
  await expect(transport.locator('tbody tr', { hasText: riders[0]!.username })).toContainText('2');
  await expect(transport.locator('tbody tr').first()).toContainText(captain.username);
  await expect(transport.locator('tbody tr').first().locator('td').first()).toContainText('1');
  await adminContext.close();
  await context.close();
});
