import { expect, test } from '@playwright/test';
import { ADMIN, Api, memberPage, uniqueName } from './support.js';

/**
 * Members from a spreadsheet (docs/architecture.md, Member import): on a 360 px phone the admin
 * chooses a CSV file written in ISO-8859-1 (as older spreadsheet programs do), checks it, reads each
 * row's problem in German, and creates the valid rows; the same list checked again names them as
 * existing accounts.
 */
test('the admin imports members from an ISO-8859-1 file at 360 px', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const existing = await admin.registeredMember(uniqueName('imp-da'));
  const jurgen = uniqueName('Jürgen-');
  const grete = uniqueName('grete-');
  const list = [
    'Benutzername;E-Mail;Sprache;Rolle;Treuepunkte;Notiz',
    `${jurgen};${jurgen.replace('ü', 'ue')}@example.org;de;Mitglied;3;Auswärtsfahrer`,
    `${grete};${grete}@example.org;en;;;`,
    `${grete.toUpperCase()};other-${grete}@example.org;;;;`,
    `${uniqueName('kaputt-')};keine-adresse;;;;`,
    `${existing.username};${uniqueName('neu-')}@example.org;;;;`,
  ].join('\r\n');

  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 800 } });
  await page.goto('/users');
  const section = page.locator('section.member-import');
  await expect(section.getByRole('heading', { name: 'Mitglieder importieren' })).toBeVisible();
  await section.locator('input[type="file"]').setInputFiles({
    name: 'mitglieder.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(list, 'latin1'),
  });
  // Decoded as ISO-8859-1: the umlauts are letters, not replacement characters.
  await expect(section.getByLabel('Liste (oder hier einfügen)')).toHaveValue(new RegExp(`${jurgen};`));
  await section.getByRole('button', { name: 'Prüfen' }).click();
  await expect(section.getByText('2 von 5 Zeilen können angelegt werden.')).toBeVisible();
  const table = section.locator('table');
  // A name as a case-sensitive pattern: a plain text would also find the row of its upper-case twin.
  const row = (name: string) =>
    table.locator('tbody tr', { hasText: new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first();
  await expect(row(jurgen)).toContainText('Wird angelegt');
  await expect(row(grete.toUpperCase())).toContainText('Eine frühere Zeile der Liste hat denselben Namen');
  await expect(table.locator('tbody tr', { hasText: 'keine-adresse' })).toContainText(
    'Die E-Mail-Adresse fehlt oder ist ungültig',
  );
  await expect(row(existing.username)).toContainText('Ein Konto mit diesem Namen oder dieser E-Mail-Adresse gibt es schon');
  // The page fits the phone; the table scrolls in its own box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await section.getByRole('button', { name: '2 Mitglieder anlegen' }).click();
  await expect(page.getByText('2 Mitglieder angelegt; die E-Mails mit dem Link sind unterwegs.')).toBeVisible();
  await expect(row(jurgen)).toContainText('Angelegt');
  await expect(page.locator('.users-table').getByRole('link', { name: jurgen })).toBeVisible();
  const { users } = await admin.get('/api/auth/users');
  expect(users.find((user: { username: string }) => user.username === jurgen)).toMatchObject({ language: 'de', scope: 'user' });

  // The same list again creates nothing.
  await section.getByRole('button', { name: 'Prüfen' }).click();
  await expect(section.getByText('0 von 5 Zeilen können angelegt werden.')).toBeVisible();
  await expect(row(jurgen)).toContainText('gibt es schon');
  await expect(section.getByRole('button', { name: /anlegen$/ })).toHaveCount(0);
  await context.close();
});
