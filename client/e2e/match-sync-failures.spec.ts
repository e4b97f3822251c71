import { expect, test, type Page } from '@playwright/test';
import { startFixtureServer, type FixtureServer } from '../../server/test/fixture-server.js';
import { ADMIN, signInThroughForm } from './support.js';

/*
 * A failed fixture import in words a club's admin understands (docs/architecture.md, "Fixture
 * import"), the server's technical detail behind a disclosure. The e2e server's FOOTBALL_DATA_URL is
 * 127.0.0.1:4917 (playwright.config.ts): nothing listening there is the unreachable service.
 */

const FEED_PORT = 4917;

async function syncAndRead(page: Page) {
  await page.getByRole('button', { name: 'Spiele synchronisieren' }).click();
  const dialog = page.getByRole('dialog', { name: 'Spielimport' });
  await expect(dialog.getByText('Spiele konnten nicht synchronisiert werden')).toBeVisible();
  return dialog;
}

async function close(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Spielimport' });
  await dialog.locator('.modal-actions').getByRole('button', { name: 'Schließen' }).click();
  await expect(dialog).toHaveCount(0);
}

test('the unreachable service, its error answer and an unreadable answer each get their own sentence, the detail folded', async ({
  page,
}) => {
  await signInThroughForm(page, ADMIN.username, ADMIN.password);

  // Nothing listens: unreachable.
  let dialog = await syncAndRead(page);
  await expect(
    dialog.getByText(
      'Der Fußball-Datendienst ist nicht erreichbar. Prüfe die Internetverbindung des Servers und versuche es später noch einmal.',
    ),
  ).toBeVisible();
  const detail = dialog.locator('details');
  await expect(detail.getByText('matchServiceUnreachable:', { exact: false })).toBeHidden();
  await detail.getByText('Technische Details').click();
  await expect(detail.getByText('matchServiceUnreachable:', { exact: false })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('unreachable-de.png') });
  await close(page);

  const feed: FixtureServer = await startFixtureServer({ port: FEED_PORT });
  try {
    feed.answer('/getmatchesbyteamid/', { status: 500, text: 'Internal Server Error' });
    dialog = await syncAndRead(page);
    await expect(dialog.getByText('Der Fußball-Datendienst hat gerade einen Fehler gemeldet.', { exact: false })).toBeVisible();
    await expect(dialog.locator('details code')).toContainText('matchServiceError');
    await close(page);

    feed.answer('/getmatchesbyteamid/', { text: 'kein JSON', contentType: 'application/json' });
    dialog = await syncAndRead(page);
    await expect(dialog.getByText('eine Antwort geschickt, die Fankurve nicht lesen kann', { exact: false })).toBeVisible();
    await expect(dialog.locator('details code')).toContainText('matchServiceBadAnswer');
    await close(page);
  } finally {
    await feed.close();
  }
});
