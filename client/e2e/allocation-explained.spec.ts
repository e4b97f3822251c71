import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/*
 * Allocations anyone can follow (docs/product.md, Ticket contingents): the admin's queue at 360 px
 * gives each place its reason and takes a note on a pin; after the admin allocates, a member reads
 * "Platz N von M Anfragen, K Karten: …" with their points behind it (in German at 360 px, offline
 * too once read), the pinned member reads the admin's note and nobody else does; in English on a
 * desktop the places are ordinals ("3rd of 4 requests for 2 tickets: you are 1st on the waiting list").
 */

const PHONE = { viewport: { width: 360, height: 740 } };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const SHOTS = process.env.E2E_SCREENSHOTS;

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('.contingent').analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

interface Fan {
  login: { username: string; password: string };
  api: Api;
  id: string;
}

/**
 * An away match with a contingent of two tickets gathering requests until a deadline, and four
 * members asking for one with 30, 20, 10 and 5 loyalty points (adjustments; no away match counted).
 */
async function fourRequests(request: Parameters<typeof Api.signIn>[0]) {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const eventId = await admin.createEvent(`${uniqueName('Kiel')} (A)`, daysAhead(20, '18:30'));
  await admin.put(`/api/events/${eventId}/contingent`, { tickets: 2, request_deadline: `${daysAhead(19).slice(0, 10)} 20:00` });
  const fans: Fan[] = [];
  for (const points of [30, 20, 10, 5]) {
    const login = await admin.registeredMember(uniqueName('platz'));
    const api = await Api.signIn(request, login.username, login.password);
    await admin.put(`/api/loyalty/${login.id}/adjustment`, { points, note: 'Vor der App' });
    await api.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true });
    fans.push({ login, api, id: login.id });
  }
  const [thirty, twenty, ten, five] = fans as [Fan, Fan, Fan, Fan];
  return { admin, eventId, thirty, twenty, ten, five };
}

test('after the admin allocates, a member at 360 px reads their place, the points behind it and, offline too, the same; the note of a pin reaches only its member', async ({
  browser,
  request,
}) => {
  const { eventId, thirty, twenty, ten, five } = await fourRequests(request);
  const note = 'Ordnerdienst beim Auswärtsspiel';

  // The admin's queue gives each place its reason; pinning the last and noting why.
  const { context: adminContext, page } = await memberPage(browser, ADMIN, PHONE);
  await page.goto(`/events/${eventId}`);
  const section = page.getByRole('region', { name: 'Ticketkontingent' });
  const queue = section.getByRole('region', { name: 'Reihenfolge' });
  const row = (username: string) => queue.locator('tbody tr').filter({ hasText: username });
  await expect(row(thirty.login.username)).toContainText(/30 = 0 \(\d{4}\/\d{2}\) \+ 0 \(\d{4}\/\d{2}\) \+ 30 Anpassung/);
  await queue.getByRole('button', { name: `Vorziehen ${five.login.username}` }).click();
  await expect(row(five.login.username)).toContainText('Vorgezogen');
  await queue.getByRole('button', { name: `Notiz ${five.login.username}` }).click();
  const dialog = page.getByRole('dialog', { name: `Notiz zu ${five.login.username}` });
  await dialog.getByLabel('Notiz für das Mitglied').fill(note);
  await noSidewaysScroll(page);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Notiz gespeichert')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(row(five.login.username)).toContainText(`„${note}“`);
  await expect(queue.locator('tbody tr td:nth-child(2)')).toHaveText([
    five.login.username,
    thirty.login.username,
    twenty.login.username,
    ten.login.username,
  ]);
  await noSidewaysScroll(page);
  expect(await seriousViolations(page)).toEqual([]);

  // The member before the allocation: their place in the order, tickets handed out after the deadline.
  const { context, page: member } = await memberPage(browser, ten.login, PHONE);
  await member.goto(`/events/${eventId}`);
  const theirs = member.getByRole('region', { name: 'Ticketkontingent' });
  await expect(theirs.getByText('Platz 4 von 4 Anfragen, 2 Karten: zugeteilt wird nach der Anfragefrist.')).toBeVisible();

  // The admin allocates.
  await section.getByRole('button', { name: 'Jetzt zuteilen' }).click();
  await page.getByRole('dialog', { name: 'Tickets jetzt zuteilen?' }).getByRole('button', { name: 'Jetzt zuteilen' }).click();
  await expect(page.getByText('2 Tickets zugeteilt')).toBeVisible();
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/allocation-explained-queue-de-360.png` });
  await adminContext.close();

  // The member now reads the sentence, and why: their points, the rule, their request time.
  await member.reload();
  const sentence = theirs.getByText('Platz 4 von 4 Anfragen, 2 Karten: du stehst auf der Warteliste an Platz 2.');
  await expect(sentence).toBeVisible();
  await theirs.getByText('Wie kommt der Platz zustande?').click();
  await expect(
    theirs.getByText(
      /^Treuepunkte: 10 = 0 Auswärtsspiele \d{4}\/\d{2} \+ 0 Auswärtsspiele \d{4}\/\d{2} \+ 10 Punkte Anpassung durch einen Admin$/,
    ),
  ).toBeVisible();
  await expect(theirs.getByText(/^Angefragt am .+\.$/)).toBeVisible();
  await expect(theirs.getByText(/Reihenfolge: Vorgezogene zuerst/)).toBeVisible();
  // Nothing of the others': no queue, no note of someone else's pin, not the adjustment's own note.
  await expect(theirs.getByRole('region', { name: 'Reihenfolge' })).toHaveCount(0);
  await expect(member.getByText(note)).toHaveCount(0);
  await expect(member.getByText('Vor der App')).toHaveCount(0);
  await noSidewaysScroll(member);
  expect(await seriousViolations(member)).toEqual([]);
  if (SHOTS) await theirs.screenshot({ path: `${SHOTS}/allocation-explained-member-de-360.png` });

  // Offline, opened again: the same place as last read.
  await expect
    .poll(() =>
      member.evaluate(
        (key) => localStorage.getItem(key)?.includes('"outcome":"waiting"') ?? false,
        `snapshot:contingent:${eventId}`,
      ),
    )
    .toBe(true);
  await context.setOffline(true);
  await member.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Termine' }).click();
  await member.goBack();
  await expect(theirs.getByText(/^Offline – Stand vom /)).toBeVisible();
  await expect(sentence).toBeVisible();
  await context.close();

  // The pinned member: their ticket, the pin and the admin's note.
  const { context: pinnedContext, page: pinned } = await memberPage(browser, five.login, PHONE);
  await pinned.goto(`/events/${eventId}`);
  const pinnedSection = pinned.getByRole('region', { name: 'Ticketkontingent' });
  await expect(pinnedSection.getByText('Platz 1 von 4 Anfragen, 2 Karten: du hast eine Karte.')).toBeVisible();
  await expect(pinnedSection.getByText(/^Ein Admin hat die Anfrage vorgezogen/)).toContainText(`Notiz des Admins: ${note}`);
  await noSidewaysScroll(pinned);
  await pinnedContext.close();
});

test('in English on a desktop the places are ordinals', async ({ browser, request }) => {
  const { admin, eventId, thirty, ten } = await fourRequests(request);
  await admin.post(`/api/events/${eventId}/contingent/allocate`, undefined);

  // Signed in in German (the form's words), then the member's language becomes English.
  const { context, page } = await memberPage(browser, ten.login, DESKTOP);
  await ten.api.put(`/api/auth/users/${ten.id}`, { language: 'en' });
  await page.goto(`/events/${eventId}`);
  const section = page.getByRole('region', { name: 'Ticket contingent' });
  await expect(section.getByText('3rd of 4 requests for 2 tickets: you are 1st on the waiting list.')).toBeVisible();
  await section.getByText('How was this place worked out?').click();
  await expect(
    section.getByText(
      /^Loyalty points: 10 = 0 away matches in \d{4}\/\d{2} \+ 0 away matches in \d{4}\/\d{2} \+ 10 points adjusted by an admin$/,
    ),
  ).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/allocation-explained-member-en-1280.png` });
  await context.close();

  const { context: holderContext, page: holder } = await memberPage(browser, thirty.login, DESKTOP);
  await thirty.api.put(`/api/auth/users/${thirty.id}`, { language: 'en' });
  await holder.goto(`/events/${eventId}`);
  await expect(
    holder.getByRole('region', { name: 'Ticket contingent' }).getByText('1st of 4 requests for 2 tickets: you got a ticket.'),
  ).toBeVisible();
  await holderContext.close();
});
