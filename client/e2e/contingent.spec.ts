import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/*
 * The ticket contingent on the event page (docs/product.md, Ticket contingents): the admin sets it
 * up at 360 px (bad input said at the field), pins a request, allocates in one click; a member sees
 * their place in English on a desktop, another returns their ticket and the first in line is offered
 * it at once.
 */

const PHONE = { viewport: { width: 360, height: 740 } };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const SHOTS = process.env.E2E_SCREENSHOTS;

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('.contingent').analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

test('an admin sets up a contingent at 360 px and allocates it by loyalty; members see their place and pass a ticket on', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Bremen')} (A)`;
  const eventDate = daysAhead(20, '18:30');
  const eventId = await admin.createEvent(title, eventDate);
  const fans: { login: { username: string; password: string }; api: Api; id: string }[] = [];
  for (const points of [5, 10, 0]) {
    const login = await admin.registeredMember(uniqueName('treu'));
    const api = await Api.signIn(request, login.username, login.password);
    const { user } = await api.get('/api/auth/profile');
    await admin.put(`/api/loyalty/${user.id}/adjustment`, { points, note: 'E2E' });
    await api.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true });
    fans.push({ login, api, id: user.id });
  }
  const [five, ten, zero] = fans as [(typeof fans)[0], (typeof fans)[0], (typeof fans)[0]];

  const { context: adminContext, page } = await memberPage(browser, ADMIN, PHONE);
  await page.goto(`/events/${eventId}`);
  const section = page.getByRole('region', { name: 'Ticketkontingent' });
  await expect(section.getByText('Für diesen Termin gibt es noch kein Ticketkontingent.')).toBeVisible();
  await section.getByRole('button', { name: 'Kontingent anlegen' }).click();
  const form = page.getByRole('dialog', { name: 'Ticketkontingent anlegen' });
  await form.getByLabel('Anzahl Tickets').fill('-1');
  await form.getByLabel('Anfragefrist').fill(`${daysAhead(21).slice(0, 10)}T12:00`);
  await form.getByRole('button', { name: 'Speichern' }).click();
  await expect(form.getByText('Die Anzahl der Tickets muss eine ganze Zahl von 0 bis 100.000 sein')).toBeVisible();
  await expect(form.getByText(/Die Anfragefrist muss in der Saison des Termins liegen/)).toBeVisible();
  await form.getByLabel('Anzahl Tickets').fill('2');
  await form.getByLabel('Anfragefrist').fill(`${daysAhead(19).slice(0, 10)}T20:00`);
  await form.getByLabel('Zahlungsfrist in Tagen').fill('7');
  // The time to accept a returned ticket is set in hours or days (a day by default).
  const window = form.getByLabel('Annahmefrist für zurückgegebene Tickets');
  await expect(window).toHaveValue('1');
  await expect(form.getByLabel('Einheit')).toHaveValue('days');
  await window.fill('8');
  await form.getByRole('button', { name: 'Speichern' }).click();
  await expect(form.getByText('Die Annahmefrist muss eine ganze Zahl sein, von 1 Stunde bis 7 Tage')).toBeVisible();
  await form.getByLabel('Einheit').selectOption('hours');
  await window.fill('36');
  await form.getByRole('button', { name: 'Speichern' }).click();
  await expect(form).toHaveCount(0);
  await expect(section.getByText('Zurückgegebene Tickets werden für 36 Stunden angeboten.')).toBeVisible();
  await expect(section.getByText(/Anfragen werden bis .* gesammelt/)).toBeVisible();
  const figure = (name: string) => section.getByRole('term').filter({ hasText: name }).locator('xpath=following-sibling::dd');
  await expect(figure('Tickets')).toHaveText('2');
  await expect(figure('Frei')).toHaveText('2');

  // The queue in allocation order: points first; pinning the last moves them to the front.
  const queue = section.getByRole('region', { name: 'Reihenfolge' });
  const names = queue.locator('tbody tr td:nth-child(2)');
  await expect(names).toHaveText([ten.login.username, five.login.username, zero.login.username]);
  const pin = queue.getByRole('button', { name: `Vorziehen ${zero.login.username}` });
  await pin.click();
  await expect(names).toHaveText([zero.login.username, ten.login.username, five.login.username]);
  await expect(pin).toHaveAttribute('aria-pressed', 'true');
  await noSidewaysScroll(page);
  expect(await seriousViolations(page)).toEqual([]);

  // Before the deadline the members were told, "allocate now" first says what it will do.
  await section.getByRole('button', { name: 'Jetzt zuteilen' }).click();
  const confirm = page.getByRole('dialog', { name: 'Tickets jetzt zuteilen?' });
  await expect(confirm).toContainText(`2 Tickets gehen an: ${zero.login.username}, ${ten.login.username}.`);
  await expect(confirm).toContainText(/Die Anfragefrist bis .* ist noch nicht vorbei/);
  await noSidewaysScroll(page);
  await confirm.getByRole('button', { name: 'Jetzt zuteilen' }).click();
  await expect(page.getByText('2 Tickets zugeteilt')).toBeVisible();
  await expect(confirm).toHaveCount(0);
  await expect(queue.locator('tbody tr td:nth-child(5)')).toHaveText(['hat Ticket', 'hat Ticket', 'wartet']);
  await expect(figure('Vergeben')).toHaveText('2');
  await expect(figure('Warteliste')).toHaveText('1');
  await noSidewaysScroll(page);
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/contingent-admin-de-360.png` });

  // The member in line, in English on a desktop: their place.
  const { context: waitingContext, page: waiting } = await memberPage(browser, five.login, DESKTOP);
  // Signed in in German (the form's words), then the member's language becomes English.
  await five.api.put(`/api/auth/users/${five.id}`, { language: 'en' });
  await waiting.goto(`/events/${eventId}`);
  const theirs = waiting.getByRole('region', { name: 'Ticket contingent' });
  await expect(theirs.getByText('You: waiting list, place 1.')).toBeVisible();
  await expect(theirs.getByRole('region', { name: 'Order' })).toHaveCount(0);
  expect(await seriousViolations(waiting)).toEqual([]);

  // A holder at 360 px returns their ticket: the one waiting is offered it at once.
  const { context: holderContext, page: holder } = await memberPage(browser, ten.login, PHONE);
  await holder.goto(`/events/${eventId}`);
  const held = holder.getByRole('region', { name: 'Ticketkontingent' });
  await expect(held.getByText(/^Du: Ticket bekommen\. Bitte bis .* bezahlen\.$/)).toBeVisible();
  await held.getByRole('button', { name: 'Ticket zurückgeben' }).click();
  await holder.getByRole('dialog', { name: 'Ticket zurückgeben?' }).getByRole('button', { name: 'Ticket zurückgeben' }).click();
  await expect(holder.getByText('Ticket zurückgegeben: Es wird dem Nächsten angeboten')).toBeVisible();
  await expect(held.getByText(/Ticket zurückgegeben\. Bis es jemand übernimmt/)).toBeVisible();
  await noSidewaysScroll(holder);
  await expect(theirs.getByRole('timer')).toBeVisible();
  await expect(theirs.getByRole('button', { name: 'Accept' })).toBeEnabled();
  if (SHOTS) {
    await theirs.screenshot({ path: `${SHOTS}/contingent-offer-en-1280.png` });
    await held.screenshot({ path: `${SHOTS}/contingent-returned-de-360.png` });
  }

  await holderContext.close();
  await waitingContext.close();
  await adminContext.close();
});

test('at the stadium without signal the member still sees their ticket and pay-by date; returning asks about going and the seat; an admin buying beyond the contingent is warned', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const eventId = await admin.createEvent(`${uniqueName('Rostock')} (A)`, daysAhead(25, '18:30'));
  await admin.put(`/api/events/${eventId}/contingent`, { tickets: 1, payment_days: 7 });
  const member = async (answer: Record<string, unknown>) => {
    const login = await admin.registeredMember(uniqueName('stadion'));
    const api = await Api.signIn(request, login.username, login.password);
    await api.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true, ...answer });
    return { login, api };
  };
  // The holder got the one ticket at once (no deadline) and needs a bus seat; two more wait.
  const holder = await member({ needs_transport: true });
  const waiter = await member({});
  const late = await member({});
  const attendeeOf = async (username: string) =>
    ((await admin.get(`/api/events/${eventId}`)).attendees as { username: string | null; needs_transport: boolean }[]).find(
      (row) => row.username === username,
    );

  // A ticket still requested shows what it will cost, not "price open".
  const { context: waiterContext, page: waiting } = await memberPage(browser, waiter.login, PHONE);
  await waiting.goto('/my-tickets');
  await expect(waiting.locator('[data-list="pending"] .ticket-price')).toHaveText('25,50 €');
  await waiterContext.close();

  const { context, page } = await memberPage(browser, holder.login, PHONE);
  await page.goto(`/events/${eventId}`);
  const section = page.getByRole('region', { name: 'Ticketkontingent' });
  const figure = (name: string) => section.getByRole('term').filter({ hasText: name }).locator('xpath=following-sibling::dd');
  const ownLine = section.getByText(/^Du: Ticket bekommen\. Bitte bis .* bezahlen\.$/);
  await expect(ownLine).toBeVisible();
  for (const [name, value] of [
    ['Tickets', '1'],
    ['Vergeben', '1'],
    ['Angeboten', '0'],
    ['Frei', '0'],
    ['Warteliste', '2'],
  ] as const)
    await expect(figure(name)).toHaveText(value);
  // The device remembers what it read, then the signal goes; the page is opened again.
  await expect
    .poll(() => page.evaluate((key) => localStorage.getItem(key) !== null, `snapshot:contingent:${eventId}`))
    .toBe(true);
  await context.setOffline(true);
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Termine' }).click();
  await page.goBack();
  await expect(
    section.getByText(/^Offline – Stand vom .*\. Aktuelle Zahlen, Rückgabe und Zuteilung brauchen eine Verbindung\.$/),
  ).toBeVisible();
  await expect(ownLine).toBeVisible();
  await expect(figure('Vergeben')).toHaveText('1');
  await expect(section.getByRole('button', { name: 'Ticket zurückgeben' })).toBeDisabled();
  await noSidewaysScroll(page);
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/contingent-offline-de-360.png` });

  // Back online: returning asks whether the member still goes and keeps the seat.
  await context.setOffline(false);
  const giveBack = section.getByRole('button', { name: 'Ticket zurückgeben' });
  await expect(giveBack).toBeEnabled();
  await giveBack.click();
  const dialog = page.getByRole('dialog', { name: 'Ticket zurückgeben?' });
  const going = dialog.getByLabel('Ich fahre trotzdem mit');
  const seat = dialog.getByLabel('Busplatz behalten');
  await expect(going).toBeChecked();
  await expect(seat).toBeChecked();
  await going.uncheck();
  await expect(seat).toBeDisabled();
  await expect(dialog.getByText(/Deine Zusage wird entfernt, sobald jemand das Ticket übernimmt/)).toBeVisible();
  await noSidewaysScroll(page);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Ticket zurückgeben' }).click();
  await expect(page.getByText('Ticket zurückgegeben: Es wird dem Nächsten angeboten')).toBeVisible();
  // The figures add up: the returned ticket is on offer; the seat is free at once.
  await expect(figure('Vergeben')).toHaveText('0');
  await expect(figure('Angeboten')).toHaveText('1');
  await expect(figure('Frei')).toHaveText('0');
  expect(await attendeeOf(holder.login.username)).toMatchObject({ needs_transport: false });
  await context.close();

  // The admin marks the late request bought although the one ticket is on offer: warned, then counted.
  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN, PHONE);
  await adminPage.goto(`/events/${eventId}`);
  await adminPage.getByRole('button', { name: 'Tabelle bearbeiten' }).click();
  await adminPage.getByLabel(`Gekauft: ${late.login.username}`).check();
  await adminPage.getByRole('button', { name: 'Speichern', exact: true }).click();
  const warning = adminPage.getByRole('dialog', { name: 'Mehr Tickets als im Kontingent?' });
  await expect(warning).toContainText(
    'Im Kontingent: 1, davon frei: 0. Mit diesen Änderungen wäre 1 Ticket mehr vergeben, als das Kontingent hat.',
  );
  await noSidewaysScroll(adminPage);
  await warning.getByRole('button', { name: 'Trotzdem speichern' }).click();
  await expect(adminPage.getByText('Änderungen gespeichert')).toBeVisible();
  const adminSection = adminPage.getByRole('region', { name: 'Ticketkontingent' });
  await expect(
    adminSection.getByText(
      '1 Ticket mehr vergeben, als das Kontingent hat (1): Ein Admin hat mehr Anfragen als gekauft markiert.',
    ),
  ).toBeVisible();
  const adminFigure = (name: string) =>
    adminSection.getByRole('term').filter({ hasText: name }).locator('xpath=following-sibling::dd');
  await expect(adminFigure('Vergeben')).toHaveText('1');
  await expect(adminFigure('Angeboten')).toHaveText('1');
  if (SHOTS) await adminSection.screenshot({ path: `${SHOTS}/contingent-beyond-de-360.png` });
  await adminContext.close();

  // The waiter takes the returned ticket: the holder, who no longer goes, leaves the list.
  const offers = await waiter.api.get('/api/tickets/offers/my');
  await waiter.api.put(`/api/tickets/offers/${offers.offers[0].id}/accept`);
  expect(await attendeeOf(holder.login.username)).toBeUndefined();
});
