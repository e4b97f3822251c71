import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/*
 * Once an event has a ticket contingent or a bought ticket, its ticket price and stadium are the
 * admins' (docs/product.md, Roles and permissions; shared rule checkPriceChange): the creator's edit
 * form shows them read-only with the reason and still saves the other fields; before that, and for
 * an admin always, the price is a field to type in.
 */

const priceField = (page: Page) => page.locator('.event-edit-form').getByLabel('Ticketpreis (€)');
const stadiumField = (page: Page) => page.locator('.event-edit-form').getByLabel('Stadion', { exact: true });
const LOCKED_HINT =
  'Dieser Termin hat ein Ticketkontingent oder gekaufte Tickets; nur ein Admin kann Ticketpreis oder Stadion ändern';

async function openEditForm(page: Page, eventId: string) {
  await page.goto(`/events/${eventId}`);
  await page.getByRole('button', { name: 'Termin bearbeiten' }).click();
  await expect(page.locator('.event-edit-form')).toBeVisible();
}

test('a creator edits the price until a contingent exists, then sees it read-only and still saves the rest', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const creator = await admin.registeredMember(uniqueName('preis'));
  const creatorApi = await Api.signIn(request, creator.username, creator.password);
  const eventId = await creatorApi.createEvent(`${uniqueName('Preisfahrt')} (A)`, daysAhead(20));

  const { context, page } = await memberPage(browser, creator);
  // No contingent, no bought ticket: the creator's price is a field to type in.
  await openEditForm(page, eventId);
  await expect(priceField(page)).toBeEditable();
  await expect(stadiumField(page)).toBeEditable();
  await expect(page.getByText(LOCKED_HINT)).toHaveCount(0);
  await page.locator('.event-edit-form').getByRole('button', { name: 'Abbrechen' }).click();

  await admin.put(`/api/events/${eventId}/contingent`, { tickets: 2 });

  // With a contingent: price and stadium read-only, with the reason; the title is still the creator's.
  await openEditForm(page, eventId);
  await expect(page.getByText(LOCKED_HINT)).toBeVisible();
  await expect(priceField(page)).not.toBeEditable();
  await expect(priceField(page)).toHaveValue(/^25,50\s€$/);
  await expect(stadiumField(page)).not.toBeEditable();
  const title = `${uniqueName('Neuer Titel')} (A)`;
  await page.locator('.event-edit-form').getByLabel('Titel').fill(title);
  await page.locator('.event-edit-form').getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  expect((await admin.get(`/api/events/${eventId}`)).event).toMatchObject({ title, ticket_price: 25.5 });
  await context.close();

  // An admin changes the price of the same event.
  const adminSide = await memberPage(browser, ADMIN);
  await openEditForm(adminSide.page, eventId);
  await expect(priceField(adminSide.page)).toBeEditable();
  await expect(adminSide.page.getByText(LOCKED_HINT)).toHaveCount(0);
  await priceField(adminSide.page).fill('30');
  await adminSide.page.locator('.event-edit-form').getByRole('button', { name: 'Speichern' }).click();
  await expect(adminSide.page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect.poll(async () => (await admin.get(`/api/events/${eventId}`)).event.ticket_price).toBe(30);
  await adminSide.context.close();
});
