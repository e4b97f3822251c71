import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * The waiting list in the browser (docs/product.md, Ticket contingents): a returned ticket offered
 * to a member shows with a countdown on the event page and on /my-tickets; the member accepts it
 * offline, and it lands when the connection returns (ticket and debt move).
 */

test('a member accepts an offer offline in the browser; it lands after reconnecting', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Köln')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(12));
  await admin.put(`/api/events/${eventId}/contingent`, { tickets: 1, offer_minutes: 120 });
  const holderLogin = await admin.registeredMember(uniqueName('holder'));
  const fanLogin = await admin.registeredMember(uniqueName('fan'));
  const holder = await Api.signIn(request, holderLogin.username, holderLogin.password);
  const fan = await Api.signIn(request, fanLogin.username, fanLogin.password);
  const holderRow = (await holder.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true })).attendance.id;
  const fanRow = (await fan.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true })).attendance.id;
  expect((await holder.put(`/api/tickets/${holderRow}/return`)).offered).toBe(true);

  const { context, page } = await memberPage(browser, fanLogin, { viewport: { width: 360, height: 740 } });
  await untilServiceWorkerControls(page);

  // On /my-tickets: the open offer with its event, price and countdown.
  await page.goto('/my-tickets');
  const offers = page.getByRole('region', { name: /Ticketangebote/ });
  await expect(offers.getByRole('link', { name: `Ticket für ${title}` })).toBeVisible();
  await expect(offers.getByText(/^25,50\s€$/)).toBeVisible();
  const timer = offers.getByRole('timer');
  await expect(timer).toHaveText(/^1:5\d:\d\d$/);
  const first = await timer.textContent();
  await expect(timer).not.toHaveText(first!);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (process.env.E2E_SCREENSHOTS)
    await offers.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/offers-my-tickets-de-360.png` });

  // On the event page: the same offer, the member's place, then accepted offline.
  await offers.getByRole('link', { name: `Ticket für ${title}` }).click();
  const section = page.getByRole('region', { name: 'Ticketkontingent' });
  await expect(section.getByRole('timer')).toBeVisible();
  await expect(section.getByText('Du: ein zurückgegebenes Ticket wird angeboten.')).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: 'Annehmen' }).click();
  await expect(section.getByText(/Angenommen – wird übertragen/)).toBeVisible();
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();
  if (process.env.E2E_SCREENSHOTS)
    await section.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/offers-accepted-offline-de-360.png` });
  const before = await admin.get(`/api/events/${eventId}/contingent`);
  expect(before.queue.find((entry: { attendee_id: string }) => entry.attendee_id === fanRow).state).toBe('offered');

  await context.setOffline(false);
  const stateOf = async (attendeeId: string) =>
    (await admin.get(`/api/events/${eventId}/contingent`)).queue.find(
      (entry: { attendee_id: string }) => entry.attendee_id === attendeeId,
    ).state;
  await expect.poll(() => stateOf(fanRow), { timeout: 10_000 }).toBe('allocated');
  expect(await stateOf(holderRow)).toBe('returned');
  await expect(page.getByText('1 Änderung wartet')).toHaveCount(0);
  // The page follows: no offer any more, the member holds the ticket; /my-tickets lists it as owed.
  await expect(section.getByRole('timer')).toHaveCount(0);
  await expect(section.getByText('Du: Ticket bekommen.')).toBeVisible();
  const debts = await admin.get('/api/tickets/debts');
  expect(debts.unpaidTickets.map((ticket: { id: string }) => ticket.id)).toContain(fanRow);
  expect(debts.unpaidTickets.map((ticket: { id: string }) => ticket.id)).not.toContain(holderRow);
  await page.goto('/my-tickets');
  await expect(page.getByRole('region', { name: /Ticketangebote/ })).toHaveCount(0);
  await expect(page.locator(`[data-ticket="${fanRow}"]`)).toBeVisible();

  await context.close();
});
