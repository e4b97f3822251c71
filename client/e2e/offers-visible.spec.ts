import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, uniqueName } from './support.js';

/*
 * An open offer nobody misses (docs/product.md, Ticket contingents): letting it run out counts as
 * declining, so without push a member still sees it at 360 px, in the nav bar on every page and on
 * the event's card; declining asks first, and afterwards the event page says plainly that the member
 * has left the queue.
 */

test('an open offer shows in the nav bar and on the card; declining asks first and then says the member left the queue', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Bremen')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(3));
  await admin.put(`/api/events/${eventId}/contingent`, { tickets: 1, offer_minutes: 180 });
  const holderLogin = await admin.registeredMember(uniqueName('holder'));
  const fanLogin = await admin.registeredMember(uniqueName('fan'));
  const holder = await Api.signIn(request, holderLogin.username, holderLogin.password);
  const fan = await Api.signIn(request, fanLogin.username, fanLogin.password);
  const holderRow = (await holder.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true })).attendance.id;
  const fanRow = (await fan.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true })).attendance.id;
  expect((await holder.put(`/api/tickets/${holderRow}/return`)).offered).toBe(true);

  const { context, page } = await memberPage(browser, fanLogin, { viewport: { width: 360, height: 740 } });
  // On /events: the folded menu's button carries the count, the card its mark.
  const menu = page.getByRole('button', { name: /Menü/ });
  await expect(menu.getByLabel('1 offenes Ticketangebot – läuft ab, wenn du nicht antwortest')).toBeVisible();
  const card = eventCard(page, title);
  await expect(card.getByRole('link', { name: 'Ticket für dich frei' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/offers-visible-de-360.png` });

  // The mark leads to /my-tickets, where the offer waits with its countdown.
  await card.getByRole('link', { name: 'Ticket für dich frei' }).click();
  await expect(page).toHaveURL(/\/my-tickets$/);
  await expect(page.getByRole('region', { name: /Ticketangebote/ }).getByRole('timer')).toBeVisible();

  // On the event page: declining asks first; cancelling changes nothing.
  await page.goto(`/events/${eventId}`);
  const section = page.getByRole('region', { name: 'Ticketkontingent' });
  await section.getByRole('button', { name: 'Ablehnen' }).click();
  const confirm = page.getByRole('dialog', { name: 'Angebot ablehnen?' });
  await expect(confirm).toContainText('du bist nicht mehr in der Warteschlange');
  await confirm.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(section.getByRole('timer')).toBeVisible();

  await section.getByRole('button', { name: 'Ablehnen' }).click();
  await confirm.getByRole('button', { name: 'Ablehnen' }).click();
  const stateOf = async () =>
    (await admin.get(`/api/events/${eventId}/contingent`)).queue.find(
      (entry: { attendee_id: string }) => entry.attendee_id === fanRow,
    ).state;
  await expect.poll(stateOf, { timeout: 10_000 }).toBe('declined');
  await expect(
    section.getByText('Du: Angebot abgelehnt oder verstrichen – du bist nicht mehr in der Warteschlange.'),
  ).toBeVisible();
  // The offer is gone from the bar and the card.
  await expect(menu.getByLabel(/offenes Ticketangebot/)).toHaveCount(0);
  // Asking again: a new request; with nobody else waiting the returned ticket is offered again.
  await section.getByRole('button', { name: 'Erneut anfragen' }).click();
  await expect.poll(stateOf, { timeout: 10_000 }).toBe('offered');
  await expect(menu.getByLabel('1 offenes Ticketangebot – läuft ab, wenn du nicht antwortest')).toBeVisible();
  await section.getByRole('button', { name: 'Ablehnen' }).click();
  await confirm.getByRole('button', { name: 'Ablehnen' }).click();
  await expect.poll(stateOf, { timeout: 10_000 }).toBe('declined');
  await page.goto('/events');
  await expect(eventCard(page, title)).toBeVisible();
  await expect(eventCard(page, title).getByRole('link', { name: 'Ticket für dich frei' })).toHaveCount(0);
  await context.close();
});
