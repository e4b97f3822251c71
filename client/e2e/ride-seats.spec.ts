import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * Seats in rides in the browser (docs/product.md, Rides): a member asks for seats offline on the
 * event's page of a 360 px phone and the ask lands when the connection returns; the driver (desktop)
 * sees it with the passenger's name and accepts it; both pages show it, and /my-tickets lists the ride.
 */

const PHONE = { viewport: { width: 360, height: 740 } };
const SHOTS = process.env.E2E_SCREENSHOTS;

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('.rides').analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

interface RestRide {
  id: string;
  seats: number;
  seats_taken: number;
}

test('a member asks for seats offline; it lands after reconnecting; the driver accepts; both see it', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Bochum ')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(10, '15:30'));
  const driver = await admin.registeredMember(uniqueName('driver'));
  const passenger = await admin.registeredMember(uniqueName('passenger'));
  const driverApi = await Api.signIn(request, driver.username, driver.password);
  const offered = await driverApi.post(`/api/events/${eventId}/rides`, {
    seats: 3,
    departure_location: 'Hauptbahnhof',
    departure_datetime: daysAhead(10, '09:40'),
  });
  const rideId = offered.ride.id as string;
  const rideOnServer = async () =>
    ((await admin.get(`/api/events/${eventId}/rides`)) as { rides: RestRide[] }).rides.find((ride) => ride.id === rideId)!;

  // The passenger's phone, offline: the ask is made on the device and waits.
  const { context, page } = await memberPage(browser, passenger, PHONE);
  await page.goto(`/events/${eventId}`);
  const ride = page.getByRole('region', { name: 'Mitfahrgelegenheiten' }).getByRole('article', { name: driver.username });
  await expect(ride).toContainText('3 von 3 Plätzen frei');
  await untilServiceWorkerControls(page);
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await ride.getByRole('button', { name: /^Platz anfragen/ }).click();
  const form = page.getByRole('dialog', { name: `Platz bei ${driver.username} anfragen` });
  await expect(form).toContainText('Ohne Verbindung wird die Anfrage auf diesem Gerät gespeichert');
  await form.getByLabel('Plätze').selectOption('2');
  await form.getByLabel('Notiz für den Fahrer').fill('Mit Fahne');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await form.getByRole('button', { name: 'Anfragen' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByText('Platz angefragt – die Anfrage wird gesendet, sobald du online bist')).toBeVisible();
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();
  await expect(ride).toContainText('1 von 3 Plätzen frei');
  await expect(ride).toContainText('Deine Anfrage: 2 Plätze');
  await expect(ride).toContainText('angefragt');
  expect(await rideOnServer()).toMatchObject({ seats_taken: 0 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/ride-seats-offline-de-360.png`, fullPage: true });

  // Back online: the ask lands and holds two seats on the server.
  await context.setOffline(false);
  await expect.poll(async () => (await rideOnServer()).seats_taken, { timeout: 15_000 }).toBe(2);
  await expect(page.getByText('1 Änderung wartet')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // The driver (a desktop) sees the ask with the passenger's name and note, and accepts it.
  const { context: driverContext, page: driverPage } = await memberPage(browser, driver);
  await driverPage.goto(`/events/${eventId}`);
  const own = driverPage.getByRole('region', { name: 'Mitfahrgelegenheiten' }).getByRole('article', { name: driver.username });
  await expect(own).toContainText('1 von 3 Plätzen frei');
  const asks = own.getByRole('listitem').filter({ hasText: passenger.username });
  await expect(asks).toContainText('2 Plätze');
  await expect(asks).toContainText('Mit Fahne');
  await expect(asks).toContainText('angefragt');
  await asks.getByRole('button', { name: new RegExp(`^Annehmen ${passenger.username}`) }).click();
  await expect(driverPage.getByText(`${passenger.username} fährt mit`)).toBeVisible();
  await expect(asks).toContainText('angenommen');
  expect(await seriousViolations(driverPage)).toEqual([]);
  if (SHOTS) await driverPage.screenshot({ path: `${SHOTS}/ride-seats-driver-de.png`, fullPage: true });

  // The passenger's open page follows; /my-tickets lists the ride with its driver and state.
  await expect(ride).toContainText('angenommen', { timeout: 15_000 });
  await page.goto('/my-tickets');
  const mine = page.getByRole('region', { name: /^Meine Mitfahrgelegenheiten/ });
  await expect(mine).toContainText(title);
  await expect(mine).toContainText('Ich fahre mit');
  await expect(mine).toContainText(`Fahrer: ${driver.username}`);
  await expect(mine).toContainText('angenommen');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await driverPage.goto('/my-tickets');
  const drives = driverPage.getByRole('region', { name: /^Meine Mitfahrgelegenheiten/ });
  await expect(drives).toContainText('Ich fahre');
  await expect(drives).toContainText('1 von 3 Plätzen frei');

  await driverContext.close();
  await context.close();
});
