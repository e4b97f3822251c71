import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * Rides in the browser (docs/product.md, Rides): a member offers a ride offline on the event's page
 * of a 360 px phone and it lands when the connection returns; another member sees it on the page;
 * the driver changes it, and an admin removes it online.
 */

const PHONE = { viewport: { width: 360, height: 740 } };
const SHOTS = process.env.E2E_SCREENSHOTS;

/** The serious and critical accessibility violations of the rides as they are now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('.rides').analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

interface RestRide {
  id: string;
  driver_username: string;
  seats: number;
  departure_location: string;
  departure_datetime: string;
  drives_back: boolean;
  note: string | null;
  cost_share_cents: number | null;
}

test('a member offers a ride offline; it syncs and another member sees it; the driver changes it, an admin removes it', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const eventId = await admin.createEvent(`${uniqueName('Bochum ')} (A)`, daysAhead(10, '15:30'));
  const driver = await admin.registeredMember(uniqueName('driver'));
  const rider = await admin.registeredMember(uniqueName('rider'));
  const ridesOnServer = async () => ((await admin.get(`/api/events/${eventId}/rides`)) as { rides: RestRide[] }).rides;

  const { context, page } = await memberPage(browser, driver, PHONE);
  await page.goto(`/events/${eventId}`);
  const section = page.getByRole('region', { name: 'Mitfahrgelegenheiten' });
  await expect(section).toContainText('Noch bietet niemand eine Mitfahrgelegenheit an.');

  // Offline: the ride is offered on the device and waits.
  await untilServiceWorkerControls(page);
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: 'Mitfahrgelegenheit anbieten' }).click();
  const form = page.getByRole('dialog', { name: 'Mitfahrgelegenheit anbieten' });
  await expect(form).toContainText('Ohne Verbindung wird die Mitfahrgelegenheit auf dem Gerät gespeichert');
  await form.getByLabel('Freie Plätze').selectOption('3');
  await form.getByLabel('Abfahrtsort').fill('  Hauptbahnhof, Gleis 4 ');
  // After the kick-off: refused on the device by the shared rule, under the field.
  await form.getByLabel('Abfahrt', { exact: true }).fill(daysAhead(10, '16:00').replace(' ', 'T'));
  await form.getByRole('button', { name: 'Anbieten' }).click();
  await expect(form).toContainText('Die Fahrt muss vor Beginn des Termins losgehen');
  await form.getByLabel('Abfahrt', { exact: true }).fill(daysAhead(10, '09:40').replace(' ', 'T'));
  await form.getByLabel('Vorgeschlagener Kostenanteil pro Platz').fill('12,5');
  await form.getByLabel('Hinweis').fill('Treffpunkt am Parkplatz P2');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/rides-form-de-360.png` });
  await form.getByRole('button', { name: 'Anbieten' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByText('Mitfahrgelegenheit gespeichert – sie wird gesendet, sobald du online bist')).toBeVisible();
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();
  const own = section.getByRole('article', { name: new RegExp(`^${driver.username}`) });
  await expect(own).toContainText('deine');
  await expect(own).toContainText('3 Plätze');
  await expect(own).toContainText('Hauptbahnhof, Gleis 4');
  await expect(own).toContainText('09:40');
  await expect(own).toContainText('Rückfahrtja');
  await expect(own).toContainText('12,50 € pro Platz (Vorschlag)');
  await expect(own).toContainText('Treffpunkt am Parkplatz P2');
  expect(await ridesOnServer()).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/rides-offline-de-360.png`, fullPage: true });

  // Back online: the ride lands.
  await context.setOffline(false);
  await expect.poll(async () => (await ridesOnServer()).length, { timeout: 15_000 }).toBe(1);
  const [stored] = await ridesOnServer();
  expect(stored).toMatchObject({
    driver_username: driver.username,
    seats: 3,
    departure_location: 'Hauptbahnhof, Gleis 4',
    departure_datetime: `${daysAhead(10, '09:40')}:00`,
    drives_back: true,
    note: 'Treffpunkt am Parkplatz P2',
    cost_share_cents: 1250,
  });
  await expect(page.getByText('1 Änderung wartet')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // Another member (another browser, a desktop) sees it on the event's page, without the driver's buttons.
  const { context: riderContext, page: riderPage } = await memberPage(browser, rider);
  await riderPage.goto(`/events/${eventId}`);
  const seen = riderPage.getByRole('region', { name: 'Mitfahrgelegenheiten' }).getByRole('article', { name: driver.username });
  await expect(seen).toContainText('3 Plätze');
  await expect(seen).toContainText('Hauptbahnhof, Gleis 4');
  await expect(seen).toContainText('12,50 € pro Platz (Vorschlag)');
  await expect(seen).not.toContainText('deine');
  // Only the ask for a seat (docs/product.md, Rides; client/e2e/ride-seats.spec.ts), none of the driver's buttons.
  await expect(seen.getByRole('button')).toHaveText([/^Platz anfragen/]);
  if (SHOTS) await riderPage.screenshot({ path: `${SHOTS}/rides-desktop-de.png`, fullPage: true });

  // The driver changes the seats; the other member's open page follows.
  await own.getByRole('button', { name: /^Ändern/ }).click();
  const edit = page.getByRole('dialog', { name: 'Mitfahrgelegenheit ändern' });
  await expect(edit.getByLabel('Abfahrtsort')).toHaveValue('Hauptbahnhof, Gleis 4');
  await expect(edit.getByLabel('Vorgeschlagener Kostenanteil pro Platz')).toHaveValue('12.50');
  await edit.getByLabel('Freie Plätze').selectOption('2');
  await edit.getByLabel('Ich fahre auch zurück').uncheck();
  await edit.getByRole('button', { name: 'Speichern' }).click();
  await expect(edit).toHaveCount(0);
  // The server first, so a failure says which side did not move: the driver's push or the other member's pull.
  await expect.poll(async () => (await ridesOnServer())[0]?.seats, { timeout: 15_000 }).toBe(2);
  await expect(seen).toContainText('2 Plätze', { timeout: 15_000 });
  await expect(seen).toContainText('Rückfahrtnein');

  // An admin removes it (online), after a confirmation; it goes from every page.
  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN);
  await adminPage.goto(`/events/${eventId}`);
  const removing = adminPage.getByRole('article', { name: driver.username });
  await removing.getByRole('button', { name: /^Entfernen/ }).click();
  const confirm = adminPage.getByRole('dialog', { name: 'Mitfahrgelegenheit entfernen?' });
  await expect(confirm).toContainText(`Die Fahrt von ${driver.username} ab Hauptbahnhof, Gleis 4`);
  await confirm.getByRole('button', { name: 'Entfernen' }).click();
  await expect(adminPage.getByText('Mitfahrgelegenheit entfernt')).toBeVisible();
  await expect.poll(async () => (await ridesOnServer()).length).toBe(0);
  await expect(riderPage.getByRole('region', { name: 'Mitfahrgelegenheiten' })).toContainText(
    'Noch bietet niemand eine Mitfahrgelegenheit an.',
    { timeout: 15_000 },
  );
  await expect(own).toHaveCount(0, { timeout: 15_000 });

  await adminContext.close();
  await riderContext.close();
  await context.close();
});
