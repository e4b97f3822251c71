import { seasonOf } from '@fankurve/shared/dates';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, signInThroughForm, uniqueName } from './support.js';

/**
 * The titles of this test's cards (their titles start with the prefix), in the order shown. Their
 * text, not their rendered text: a card far down a long list is skipped by `content-visibility`.
 */
const ownTitles = async (page: Page, prefix: string) =>
  (await page.locator('article.event-card').filter({ hasText: prefix }).locator('.event-title').allTextContents()).map((title) =>
    title.trim(),
  );

/** Today in the club's time zone (Europe/Berlin by default), as the app decides the season. */
const clubToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );

/** The tests put their events into the current season; close to July 1 the offsets would cross it. */
const inCurrentSeason = (...offsets: number[]) => offsets.every((days) => seasonOf(daysAhead(days)) === seasonOf(clubToday()));

test('upcoming events ascending, past ones descending and faded; away / home / all filter kept in the URL', async ({
  page,
  request,
}) => {
  test.skip(!inCurrentSeason(-8, 10), 'the offsets cross a season boundary today');
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const p = uniqueName('Liste');
  const t = (name: string) => `${p} ${name}`;
  await admin.createEvent(t('Spät (A)'), daysAhead(9));
  await admin.createEvent(t('Bald (A)'), daysAhead(3));
  await admin.createEvent(t('Vorbei (A)'), daysAhead(-2));
  await admin.createEvent(t('Lange her (A)'), daysAhead(-7));
  await admin.createEvent(t('Derby (H)'), daysAhead(5));
  await admin.createEvent(t('Fanfest'), daysAhead(6));
  const member = await admin.registeredMember(uniqueName('liste'));

  await signInThroughForm(page, member.username, member.password);
  const filter = page.getByRole('group', { name: 'Spielort' });
  await expect(filter.getByRole('button', { name: 'Auswärts' })).toHaveAttribute('aria-pressed', 'true');
  // Away by default: upcoming soonest first, then past latest first; the Fanfest (no match) shows under every filter.
  await expect
    .poll(() => ownTitles(page, p))
    .toEqual([t('Bald (A)'), t('Fanfest'), t('Spät (A)'), t('Vorbei (A)'), t('Lange her (A)')]);
  // Past cards are greyed, not transparent (their text keeps its contrast: matchday.spec.ts).
  await expect(eventCard(page, t('Vorbei (A)'))).toHaveClass(/event-past/);
  await expect(eventCard(page, t('Vorbei (A)'))).toHaveCSS('background-color', 'rgb(238, 241, 245)');
  await expect(eventCard(page, t('Vorbei (A)'))).toHaveCSS('opacity', '1');
  await expect(eventCard(page, t('Bald (A)'))).not.toHaveClass(/event-past/);
  await expect(eventCard(page, t('Bald (A)'))).toHaveCSS('background-color', 'rgb(255, 255, 255)');

  await filter.getByRole('button', { name: 'Heim' }).click();
  await expect(page).toHaveURL(/\/events\?where=home$/);
  await expect.poll(() => ownTitles(page, p)).toEqual([t('Derby (H)'), t('Fanfest')]);

  await filter.getByRole('button', { name: 'Alle' }).click();
  await expect(page).toHaveURL(/\/events\?where=all$/);
  const all = [t('Bald (A)'), t('Derby (H)'), t('Fanfest'), t('Spät (A)'), t('Vorbei (A)'), t('Lange her (A)')];
  await expect.poll(() => ownTitles(page, p)).toEqual(all);

  // Reload and back keep the filter.
  await page.reload();
  await expect(filter.getByRole('button', { name: 'Alle' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => ownTitles(page, p)).toEqual(all);
  await eventCard(page, t('Fanfest'))
    .getByRole('link', { name: t('Fanfest') })
    .click();
  await expect(page).toHaveURL(/\/events\/[^/?]+$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/events\?where=all$/);
  await expect(filter.getByRole('button', { name: 'Alle' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => ownTitles(page, p)).toEqual(all);

  // Back to the default: the query is clean again.
  await filter.getByRole('button', { name: 'Auswärts' }).click();
  await expect(page).toHaveURL(/\/events$/);
});

test('the season selector shows only with several seasons; the chosen season stays in the URL', async ({ page, request }) => {
  test.skip(!inCurrentSeason(4), 'the offset crosses a season boundary today');
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const p = uniqueName('Spielzeit');
  const current = `${p} Jetzt (A)`;
  await admin.createEvent(current, daysAhead(4));
  const currentSeason = seasonOf(clubToday());
  const seasons = new Set((await admin.get('/api/events')).events.map((e: { season: string }) => e.season));

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await expect(eventCard(page, current)).toBeVisible();
  const selector = page.getByRole('combobox', { name: 'Saison' });
  if (seasons.size === 1) await expect(selector).toHaveCount(0);

  // An event of an earlier season: the selector appears (live, through sync), on the current season.
  const oldDate = daysAhead(-400);
  const oldSeason = seasonOf(oldDate);
  const old = `${p} Früher (A)`;
  await admin.createEvent(old, oldDate);
  await expect(selector).toBeVisible();
  await expect(selector).toHaveValue(currentSeason);
  await expect(selector.locator('option')).toContainText([oldSeason]);
  await expect(eventCard(page, old)).toHaveCount(0);

  await selector.selectOption(oldSeason);
  await expect(page).toHaveURL(new RegExp(`/events\\?season=${encodeURIComponent(oldSeason)}$`));
  await expect(eventCard(page, old)).toBeVisible();
  await expect(eventCard(page, old)).toHaveClass(/event-past/);
  await expect(eventCard(page, current)).toHaveCount(0);

  await page.reload();
  await expect(selector).toHaveValue(oldSeason);
  await expect(eventCard(page, old)).toBeVisible();

  // The filters combine: no home match of ours in that season.
  await page.getByRole('group', { name: 'Spielort' }).getByRole('button', { name: 'Heim' }).click();
  await expect(page).toHaveURL(/season=.*&where=home|where=home.*&season=/);
  await expect(eventCard(page, old)).toHaveCount(0);
});

test("cards: green when going, red with 'Zahlung erforderlich' for a bought, unpaid ticket of the member or their guest", async ({
  page,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const p = uniqueName('Farbe');
  const ownTitle = `${p} Eigenes (A)`;
  const guestTitle = `${p} Gast (A)`;
  const ownEvent = await admin.createEvent(ownTitle, daysAhead(4));
  const guestEvent = await admin.createEvent(guestTitle, daysAhead(6));
  const member = await admin.registeredMember(uniqueName('farbe'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const { user } = await memberApi.get('/api/auth/profile');

  await signInThroughForm(page, member.username, member.password);
  const own = eventCard(page, ownTitle);
  const guest = eventCard(page, guestTitle);
  await expect(own).not.toHaveClass(/event-attending|event-payment-required/);

  await own.getByRole('button', { name: 'Zusage' }).click();
  await expect(own).toHaveClass(/event-attending/);
  await expect(own).toHaveCSS('border-left-color', 'rgb(21, 128, 61)');
  await expect(own).not.toContainText('Zahlung erforderlich');
  // The card turns green from the device at once; the admin's purchase below needs the answer on the server.
  await expect
    .poll(async () =>
      (await admin.get(`/api/events/${ownEvent}`)).attendees.some((a: { user_id?: string }) => a.user_id === user.id),
    )
    .toBe(true);

  // A guest the member brings (the member does not go themselves): the admin buys the guest's ticket.
  await memberApi.post('/api/guests', { event_id: guestEvent, guest_name: 'Kalle Gast' });
  const guestRow = (await admin.get(`/api/events/${guestEvent}`)).attendees.find(
    (a: { guest_name?: string }) => a.guest_name === 'Kalle Gast',
  );
  await admin.put(`/api/attendees/${guestRow.id}`, { bought: true });
  await expect(guest).toHaveClass(/event-payment-required/);
  await expect(guest).toContainText('Zahlung erforderlich');

  // The member's own ticket is bought: red instead of green, live.
  await admin.put(`/api/tickets/event/${ownEvent}/user/${user.id}/status`, { bought: true });
  await expect(own).toHaveClass(/event-payment-required/);
  await expect(own).toContainText('Zahlung erforderlich');
  await expect(own).toHaveCSS('border-left-color', 'rgb(185, 28, 28)');

  // Paid: green again; the guest's debt stays.
  await admin.put(`/api/tickets/event/${ownEvent}/user/${user.id}/status`, { paid: true });
  await expect(own).not.toContainText('Zahlung erforderlich');
  await expect(own).toHaveClass(/event-attending/);
  await expect(guest).toContainText('Zahlung erforderlich');
});

test('create-event dialog: defaults, validation, rounding shown, the event arrives; offline it is disabled', async ({
  page,
  request,
  context,
}) => {
  test.skip(!inCurrentSeason(8), 'the offset crosses a season boundary today');
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('neu'));
  await signInThroughForm(page, member.username, member.password);

  await page.getByRole('button', { name: 'Neuer Termin' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neuer Termin' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Stunde')).toHaveValue('15');
  await expect(dialog.getByLabel('Minute')).toHaveValue('00');
  await expect(dialog.getByLabel('Minute').locator('option')).toHaveText(['00', '15', '30', '45']);
  await expect(dialog.getByLabel('Stunde').locator('option')).toHaveCount(24);

  await dialog.getByRole('button', { name: 'Termin anlegen' }).click();
  await expect(dialog.getByText('Titel ist erforderlich')).toBeVisible();
  await expect(dialog.getByText('Ein gültiges Datum ist erforderlich')).toBeVisible();
  await expect(dialog.getByText('Ort ist erforderlich')).toBeVisible();
  await expect(dialog.getByLabel('Titel')).toBeFocused();
  await expect(dialog.getByLabel('Titel')).toHaveAttribute('aria-invalid', 'true');

  const title = `${uniqueName('Neu')} (A)`;
  const day = daysAhead(8).slice(0, 10);
  await dialog.getByLabel('Titel').fill(title);
  await expect(dialog.getByText('Titel ist erforderlich')).toHaveCount(0);
  await dialog.getByLabel('Datum').fill(day);
  await dialog.getByLabel('Stunde').selectOption('18');
  await dialog.getByLabel('Minute').selectOption('30');
  const [y, m, d] = day.split('-');
  await expect(dialog.getByText(/^Anstoß: /)).toHaveText(new RegExp(`${d}\\.${m}\\.${y}, 18:30$`));
  await dialog.getByLabel('Ort', { exact: true }).fill('Vonovia Ruhrstadion');

  // The price is shown with two decimals, as it will be saved.
  const price = dialog.getByLabel('Ticketpreis (€)');
  // The one money input: a German comma is understood and said back as it will be saved…
  await price.fill('18,5');
  await expect(dialog.getByText('= 18,50 €')).toBeVisible();
  // …more than whole cents is refused with the reason, never rounded.
  await price.fill('12,345');
  await expect(dialog.getByText('Beträge haben höchstens zwei Nachkommastellen (Cent)')).toBeVisible();
  await price.fill('12,3');
  await price.blur();
  await expect(price).toHaveValue('12.30');
  await expect(dialog.getByText('Ticketpreis: 12,30 €')).toBeVisible();
  await dialog.getByLabel('Preis noch offen').check();
  await expect(price).toBeDisabled();
  await expect(dialog.getByText('Ticketpreis: noch offen')).toBeVisible();
  await dialog.getByLabel('Preis noch offen').uncheck();
  await expect(price).toHaveValue('12.30');

  // The typed '(A)' chose away.
  await expect(dialog.getByLabel('Auswärtsspiel (A)')).toBeChecked();
  await dialog.getByRole('button', { name: 'Termin anlegen' }).click();
  await expect(page.getByText(`Termin „${title}“ angelegt`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // The app opens the new event; the list has it too.
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.goBack();
  const card = eventCard(page, title);
  await expect(card).toContainText('12,30 €');
  await expect(card).toContainText(`${d}.${m}.${y}, 18:30`);
  const saved = (await admin.get('/api/events')).events.find((e: { title: string }) => e.title === title);
  expect([saved.date, saved.ticket_price, saved.location]).toEqual([`${day} 18:30:00`, 12.3, 'Vonovia Ruhrstadion']);

  // 'Not yet available' sends 0: the card says the price is open.
  const tba = `${uniqueName('Offen')} (A)`;
  await page.getByRole('button', { name: 'Neuer Termin' }).click();
  await dialog.getByLabel('Titel').fill(tba);
  await dialog.getByLabel('Datum').fill(day);
  await dialog.getByLabel('Ort', { exact: true }).fill('Bochum');
  await dialog.getByLabel('Ticketpreis (€)').fill('20');
  await dialog.getByLabel('Preis noch offen').check();
  await dialog.getByRole('button', { name: 'Termin anlegen' }).click();
  await expect(page.getByRole('heading', { name: tba, level: 1 })).toBeVisible();
  await page.goBack();
  await expect(eventCard(page, tba)).toContainText('noch offen');
  await expect(eventCard(page, tba)).toContainText(`${d}.${m}.${y}, 15:00`);

  // Escape closes without creating.
  await page.getByRole('button', { name: 'Neuer Termin' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // Offline: creating needs a connection.
  await context.setOffline(true);
  await expect(page.getByRole('button', { name: 'Neuer Termin' })).toBeDisabled();
  await expect(page.getByText('Zum Anlegen brauchst du eine Verbindung')).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole('button', { name: 'Neuer Termin' })).toBeEnabled();
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the filter, the cards and the create dialog fit the screen', async ({ page, request }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const title = `${uniqueName('Schmal')} – ein langer Titel für ein Auswärtsspiel (A)`;
    await admin.createEvent(title, daysAhead(2));
    const member = await admin.registeredMember(uniqueName('schmal'));
    await signInThroughForm(page, member.username, member.password);

    await expect(eventCard(page, title)).toBeVisible();
    const filter = page.getByRole('group', { name: 'Spielort' });
    await expect(filter).toBeVisible();
    const box = await filter.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Neuer Termin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Neuer Termin' });
    await expect(dialog).toBeVisible();
    const dialogBox = await dialog.boundingBox();
    expect(dialogBox && dialogBox.x >= 0 && dialogBox.x + dialogBox.width <= 360).toBe(true);
    await dialog.getByRole('button', { name: 'Termin anlegen' }).scrollIntoViewIfNeeded();
    await expect(dialog.getByRole('button', { name: 'Termin anlegen' })).toBeInViewport();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toHaveCount(0);
  });
});
