import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { ADMIN, Api, memberPage, uniqueName } from './support.js';

/**
 * "My data" (docs/architecture.md, Data export): a member downloads everything the app keeps about
 * them from /profile; the download is a ZIP whose profile.json names them. Offline the button is off.
 */
test('a member downloads their data as a ZIP from /profile', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('daten-'));
  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 800 }, acceptDownloads: true });
  await page.goto('/profile');
  const button = page.getByRole('button', { name: 'Meine Daten herunterladen' });
  await expect(button).toBeEnabled();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^fankurve-${member.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  const files = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['profile.json', 'answers.csv', 'ledger.json']));
  const profile = JSON.parse(strFromU8(files['profile.json']!));
  expect(profile).toMatchObject({ id: member.id, username: member.username, email: `${member.username}@example.org` });

  await context.setOffline(true);
  await expect(button).toBeDisabled();
  await expect(page.getByText('Der Download braucht eine Internetverbindung.')).toBeVisible();
  await context.close();
});
