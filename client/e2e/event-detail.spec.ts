import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN,
  Api,
  daysAhead,
  eventCard,
  memberPage,
  signInThroughForm,
  uniqueName,
  untilServiceWorkerControls,
} from './support.js';

/** The attendee table's row of a member or guest (first cell = the name as shown). */
const attendeeRow = (page: Page, name: string) =>
  page.locator('.attendee-table tbody tr').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/** The card (section) of the detail page with this heading. */
const section = (page: Page, heading: string) =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) });

/** A 1×1 PNG. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const serverRow = async (api: Api, eventId: string, username: string) =>
  ((await api.get(`/api/events/${eventId}`)).attendees as any[]).find((a) => a.username === username);

test('a member answers, sets ticket and transport, and brings a guest who shows in the table', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Detail')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(12));
  const member = await admin.registeredMember(uniqueName('fan'));

  await signInThroughForm(page, member.username, member.password);
  await eventCard(page, title).getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/events/${eventId}$`));
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('25,50 €')).toBeVisible();
  // Members see no admin controls.
  await expect(page.getByRole('button', { name: 'Tabelle bearbeiten' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Termin löschen' })).toHaveCount(0);

  const answer = section(page, 'Deine Antwort');
  await answer.getByRole('button', { name: 'Zusage' }).click();
  await expect(answer.getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
  // First-time defaults (docs/product.md, "Attendance and guests"): needs a ticket and a seat.
  await expect(answer.getByLabel('Ich brauche ein Ticket')).toBeChecked();
  await expect(answer.getByLabel('Ich brauche einen Mitfahrplatz')).toBeChecked();

  await answer.getByLabel('Ich habe schon ein Ticket').check();
  await expect(answer.getByLabel('Ich brauche ein Ticket')).not.toBeChecked();
  await answer.getByLabel('Eigene Anreise').check();
  await expect(attendeeRow(page, member.username)).toContainText('Hat Ticket');
  await expect(attendeeRow(page, member.username)).toContainText('Eigene Anreise');

  // A guest: the name is required, then it is added (going, needs ticket and seat).
  const guests = section(page, 'Gäste');
  await guests.getByRole('button', { name: 'Gast hinzufügen' }).click();
  await expect(guests.getByRole('alert')).toHaveText('Name des Gastes ist erforderlich');
  await guests.getByLabel('Name des Gastes').fill('Erika Muster');
  await guests.getByRole('button', { name: 'Gast hinzufügen' }).click();
  const guestRow = attendeeRow(page, `Erika Muster (Gast von ${member.username})`);
  await expect(guestRow).toContainText('Dabei');
  await expect(guestRow).toContainText('Braucht Ticket');
  await expect(guestRow).toContainText('Offen');
  await expect(section(page, 'Teilnehmer')).toContainText('2 dabei');
  await expect(section(page, 'Fahrten').locator('.transport-summary')).toContainText('Plätze benötigt1');

  // Everything reached the server.
  await expect
    .poll(async () => {
      const row = await serverRow(admin, eventId, member.username);
      return row ? `${row.status}:${row.needs_ticket}:${row.has_ticket}:${row.needs_transport}` : null;
    })
    .toBe('going:false:true:false');
  await expect
    .poll(
      async () =>
        ((await admin.get(`/api/events/${eventId}`)).attendees as any[]).filter((a) => a.guest_name === 'Erika Muster').length,
    )
    .toBe(1);

  // The member removes their guest again (confirmed).
  await guests.getByRole('button', { name: 'Entfernen Erika Muster' }).click();
  await page.getByRole('dialog', { name: 'Gast entfernen?' }).getByRole('button', { name: 'Entfernen' }).click();
  await expect(guestRow).toHaveCount(0);

  // Not going removes the row.
  await answer.getByRole('button', { name: 'Absage' }).click();
  await expect(attendeeRow(page, member.username)).toHaveCount(0);
  await expect(section(page, 'Teilnehmer')).toContainText('Noch hat niemand geantwortet.');
});

test('an admin edits the table, adds an attendee, manages transport and edits the event in place', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const stadium = await admin.post('/api/stadiums', {
    team_name: uniqueName('Team'),
    stadium_name: uniqueName('Arena'),
    city: 'Leipzig',
    address: 'Am Sportforum 1',
  });
  const stadiumId: string = stadium.stadium.id;
  await admin.post('/api/ticket-prices', { stadium_id: stadiumId, price: 18.5, ticket_type: 'Stehplatz' });
  const title = `${uniqueName('Admin')} (A)`;
  const created = await admin.post('/api/events', {
    title,
    date: daysAhead(20, '18:30'),
    location: 'Leipzig',
    stadium_id: stadiumId,
    ticket_price: 0,
  });
  const eventId: string = created.event.id;
  const fan = await admin.registeredMember(uniqueName('fan'));
  const other = await admin.registeredMember(uniqueName('other'));
  const fanApi = await Api.signIn(request, fan.username, fan.password);
  await fanApi.post(`/api/attendance/${eventId}`, { status: 'going' });

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.locator('.detail-facts')).toContainText('Ticketpreisnoch offen');
  const fanRow = attendeeRow(page, fan.username);
  await expect(fanRow).toContainText('Offen');

  // Edit mode: 10 columns; ticket option, bought, paid, payer and a reserved seat.
  const attendees = section(page, 'Teilnehmer');
  await expect(attendees.locator('thead th')).toHaveCount(9);
  await attendees.getByRole('button', { name: 'Tabelle bearbeiten' }).click();
  await expect(attendees.locator('thead th')).toHaveCount(10);
  await page.getByLabel(`Ticket: ${fan.username}`).selectOption({ label: 'Stehplatz · 18,50 €' });
  await page.getByLabel(`Bezahlt von: ${fan.username}`).selectOption({ label: 'Vereinskasse' });
  await page.getByLabel(`Gekauft: ${fan.username}`).check();
  await page.getByLabel(`Bezahlt: ${fan.username}`).check();
  await page.getByLabel(`Mitfahrt: ${fan.username}`).selectOption({ label: 'Reserviert' });
  await attendees.getByRole('button', { name: 'Speichern' }).click();
  await expect(attendees.getByRole('button', { name: 'Tabelle bearbeiten' })).toBeVisible();
  await expect
    .poll(async () => {
      const row = await serverRow(admin, eventId, fan.username);
      return [row.bought, row.paid, row.price, row.paid_by, row.transfer_status].join(':');
    })
    .toBe('true:true:18.5:club_cash_desk:reserved');
  // The change reaches the page through sync.
  await expect(fanRow).toContainText('Stehplatz · 18,50 €');
  await expect(fanRow).toContainText('Vereinskasse');
  await expect(fanRow).toContainText('Reserviert');
  await expect(section(page, 'Fahrten').locator('.summary-reserved')).toContainText('1');

  // Add attendee: a user must be chosen; only members not attending are offered.
  await attendees.getByRole('button', { name: 'Hinzufügen' }).click();
  await expect(attendees.getByRole('alert')).toHaveText('Bitte wähle einen Benutzer aus');
  const select = attendees.getByLabel('Mitglied', { exact: true });
  await expect(select.locator('option', { hasText: fan.username })).toHaveCount(0);
  await select.selectOption({ label: other.username });
  await attendees.getByRole('button', { name: 'Hinzufügen' }).click();
  await expect(attendeeRow(page, other.username)).toContainText('Dabei');
  await expect(select.locator('option', { hasText: other.username })).toHaveCount(0);

  // A guest for another member (online REST, brought_by that member).
  const guests = section(page, 'Gäste');
  await guests.getByLabel('Mitgebracht von').selectOption({ label: fan.username });
  await guests.getByLabel('Name des Gastes').fill('Kumpel Klaus');
  await guests.getByRole('button', { name: 'Gast hinzufügen' }).click();
  await expect(attendeeRow(page, `Kumpel Klaus (Gast von ${fan.username})`)).toContainText('Braucht Ticket');
  expect(
    ((await admin.get(`/api/events/${eventId}`)).attendees as any[]).find((a) => a.guest_name === 'Kumpel Klaus'),
  ).toMatchObject({
    brought_by: expect.any(String),
    status: 'going',
  });

  // Remove the added attendee again (edit mode, confirmed).
  await attendees.getByRole('button', { name: 'Tabelle bearbeiten' }).click();
  await page.getByRole('button', { name: `Entfernen: ${other.username}` }).click();
  await page.getByRole('dialog', { name: 'Teilnehmer entfernen?' }).getByRole('button', { name: 'Entfernen' }).click();
  await expect(attendeeRow(page, other.username)).toHaveCount(0);
  await attendees.getByRole('button', { name: 'Abbrechen' }).click();

  // Transport: add (price), edit (free), delete (confirmed).
  const transport = section(page, 'Fahrten');
  await transport.getByRole('button', { name: 'Fahrt hinzufügen' }).click();
  await transport.getByRole('button', { name: 'Speichern' }).click();
  await expect(transport.getByRole('alert')).toHaveText('Bezeichnung ist erforderlich');
  await transport.getByLabel('Bezeichnung').fill('Bus 1');
  await transport.getByLabel('Abfahrtsort').fill('S Köpenick');
  await transport.getByRole('button', { name: 'Speichern' }).click();
  await expect(transport.getByRole('alert')).toHaveText(
    'Bitte gib einen Preis an oder wähle „Kostenlos“ oder „Preis noch offen“',
  );
  await transport.getByLabel('Preis pro Platz (€)').fill('15');
  await transport.getByRole('button', { name: 'Speichern' }).click();
  const bus = transport.getByRole('listitem', { name: 'Bus 1' });
  await expect(bus).toContainText('15,00 €');
  await expect(bus).toContainText('S Köpenick');
  await expect(bus).toContainText('Abfahrtnoch offen');

  await bus.getByRole('button', { name: 'Bearbeiten Bus 1' }).click();
  await transport.getByLabel('Kostenlos').check();
  await transport.getByLabel('Preis noch offen').check();
  await expect(transport.getByLabel('Kostenlos')).not.toBeChecked();
  await transport.getByLabel('Kostenlos').check();
  await transport.getByLabel('Abfahrt', { exact: true }).fill('2030-05-01T07:45');
  await transport.getByRole('button', { name: 'Speichern' }).click();
  await expect(bus).toContainText('Kostenlos');
  await expect(bus).toContainText('01.05.2030, 07:45');

  await bus.getByRole('button', { name: 'Löschen Bus 1' }).click();
  await page.getByRole('dialog', { name: 'Fahrt löschen?' }).getByRole('button', { name: 'Löschen' }).click();
  await expect(transport.getByRole('listitem', { name: 'Bus 1' })).toHaveCount(0);
  await expect(transport).toContainText('Noch keine Fahrten geplant.');

  // In-place edit of the event: a new title and location; a member already answered, so it is UPDATED.
  await page.getByRole('button', { name: 'Termin bearbeiten' }).click();
  const newTitle = `${uniqueName('Renamed')} (A)`;
  await page.getByLabel('Titel').fill(newTitle);
  await page.getByLabel('Ort', { exact: true }).fill('Leipzig-Leutzsch');
  await page.locator('.event-edit-form').getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('heading', { name: newTitle, level: 1 })).toBeVisible();
  await expect(page.locator('.detail-facts')).toContainText('Leipzig-Leutzsch');
  await expect(page.getByText('AKTUALISIERT')).toBeVisible();
  await page.getByRole('button', { name: 'Markierung entfernen' }).click();
  await expect(page.getByText('AKTUALISIERT')).toHaveCount(0);
  expect((await admin.get(`/api/events/${eventId}`)).event).toMatchObject({ title: newTitle, is_updated: false });

  // Image: only images (checked before sending), then upload and delete (confirmed).
  await page.getByLabel('Bild hochladen').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(page.getByRole('alert').filter({ hasText: 'Nur Bilddateien sind erlaubt' })).toBeVisible();
  await page.getByLabel('Bild hochladen').setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PIXEL_PNG });
  const image = page.getByRole('img', { name: `Bild zu ${newTitle}` });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await page.getByRole('button', { name: 'Bild löschen' }).click();
  await page.getByRole('dialog', { name: 'Bild löschen?' }).getByRole('button', { name: 'Löschen' }).click();
  await expect(image).toHaveCount(0);
  await expect(page.getByText('Noch kein Bild')).toBeVisible();

  // Delete the event (confirmed): back to the list, and the address says it is gone.
  await page.getByRole('button', { name: 'Termin löschen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Termin löschen?' });
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Termin löschen' }).click();
  await dialog.getByRole('button', { name: 'Löschen' }).click();
  await expect(page).toHaveURL(/\/events$/);
  await expect(eventCard(page, newTitle)).toHaveCount(0);
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { name: 'Termin nicht gefunden' })).toBeVisible();
  await page.getByRole('link', { name: 'Zurück zu den Terminen' }).click();
  await expect(page).toHaveURL(/\/events$/);
});

test('bought tickets: the creator cannot delete the event, the admin confirms a dialog that names the kept tickets', async ({
  browser,
  page,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('owner'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const title = `${uniqueName('Schulden')} (A)`;
  const eventId = await memberApi.createEvent(title, daysAhead(20));
  const own = await memberApi.post(`/api/attendance/${eventId}`, { status: 'going' });
  const guest = await memberApi.post('/api/guests', { event_id: eventId, guest_name: 'Opa Karl' });
  await admin.put(`/api/attendees/${own.attendance.id}`, { bought: true, price: 18.5 });
  await admin.put(`/api/attendees/${guest.guest.id}`, { bought: true, paid: true, price: 12 });

  // The creator (a member) sees why the event cannot be deleted.
  await signInThroughForm(page, member.username, member.password);
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('Für diesen Termin wurden bereits Tickets gekauft; nur ein Admin kann ihn löschen')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Termin löschen' })).toBeDisabled();

  const { context, page: adminPage } = await memberPage(browser, ADMIN);
  await adminPage.goto(`/events/${eventId}`);
  await expect(attendeeRow(adminPage, `Opa Karl (Gast von ${member.username})`)).toBeVisible();
  await adminPage.getByRole('button', { name: 'Termin löschen' }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Termin löschen?' });
  await expect(dialog).toContainText('Für diesen Termin wurden Tickets gekauft');
  const tickets = dialog.getByRole('listitem');
  await expect(tickets).toHaveText([
    `${member.username} · 18,50 € · nicht bezahlt`,
    `Opa Karl (Gast von ${member.username}) · 12,00 € · bezahlt`,
  ]);
  await expect(dialog).toContainText('Diese Tickets und ihre offenen Beträge bleiben erhalten');
  await dialog.getByRole('button', { name: 'Löschen' }).click();
  await expect(adminPage).toHaveURL(/\/events$/);
  await expect(eventCard(adminPage, title)).toHaveCount(0);
  await adminPage.goto(`/events/${eventId}`);
  await expect(adminPage.getByRole('heading', { name: 'Termin nicht gefunden' })).toBeVisible();
  await context.close();

  // The member's ticket and debt are kept.
  const mine = (await memberApi.get('/api/attendance/my')).attendance as any[];
  expect(mine.find((row) => row.id === own.attendance.id)).toMatchObject({ bought: true, paid: false, event_title: title });
  await expect(page.getByRole('heading', { name: 'Termin nicht gefunden' })).toBeVisible();
});

test('the detail page at 360 px: no page overflow, the table scrolls inside its card', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Narrow')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(5));
  const member = await admin.registeredMember(uniqueName('small'));
  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 740 } });
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await section(page, 'Deine Antwort').getByRole('button', { name: 'Vielleicht' }).click();
  await expect(attendeeRow(page, member.username)).toContainText('Vielleicht');

  const widths = await page.evaluate(() => {
    const scroller = document.querySelector('.table-scroll') as HTMLElement;
    return {
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      tableScroll: scroller.scrollWidth,
      tableBox: scroller.clientWidth,
    };
  });
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  expect(widths.tableScroll).toBeGreaterThan(widths.tableBox);
  await context.close();
});

test('offline: the page opens from the device, the member answers and brings a guest; admin controls wait for a connection', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Offline')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(8));
  const member = await admin.registeredMember(uniqueName('away'));

  const { context, page } = await memberPage(browser, member);
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await untilServiceWorkerControls(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  const answer = section(page, 'Deine Antwort');
  await answer.getByRole('button', { name: 'Zusage' }).click();
  await answer.getByLabel('Eigene Anreise').check();
  const guests = section(page, 'Gäste');
  await guests.getByLabel('Name des Gastes').fill('Offline Gast');
  await guests.getByRole('button', { name: 'Gast hinzufügen' }).click();
  await expect(attendeeRow(page, `Offline Gast (Gast von ${member.username})`)).toBeVisible();
  await expect(page.getByText('2 Änderungen warten')).toBeVisible();
  expect((await admin.get(`/api/events/${eventId}`)).attendees).toHaveLength(0);

  await context.setOffline(false);
  await expect
    .poll(async () =>
      ((await admin.get(`/api/events/${eventId}`)).attendees as any[])
        .map((a) => `${a.username ?? a.guest_name}:${a.status}:${a.needs_transport}`)
        .sort(),
    )
    .toEqual([`${member.username}:going:false`, 'Offline Gast:going:true'].sort());
  await context.close();

  // An admin offline: the page still reads, but admin work is disabled with a hint.
  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN);
  await adminPage.goto(`/events/${eventId}`);
  await expect(attendeeRow(adminPage, member.username)).toBeVisible();
  await adminContext.setOffline(true);
  await expect(adminPage.getByRole('button', { name: 'Tabelle bearbeiten' })).toBeDisabled();
  await expect(adminPage.getByRole('button', { name: 'Termin bearbeiten' })).toBeDisabled();
  await expect(adminPage.getByRole('button', { name: 'Fahrt hinzufügen' })).toBeDisabled();
  await expect(adminPage.getByText('Offline: Diese Aktionen brauchen eine Verbindung zum Server.').first()).toBeVisible();
  await adminContext.setOffline(false);
  await expect(adminPage.getByRole('button', { name: 'Tabelle bearbeiten' })).toBeEnabled();
  await adminContext.close();
});
