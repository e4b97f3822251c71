import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

/** The card of a stadium in the management tab, by its name. */
const stadiumCard = (page: Page, name: string) => page.getByRole('article', { name });

test('an admin adds a stadium and its ticket prices, edits it, opens its detail page with events', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const name = `${uniqueName('Arena')} Ruhrstadion`;
  await signInThroughForm(page, ADMIN.username, ADMIN.password);

  await page.getByRole('navigation').getByRole('link', { name: 'Konfiguration' }).click();
  await expect(page).toHaveURL(/\/config$/);
  await expect(page.getByRole('heading', { name: 'Konfiguration', level: 1 })).toBeVisible();
  // Team configuration is the first tab; stadium management the second.
  await expect(page.getByRole('tab')).toHaveText(['Teamkonfiguration', 'Stadionverwaltung']);
  await page.getByRole('tab', { name: 'Stadionverwaltung' }).click();
  await expect(page).toHaveURL(/\/config\?tab=stadiums$/);
  await expect(page.getByRole('tab', { name: 'Stadionverwaltung' })).toHaveAttribute('aria-selected', 'true');

  // Add: team name, stadium name and city are required.
  await page.getByRole('button', { name: 'Stadion hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stadion hinzufügen' });
  await expect(dialog.getByLabel('Kapazität', { exact: true })).toHaveValue('0');
  await expect(dialog.getByLabel('Gästeblock-Kapazität')).toHaveValue('0');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog.getByText('Teamname ist erforderlich')).toBeVisible();
  await expect(dialog.getByText('Stadionname ist erforderlich')).toBeVisible();
  await expect(dialog.getByText('Stadt ist erforderlich')).toBeVisible();
  await dialog.getByLabel('Teamname').fill('VfL Bochum');
  await dialog.getByLabel('Stadionname').fill(name);
  await dialog.getByLabel('Stadt').fill('Bochum');
  await dialog.getByLabel('Kapazität', { exact: true }).fill('26000');
  await dialog.getByLabel('Gästeblock-Kapazität').fill('3500');
  await dialog.getByLabel('Adresse').fill('Castroper Str. 145');
  await dialog.getByLabel('Ticketpreis (€)').fill('18.5');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Stadion hinzugefügt')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const card = stadiumCard(page, name);
  await expect(card).toContainText('VfL Bochum · Bochum');
  await expect(card).toContainText('26.000');
  await expect(card).toContainText('3.500');
  await expect(card).toContainText('18,50 €');
  await expect(card).toContainText('Noch keine Ticketpreise.');
  const stadium = (await admin.get('/api/stadiums')).stadiums.find((s: { stadium_name: string }) => s.stadium_name === name);
  expect([stadium.capacity, stadium.guest_block_capacity, stadium.ticket_price, stadium.address]).toEqual([
    26000,
    3500,
    18.5,
    'Castroper Str. 145',
  ]);

  // Ticket prices: both fields are needed.
  await card.getByRole('button', { name: 'Preis hinzufügen' }).click();
  await expect(card.getByRole('alert')).toHaveText('Bitte fülle alle Felder aus');
  await card.getByLabel('Ticketart').fill('Stehplatz');
  await card.getByRole('button', { name: 'Preis hinzufügen' }).click();
  await expect(card.getByRole('alert')).toHaveText('Bitte fülle alle Felder aus');
  await card.getByLabel('Preis (€)').fill('15');
  await card.getByRole('button', { name: 'Preis hinzufügen' }).click();
  await expect(page.getByText('Ticketpreis hinzugefügt')).toBeVisible();
  await expect(card.locator('.price-list')).toContainText('Stehplatz15,00 €');
  await expect(card.getByLabel('Ticketart')).toHaveValue('');
  await card.getByLabel('Ticketart').fill('Sitzplatz');
  await card.getByLabel('Preis (€)').fill('32.5');
  await card.getByRole('button', { name: 'Preis hinzufügen' }).click();
  await expect(card.locator('.price-list li')).toHaveText(['Stehplatz15,00 €×', 'Sitzplatz32,50 €×']);

  // Delete a price, confirmed.
  await card.getByRole('button', { name: 'Ticketpreis Sitzplatz löschen' }).click();
  const confirm = page.getByRole('dialog', { name: 'Ticketpreis löschen?' });
  await expect(confirm).toContainText('Sitzplatz (32,50 €)');
  await confirm.getByRole('button', { name: 'Löschen', exact: true }).click();
  await expect(page.getByText('Ticketpreis gelöscht')).toBeVisible();
  await expect(card.locator('.price-list li')).toHaveText(['Stehplatz15,00 €×']);

  // Edit: the form holds the stadium's values.
  await card.getByRole('button', { name: 'Bearbeiten' }).click();
  const edit = page.getByRole('dialog', { name: 'Stadion bearbeiten' });
  await expect(edit.getByLabel('Stadionname')).toHaveValue(name);
  await expect(edit.getByLabel('Ticketpreis (€)')).toHaveValue('18.50');
  await edit.getByLabel('Stadt').fill('Bochum-Grumme');
  await edit.getByLabel('Ticketpreis (€)').fill('');
  await edit.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Stadion gespeichert')).toBeVisible();
  await expect(card).toContainText('VfL Bochum · Bochum-Grumme');
  const edited = (await admin.get('/api/stadiums')).stadiums.find((s: { id: string }) => s.id === stadium.id);
  expect([edited.city, edited.ticket_price]).toEqual(['Bochum-Grumme', null]);

  // Events at the stadium: six upcoming and one past; the detail page shows at most five upcoming.
  const p = uniqueName('Stadionspiel');
  for (const days of [30, 2, 16, 9, 23, 40]) {
    await admin.post('/api/events', {
      title: `${p} +${days} (A)`,
      date: daysAhead(days),
      location: 'Bochum',
      stadium_id: stadium.id,
    });
  }
  await admin.post('/api/events', { title: `${p} -5 (A)`, date: daysAhead(-5), location: 'Bochum', stadium_id: stadium.id });

  await card.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/stadiums/${stadium.id}$`));
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('VfL Bochum · Bochum-Grumme')).toBeVisible();
  await expect(page.locator('.stadium-facts-card .price-list')).toContainText('Stehplatz15,00 €');
  const upcoming = page.getByRole('region', { name: 'Nächste Termine' });
  await expect(upcoming.getByRole('link')).toHaveCount(5);
  await expect(upcoming.locator('.stadium-event-title')).toHaveText([2, 9, 16, 23, 30].map((d) => `${p} +${d} (A)`));
  const recent = page.getByRole('region', { name: 'Letzte Termine' });
  await expect(recent.locator('.stadium-event-title')).toHaveText([`${p} -5 (A)`]);

  await upcoming.getByRole('link', { name: `${p} +2 (A)` }).click();
  await expect(page).toHaveURL(/\/events\/[^/]+$/);
  await page.goBack();
  await page.getByRole('link', { name: 'Zurück zur Konfiguration' }).click();
  await expect(page).toHaveURL(/\/config\?tab=stadiums$/);

  // A stadium that events use cannot be deleted: the dialog names those events instead.
  await stadiumCard(page, name).getByRole('button', { name: 'Löschen', exact: true }).click();
  const inUse = page.getByRole('dialog', { name: 'Stadion wird noch verwendet' });
  await expect(inUse.getByRole('link')).toHaveCount(7);
  await expect(inUse).toContainText(`${p} -5 (A)`);
  await expect(inUse.getByRole('button', { name: 'Löschen', exact: true })).toHaveCount(0);
  await inUse.getByRole('button', { name: 'Schließen' }).last().click();
  await expect(stadiumCard(page, name)).toBeVisible();
});

test('an unused stadium is deleted after confirmation', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const name = `${uniqueName('Abriss')} Stadion`;
  await admin.post('/api/stadiums', { team_name: 'Alte Liebe', stadium_name: name, city: 'Irgendwo' });
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/config?tab=stadiums');
  const card = stadiumCard(page, name);
  await card.getByRole('button', { name: 'Löschen', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Stadion löschen?' });
  await expect(confirm).toContainText(name);
  // Cancel keeps it.
  await confirm.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Löschen', exact: true }).click();
  await confirm.getByRole('button', { name: 'Löschen', exact: true }).click();
  await expect(page.getByText('Stadion gelöscht')).toBeVisible();
  await expect(card).toHaveCount(0);
});

test("a member sees 'Admin access required' on the config and stadium pages and no config link", async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const created = await admin.post('/api/stadiums', { team_name: 'Team', stadium_name: uniqueName('Geheim'), city: 'Stadt' });
  const member = await admin.registeredMember(uniqueName('mitglied'));
  await signInThroughForm(page, member.username, member.password);

  await expect(page.getByRole('navigation').getByRole('link', { name: 'Konfiguration' })).toHaveCount(0);
  await page.goto('/config');
  await expect(page.getByText('Administratorrechte erforderlich')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stadion hinzufügen' })).toHaveCount(0);
  await page.goto(`/stadiums/${created.stadium.id}`);
  await expect(page.getByText('Administratorrechte erforderlich')).toBeVisible();
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the config link is in the folded menu and the stadium management fits the screen', async ({ page, request }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const name = `${uniqueName('Schmal')} Stadion an der Alten Försterei`;
    await admin.post('/api/stadiums', { team_name: '1. FC Union Berlin', stadium_name: name, city: 'Berlin', capacity: 22012 });
    await signInThroughForm(page, ADMIN.username, ADMIN.password);

    await page.getByRole('button', { name: 'Menü' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Konfiguration' }).click();
    await expect(page).toHaveURL(/\/config$/);
    await page.getByRole('tab', { name: 'Stadionverwaltung' }).click();
    const card = stadiumCard(page, name);
    await expect(card).toContainText('22.012');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await card.getByRole('button', { name: 'Preis hinzufügen' }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);

    await page.getByRole('button', { name: 'Stadion hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stadion hinzufügen' });
    const dialogBox = await dialog.boundingBox();
    expect(dialogBox && dialogBox.x >= 0 && dialogBox.x + dialogBox.width <= 360).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });
});
