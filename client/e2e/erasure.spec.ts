import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/**
 * Erasure with retention (docs/product.md, Data protection; docs/architecture.md, Erasure and
 * retention): a member erases their own account on /profile with their password and a confirmation
 * and lands on the sign-in page; their comment stays in its place as "Kommentar gelöscht" under the
 * pseudonym, which the admin also finds under "Gelöschte Konten" on /users. A balance other than zero
 * is told up front, and the server refuses the erasure.
 */

const PHONE = { viewport: { width: 360, height: 800 } };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
/** Where the screenshots for looking at the layout go, when asked for. */
const SHOTS = process.env.ERASURE_SHOTS_DIR;

const eraseSection = (page: Page) => page.getByTestId('erase-account');
const comment = (page: Page, text: string) => page.locator('section#comments li.comment', { hasText: text });

async function noSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

/** The password typed into the section, the red button, and the confirmation's button. */
async function eraseWith(page: Page, password: string): Promise<void> {
  const section = eraseSection(page);
  await section.getByLabel('Passwort zur Bestätigung').fill(password);
  await section.getByRole('button', { name: 'Konto löschen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Konto löschen' });
  await expect(dialog).toContainText('Wirklich löschen? Das kann nicht rückgängig gemacht werden.');
  await dialog.getByRole('button', { name: 'Endgültig löschen' }).click();
}

test('a member erases their account on /profile: a wrong password changes nothing, the right one signs them out for good', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('weg-'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const title = `${uniqueName('Kiel ')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(9));
  const text = 'Ich fahre mit dem Zug und bringe Fahnen mit.';
  await memberApi.post(`/api/comments/event/${eventId}`, { comment: text });

  const { context, page } = await memberPage(browser, member, PHONE);
  await page.goto('/profile');
  const section = eraseSection(page);
  await expect(section.getByRole('heading', { name: 'Konto löschen', level: 2 })).toBeVisible();
  await expect(section).toContainText('Sofort gelöscht werden dein Name, deine E-Mail-Adresse, dein Passwort');
  await expect(section).toContainText('„Ehemaliges Mitglied N“');
  await expect(section.getByRole('link', { name: 'Mehr dazu in der Datenschutzerklärung' })).toHaveAttribute(
    'href',
    '/datenschutz',
  );
  // Nothing owed: no reason to wait.
  await expect(section.getByTestId('erasure-problem')).toHaveCount(0);
  await noSidewaysScroll(page, '/profile at 360 px');
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/erasure-profile-360.png` });

  // Cancelling the confirmation sends nothing.
  await section.getByLabel('Passwort zur Bestätigung').fill(member.password);
  await section.getByRole('button', { name: 'Konto löschen' }).click();
  await page.getByRole('dialog', { name: 'Konto löschen' }).getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A wrong password: the server's message, and nothing changed.
  await eraseWith(page, 'not-the-password');
  await expect(section.getByRole('alert')).toHaveText('Das Passwort stimmt nicht; es wurde nichts gelöscht');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profil', level: 1 })).toBeVisible();
  expect((await memberApi.get('/api/auth/profile')).user.username).toBe(member.username);
  expect((await memberApi.get(`/api/comments/event/${eventId}`)).comments.map((c: any) => c.comment)).toEqual([text]);
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/erasure-profile-wrong-password-360.png` });

  // The right password: signed out on this device, the sign-in page says why.
  await eraseWith(page, member.password);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('session-farewell')).toHaveText('Dein Konto wurde gelöscht');
  await noSidewaysScroll(page, '/login at 360 px');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/erasure-login-360.png` });
  // The device keeps nothing of the session.
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('profile')])).toEqual([null, null]);

  // The account is gone: its name and password sign nobody in.
  await page.getByLabel('Benutzername').fill(member.username);
  await page.getByLabel('Passwort').fill(member.password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Benutzername oder Passwort ist falsch' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect((await request.post('/api/auth/login', { data: member })).status()).toBe(401);
  await context.close();

  // The admin finds the account apart, under its pseudonym; nothing of it is kept for the books.
  const erased = (await admin.get('/api/auth/users/erased')).users.find((user: any) => user.id === member.id);
  expect(erased).toMatchObject({ kept_until: null, ledger_entries: 0, tickets: 0 });
  const pseudonym = `Ehemaliges Mitglied ${erased.former_number}`;
  const adminSide = await memberPage(browser, ADMIN, DESKTOP);
  await adminSide.page.goto('/users');
  const erasedSection = adminSide.page.getByTestId('erased-accounts');
  await expect(erasedSection.getByRole('heading', { name: 'Gelöschte Konten', level: 2 })).toBeVisible();
  const row = erasedSection.getByRole('row', { name: new RegExp(`^${pseudonym} `) });
  await expect(row).toContainText('nichts aufbewahrt');
  await expect(adminSide.page.getByRole('link', { name: member.username, exact: true })).toHaveCount(0);
  if (SHOTS) await erasedSection.screenshot({ path: `${SHOTS}/erasure-users-1280.png` });

  // The comment keeps its place: deleted, under the pseudonym; the admin may only remove it.
  await adminSide.page.goto(`/events/${eventId}`);
  const kept = adminSide.page.locator('section#comments li.comment', { hasText: pseudonym });
  await expect(kept.locator('.comment-text')).toHaveText('Kommentar gelöscht');
  await expect(kept.getByRole('button')).toHaveText(['Löschen']);
  if (SHOTS) await kept.screenshot({ path: `${SHOTS}/erasure-comment-1280.png` });
  await adminSide.context.close();

  // In English the pseudonym and the deleted comment read in English.
  const reader = await admin.registeredMember(uniqueName('reader-'));
  const readerApi = await Api.signIn(request, reader.username, reader.password);
  const readerSide = await memberPage(browser, reader, PHONE);
  await readerApi.put(`/api/auth/users/${reader.id}`, { language: 'en' });
  await readerSide.page.goto(`/events/${eventId}`);
  const english = comment(readerSide.page, `Former member ${erased.former_number}`);
  await expect(english.locator('.comment-text')).toHaveText('Comment deleted');
  await expect(english.getByRole('button')).toHaveCount(0);
  await expect(readerSide.page.locator('section#comments')).not.toContainText(pseudonym);
  await noSidewaysScroll(readerSide.page, 'the event page at 360 px');
  if (SHOTS) await english.screenshot({ path: `${SHOTS}/erasure-comment-en-360.png` });
  await readerSide.context.close();
});

test('a member with a balance sees why erasure waits, and the server refuses it', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('schuld-'));
  await admin.post('/api/ledger/entries', { user_id: member.id, kind: 'charge', amount: 12, note: 'Busplatz Kiel' });
  const reason =
    'Der Kontostand ist nicht ausgeglichen: Die Löschung wartet, bis Offenes bezahlt oder von einem Admin erlassen und ein Guthaben ausgezahlt ist';

  const { context, page } = await memberPage(browser, member, PHONE);
  await page.goto('/profile');
  const section = eraseSection(page);
  // Told up front, from the ledger on the device.
  await expect(section.getByTestId('erasure-problem')).toHaveText(reason);
  await noSidewaysScroll(page, '/profile with the reason at 360 px');
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/erasure-profile-balance-360.png` });

  // The server is the judge: it answers 409 with the same reason, and the member stays signed in.
  await eraseWith(page, member.password);
  await expect(section.getByRole('alert')).toHaveText(reason);
  await expect(page).toHaveURL(/\/profile$/);
  expect((await admin.get('/api/auth/users/erased')).users.some((user: any) => user.id === member.id)).toBe(false);

  // Offline the button is off and says why.
  await context.setOffline(true);
  await expect(section.getByRole('button', { name: 'Konto löschen' })).toBeDisabled();
  await expect(section.getByText('Das Löschen braucht eine Internetverbindung.')).toBeVisible();
  await context.close();

  // The admin's delete on /users says what erasure does, and the server refuses it the same way.
  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN, PHONE);
  await adminPage.goto('/users');
  const userRow = adminPage.getByRole('row').filter({ has: adminPage.getByRole('link', { name: member.username }) });
  const dialog = adminPage.getByRole('dialog', { name: 'Benutzer löschen' });
  await userRow.getByRole('button', { name: 'Löschen' }).click();
  await expect(dialog).toContainText('Buchungen und gekaufte Tickets bleiben unter „Ehemaliges Mitglied N“');
  if (SHOTS) await dialog.screenshot({ path: `${SHOTS}/erasure-admin-confirm-360.png` });
  await dialog.getByRole('button', { name: 'Löschen' }).click();
  await expect(adminPage.getByRole('alert').filter({ hasText: reason })).toBeVisible();
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(userRow).toBeVisible();

  // Paid: the admin erases them; the books keep both entries under the pseudonym until the retention ends.
  await admin.post('/api/ledger/entries', { user_id: member.id, kind: 'payment', amount: 12, note: 'Bar' });
  await userRow.getByRole('button', { name: 'Löschen' }).click();
  await dialog.getByRole('button', { name: 'Löschen' }).click();
  await expect(adminPage.getByRole('status').filter({ hasText: 'Benutzer gelöscht' })).toBeVisible();
  await expect(userRow).toHaveCount(0);
  const erased = (await admin.get('/api/auth/users/erased')).users.find((user: any) => user.id === member.id);
  expect(erased).toMatchObject({ ledger_entries: 2, tickets: 0 });
  const [year, month, day] = (erased.kept_until as string).split('-');
  const row = adminPage
    .getByTestId('erased-accounts')
    .getByRole('row', { name: new RegExp(`^Ehemaliges Mitglied ${erased.former_number} `) });
  await expect(row).toContainText(`bis ${day}.${month}.${year}`);
  await expect(row.getByRole('cell').nth(3)).toHaveText('2');
  await noSidewaysScroll(adminPage, '/users at 360 px');
  if (SHOTS) await adminPage.getByTestId('erased-accounts').screenshot({ path: `${SHOTS}/erasure-users-360.png` });
  await adminContext.close();
});

test('the admin sets the retention on /config, checked by the shared rule before saving', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const { context, page } = await memberPage(browser, ADMIN, PHONE);
  try {
    await page.goto('/config');
    const field = page.getByLabel('Aufbewahrung (Jahre)');
    await expect(field).toHaveValue('10');
    await expect(page.getByText('Bücher 10 Jahre (§ 147 AO), Belege 8.')).toBeVisible();
    await field.fill('7');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Die Aufbewahrung muss eine ganze Zahl von 8 bis 30 Jahren sein')).toBeVisible();
    await expect(field).toBeFocused();
    expect((await admin.get('/api/config')).config.retention_years).toBe(10);
    await noSidewaysScroll(page, '/config at 360 px');
    if (SHOTS) await page.locator('fieldset', { has: field }).screenshot({ path: `${SHOTS}/erasure-config-360.png` });

    await field.fill('12');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Konfiguration gespeichert' })).toBeVisible();
    expect((await admin.get('/api/config')).config.retention_years).toBe(12);
  } finally {
    const { config } = await admin.get('/api/config');
    const { team_id, team_name, site_title, theme_color } = config;
    await admin.put('/api/config', { team_id, team_name, site_title, theme_color, retention_years: 10 });
    await context.close();
  }
});
