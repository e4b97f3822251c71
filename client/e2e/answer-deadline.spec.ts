import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, signInThroughForm, uniqueName } from './support.js';

/*
 * Answer deadlines (docs/product.md, Answer deadlines and reminders) as a member meets them on a
 * phone, in German and in English: the card and the event page show the deadline and the time left,
 * after it "Antwortfrist abgelaufen" and the answer buttons and guests are off; the create dialog
 * takes a deadline; the admin sets the reminder times in the team configuration.
 */

const PHONE = { viewport: { width: 360, height: 740 } };
const DEFAULTS = { team_id: 553, team_name: '1. FC Union Berlin', site_title: 'Fankurve', theme_color: '#00397D' };

/** The club's wall-clock time (Europe/Berlin, the e2e server's CLUB_TIME_ZONE) `minutes` from now: `YYYY-MM-DD HH:MM`. */
function clubIn(minutes: number): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(Date.now() + minutes * 60_000));
}

/** The horizontal overflow of the page (0: nothing wider than the screen). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** An open event (answers close in two days and a bit) and a closed one (an hour ago), both ahead. */
async function twoEvents(admin: Api, prefix: string) {
  const open = (
    await admin.post('/api/events', {
      title: `${prefix} Offen (A)`,
      date: daysAhead(5),
      location: 'Stadion',
      answer_deadline: clubIn(2 * 24 * 60 + 120),
    })
  ).event.id as string;
  const closed = (
    await admin.post('/api/events', {
      title: `${prefix} Zu (A)`,
      date: daysAhead(6),
      location: 'Stadion',
      answer_deadline: clubIn(-60),
    })
  ).event.id as string;
  return { open, closed, openTitle: `${prefix} Offen (A)`, closedTitle: `${prefix} Zu (A)` };
}

test.describe('at 360 px', () => {
  test.use(PHONE);

  test('a member sees the deadline with the time left, and after it answers and guests are closed (German)', async ({
    page,
    request,
  }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const p = uniqueName('Frist');
    const events = await twoEvents(admin, p);
    const member = await admin.registeredMember(uniqueName('frist-fan'));
    await signInThroughForm(page, member.username, member.password);

    const open = eventCard(page, events.openTitle);
    await expect(open.locator('.answer-deadline dt')).toHaveText('Antworten bis');
    await expect(open.locator('.answer-deadline dd')).toHaveText(
      /^(Mo|Di|Mi|Do|Fr|Sa|So)\. \d\d\.\d\d\. \d\d:\d\d · noch 2 Tage$/,
    );
    await expect(open.getByRole('button', { name: 'Zusage' })).toBeEnabled();

    const closed = eventCard(page, events.closedTitle);
    await expect(closed.locator('.answer-deadline dd')).toHaveText(/ · Antwortfrist abgelaufen$/);
    for (const name of ['Zusage', 'Vielleicht', 'Absage']) await expect(closed.getByRole('button', { name })).toBeDisabled();
    await expect(closed.getByRole('group', { name: 'Deine Antwort' })).toHaveAccessibleDescription(/Antwortfrist abgelaufen/);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('deadline-cards-de-360.png'), fullPage: true });

    // The open one takes an answer from the card.
    await open.getByRole('button', { name: 'Zusage' }).click();
    await expect(open.getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');

    // The closed one's page: the deadline, the reason, nothing to press.
    await page.goto(`/events/${events.closed}`);
    await expect(page.getByRole('heading', { name: events.closedTitle, level: 1 })).toBeVisible();
    await expect(page.locator('.detail-facts .answer-deadline dd')).toHaveText(/ · Antwortfrist abgelaufen$/);
    await expect(page.getByText('Die Antwortfrist ist abgelaufen: deine Antwort lässt sich nicht mehr ändern.')).toBeVisible();
    for (const name of ['Zusage', 'Vielleicht', 'Absage']) {
      await expect(page.getByRole('group', { name: 'Deine Antwort' }).getByRole('button', { name })).toBeDisabled();
    }
    await expect(
      page.getByText('Die Antwortfrist ist abgelaufen: Gäste lassen sich nicht mehr hinzufügen oder ändern.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Gast hinzufügen' })).toBeDisabled();
    // Members do not see who was reminded.
    await expect(page.getByRole('heading', { name: 'Erinnerungen' })).toHaveCount(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('deadline-page-de-360.png'), fullPage: true });

    // The open one's page counts down.
    await page.goto(`/events/${events.open}`);
    await expect(page.locator('.detail-facts .answer-deadline dd')).toHaveText(/ · noch 2 Tage$/);
    await expect(page.getByRole('group', { name: 'Deine Antwort' }).getByRole('button', { name: 'Vielleicht' })).toBeEnabled();
  });

  test('the same in English, and a deadline given in the create dialog shows on the new event', async ({ browser, request }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const p = uniqueName('Deadline');
    const events = await twoEvents(admin, p);
    const member = await admin.registeredMember(uniqueName('deadline-en'));
    const api = await Api.signIn(request, member.username, member.password);
    const id = (await api.get('/api/auth/profile')).user.id as string;
    // Signed in in German (the form's words), then the member's language becomes English.
    const { context, page } = await memberPage(browser, member, PHONE);
    await api.put(`/api/auth/users/${id}`, { language: 'en' });
    await page.goto('/events');
    await expect(page.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();

    const open = eventCard(page, events.openTitle);
    await expect(open.locator('.answer-deadline dt')).toHaveText('Answer by');
    await expect(open.locator('.answer-deadline dd')).toHaveText(
      /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d\d:\d\d · 2 days left$/,
    );
    const closed = eventCard(page, events.closedTitle);
    await expect(closed.locator('.answer-deadline dd')).toHaveText(/ · Answers closed$/);
    await expect(closed.getByRole('button', { name: 'Going', exact: true })).toBeDisabled();
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await page.goto(`/events/${events.closed}`);
    await expect(page.getByText('The answer deadline has passed: your answer can no longer be changed.')).toBeVisible();
    await expect(page.getByText('The answer deadline has passed: guests can no longer be added or changed.')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Your answer' }).getByRole('button', { name: 'Maybe' })).toBeDisabled();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('deadline-page-en-360.png'), fullPage: true });

    // A new event with a deadline, from the dialog: first one after the event (refused on the device), then a right one.
    await page.goto('/events');
    await page.getByRole('button', { name: 'New event' }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    const title = `${p} Stammtisch`;
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Other (no match)').check();
    const day = daysAhead(10).slice(0, 10);
    await dialog.getByLabel('Date').fill(day);
    await dialog.getByLabel('Location', { exact: true }).fill('Vereinsheim');
    await dialog.getByLabel(/^Answer deadline/).fill(`${daysAhead(11).slice(0, 10)}T12:00`);
    await dialog.getByRole('button', { name: 'Create event' }).click();
    await expect(dialog.getByText('The answer deadline must lie before the event')).toBeVisible();
    await dialog.getByLabel(/^Answer deadline/).fill(`${daysAhead(8).slice(0, 10)}T20:00`);
    await dialog.getByRole('button', { name: 'Create event' }).click();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.locator('.detail-facts .answer-deadline dd')).toHaveText(/ 20:00 · (7|8) days left$/);
    await context.close();
  });
});

test.describe('the admin', () => {
  test.afterEach(async ({ request }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    await admin.put('/api/config', {
      ...DEFAULTS,
      reminder_days_before: 3,
      deadline_reminder_hours: 24,
      payment_reminder_days: 14,
    });
  });

  test('still answers after the deadline and sees who was reminded (online only)', async ({ browser, request }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const events = await twoEvents(admin, uniqueName('Admin'));
    const { context, page } = await memberPage(browser, ADMIN, PHONE);
    await page.goto(`/events/${events.closed}`);
    await expect(page.locator('.detail-facts .answer-deadline dd')).toHaveText(/ · Antwortfrist abgelaufen$/);
    const answer = page.getByRole('group', { name: 'Deine Antwort' });
    await answer.getByRole('button', { name: 'Vielleicht' }).click();
    await expect(answer.getByRole('button', { name: 'Vielleicht' })).toHaveAttribute('aria-pressed', 'true');
    const reminders = page.getByRole('region', { name: 'Erinnerungen' });
    await expect(reminders.getByText('Bisher wurde niemand erinnert.')).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await context.setOffline(true);
    await expect(reminders.getByText('Die Erinnerungen kommen vom Server')).toBeVisible();
    await context.setOffline(false);
    await expect(reminders.getByText('Bisher wurde niemand erinnert.')).toBeVisible();
    await context.close();
  });

  test('sets the reminder times (to answer, to pay) in the team configuration; bad ones are refused on the device', async ({
    browser,
    request,
  }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const { context, page } = await memberPage(browser, ADMIN, PHONE);
    await page.goto('/config');
    const days = page.getByLabel('Tage vor dem Termin');
    const hours = page.getByLabel('Stunden vor der Antwortfrist');
    await expect(days).toHaveValue('3');
    await expect(hours).toHaveValue('24');
    await days.fill('15');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Die Erinnerung vor dem Termin muss eine ganze Zahl von 0 bis 14 Tagen sein')).toBeVisible();
    expect((await admin.get('/api/config')).config.reminder_days_before).toBe(3);
    await days.fill('5');
    await hours.fill('0');
    // The reminder to pay, in its own part of the form.
    const payments = page.getByRole('group', { name: 'Zahlungserinnerungen' }).getByLabel('Tage bis zur Erinnerung');
    await expect(payments).toHaveValue('14');
    await payments.fill('91');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Die Zahlungserinnerung muss eine ganze Zahl von 0 bis 90 Tagen sein')).toBeVisible();
    expect((await admin.get('/api/config')).config).toMatchObject({ reminder_days_before: 3, payment_reminder_days: 14 });
    await payments.fill('21');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('status').getByText('Konfiguration gespeichert')).toBeVisible();
    expect((await admin.get('/api/config')).config).toMatchObject({
      reminder_days_before: 5,
      deadline_reminder_hours: 0,
      payment_reminder_days: 21,
    });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('heading', { name: 'Erinnerungen an Mitglieder ohne Antwort' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('reminder-config-de-360.png'), fullPage: true });
    await context.close();
  });
});
