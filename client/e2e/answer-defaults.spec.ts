import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, signInThroughForm, uniqueName } from './support.js';

/*
 * First answers by the kind of event (docs/product.md, Attendance and guests) on a phone: saying yes
 * to a Stammtisch ticks neither "needs a ticket" nor "needs a seat" (and it stays off /my-tickets),
 * a home match ticks the ticket only, an away match both; the same for a guest. The device creates
 * the answer (shared rule `firstAnswerDefaults`), the server keeps what it sent, and the admin's
 * attendee table shows it.
 */

const PHONE = { viewport: { width: 360, height: 740 } };

/** The horizontal overflow of the page (0: nothing wider than the screen). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function sayYes(page: Page, eventId: string) {
  await page.goto(`/events/${eventId}`);
  const answer = page.getByRole('group', { name: 'Deine Antwort' });
  await answer.getByRole('button', { name: 'Zusage' }).click();
  await expect(answer.getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
}

test.describe('at 360 px', () => {
  test.use(PHONE);

  test('a Stammtisch needs neither ticket nor seat, a home match a ticket, an away match both; the admin sees the same', async ({
    page,
    browser,
    request,
  }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const p = uniqueName('Vorgabe');
    const titles = { other: `${p} Stammtisch`, home: `${p} Union – Bochum (H)`, away: `${p} Bochum – Union (A)` };
    const ids = {
      other: await admin.createEvent(titles.other, daysAhead(4, '19:00')),
      home: await admin.createEvent(titles.home, daysAhead(5)),
      away: await admin.createEvent(titles.away, daysAhead(6)),
    };
    const member = await admin.registeredMember(uniqueName('vorgabe-fan'));
    await signInThroughForm(page, member.username, member.password);

    const expected = {
      other: { ticket: false, seat: false },
      home: { ticket: true, seat: false },
      away: { ticket: true, seat: true },
    };
    for (const kind of ['other', 'home', 'away'] as const) {
      await sayYes(page, ids[kind]);
      const ticket = page.getByRole('checkbox', { name: 'Ich brauche ein Ticket' });
      const seat = page.getByRole('radio', { name: 'Ich brauche einen Mitfahrplatz' });
      const own = page.getByRole('radio', { name: 'Eigene Anreise' });
      if (expected[kind].ticket) await expect(ticket, kind).toBeChecked();
      else await expect(ticket, kind).not.toBeChecked();
      if (expected[kind].seat) await expect(seat, kind).toBeChecked();
      else await expect(own, kind).toBeChecked();
      await expect(page.getByRole('checkbox', { name: 'Ich habe schon ein Ticket' })).not.toBeChecked();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      if (kind === 'other')
        await page.screenshot({ path: test.info().outputPath('stammtisch-answer-de-360.png'), fullPage: true });
    }

    // A guest to the Stammtisch needs neither either.
    await page.goto(`/events/${ids.other}`);
    await page.getByLabel('Name des Gastes').fill('Onkel Heinz');
    await page.getByRole('button', { name: 'Gast hinzufügen' }).click();
    const guest = page.locator('.guest-item').filter({ hasText: 'Onkel Heinz' });
    await expect(guest.getByRole('checkbox', { name: 'Braucht Ticket' })).not.toBeChecked();
    await expect(guest.getByRole('checkbox', { name: 'Braucht Mitfahrplatz' })).not.toBeChecked();

    // The answers reached the server as the device made them.
    await expect
      .poll(async () => {
        const detail = await admin.get(`/api/events/${ids.other}`);
        return detail.attendees
          .filter(
            (a: { username: string | null; guest_name: string | null }) =>
              a.username === member.username || a.guest_name === 'Onkel Heinz',
          )
          .map((a: { needs_ticket: boolean; needs_transport: boolean }) => [a.needs_ticket, a.needs_transport]);
      })
      .toEqual([
        [false, false],
        [false, false],
      ]);
    await expect
      .poll(async () => {
        const detail = await admin.get(`/api/events/${ids.away}`);
        const row = detail.attendees.find((a: { username: string | null }) => a.username === member.username);
        return row ? [row.needs_ticket, row.needs_transport] : null;
      })
      .toEqual([true, true]);

    // /my-tickets names the matches' tickets, not the Stammtisch.
    await page.goto('/my-tickets');
    await expect(page.getByText(titles.home)).toBeVisible();
    await expect(page.getByText(titles.away)).toBeVisible();
    await expect(page.getByText(titles.other)).toHaveCount(0);

    // The admin's attendee table: no ticket and own travel for the Stammtisch.
    const adminSide = await memberPage(browser, ADMIN, PHONE);
    await adminSide.page.goto(`/events/${ids.other}`);
    const row = adminSide.page.getByRole('row').filter({ hasText: member.username, hasNotText: 'Onkel Heinz' });
    await expect(row).toContainText('Eigene Anreise');
    await expect(row).not.toContainText('Braucht Ticket');
    await adminSide.page.goto(`/events/${ids.away}`);
    const awayRow = adminSide.page.getByRole('row').filter({ hasText: member.username });
    await expect(awayRow).toContainText('Braucht Ticket');
    await expect(awayRow).not.toContainText('Eigene Anreise');
    await adminSide.context.close();
  });
});
