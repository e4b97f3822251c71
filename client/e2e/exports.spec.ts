import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/**
 * The lists for the day (docs/architecture.md, Lists for the day): the admin opens the print view from
 * the event page on a phone (360 px), reads both lists, downloads the ticket list as CSV and sees the
 * page as it prints (the app's frame and the buttons left out).
 */
test('the print view of an event at 360 px: both lists, the CSV download and the printed page', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('Fahrer'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const title = uniqueName('Wolfsburg ') + ' (A)';
  const eventId = await admin.createEvent(title, daysAhead(9));
  const attendance = await memberApi.post(`/api/attendance/${eventId}`, {
    status: 'going',
    needs_ticket: true,
    needs_transport: true,
  });
  // The guest first: a member who owes a bought ticket brings no new guest.
  await memberApi.post('/api/guests', { event_id: eventId, guest_name: '=HYPERLINK("x")' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, {
    bought: true,
    price: 19.9,
    ticket_type: 'Stehplatz',
    transfer_status: 'reserved',
  });
  await admin.post('/api/transports', {
    event_id: eventId,
    name: 'Bus Köpenick',
    departure_location: 'S Köpenick',
    departure_datetime: daysAhead(9, '08:00'),
    price_per_seat: 12,
  });

  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 800 }, acceptDownloads: true });
  await page.goto(`/events/${eventId}`);
  await page.getByRole('link', { name: 'Listen für den Spieltag' }).click();
  await expect(page).toHaveURL(new RegExp(`/events/${eventId}/print$`));
  await expect(page.getByRole('heading', { name: 'Listen für den Spieltag' })).toBeVisible();

  const tickets = page.getByTestId('print-tickets');
  const memberRow = tickets.locator('tbody tr', { hasText: member.username }).first();
  await expect(memberRow).toContainText('Stehplatz');
  await expect(memberRow).toContainText('19,90 €');
  await expect(memberRow).toContainText('gekauft');
  // The guest's name is shown as typed; only the spreadsheet guards it.
  await expect(tickets.locator('tbody tr', { hasText: '=HYPERLINK("x")' })).toContainText('benötigt');

  const transport = page.getByTestId('print-transport');
  await expect(page.getByText('Alle fahren mit Bus Köpenick.')).toBeVisible();
  await expect(transport.locator('tbody tr').first()).toContainText(member.username);
  await expect(transport.locator('tbody tr').first()).toContainText('reserviert');
  await expect(transport.locator('tbody tr', { hasText: '=HYPERLINK' })).toContainText('offen');
  // The page fits the phone, and so do both lists: nothing is cut off in their boxes.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  for (const list of [tickets, transport]) {
    expect(
      await list.evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth),
    ).toBeLessThanOrEqual(0);
  }

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Ticketliste (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^tickets-\d{4}-\d{2}-\d{2}-wolfsburg-[a-z0-9-]+\.csv$/);
  const bytes = fs.readFileSync((await file.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8');
  expect(text).toContain(`${member.username};Mitglied;;Stehplatz;19,90;nein;nein;gekauft;zugesagt`);
  expect(text).toContain(`"'=HYPERLINK(""x"")";Gast;${member.username};`);

  // Printed: the lists without the navigation bar and the buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.navbar')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Drucken' })).toBeHidden();
  await expect(tickets).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByRole('button', { name: 'Drucken' })).toBeVisible();
  await context.close();
});

test('a member does not get the print view', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('Neugier'));
  const eventId = await admin.createEvent(uniqueName('Mainz ') + ' (A)', daysAhead(5));
  const { context, page } = await memberPage(browser, member);
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { name: /Mainz/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Listen für den Spieltag' })).toHaveCount(0);
  await page.goto(`/events/${eventId}/print`);
  await expect(page.getByRole('alert')).toHaveText('Administratorrechte erforderlich');
  await context.close();
});
