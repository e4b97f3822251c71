import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, uniqueName } from './support.js';

/** Comments and mentions in the browser, across members' devices (docs/product.md, "Comments, mentions and notifications"). */

const SHOTS = process.env.COMMENTS_SHOTS_DIR ?? '/tmp/pw-comments';

/** The comment section of the event page. */
const commentSection = (page: Page) => page.locator('section#comments');

async function noHorizontalOverflow(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

test('a comment written offline reaches another member’s open event page live after reconnecting', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const writer = await admin.registeredMember(uniqueName('schreiber'));
  const reader = await admin.registeredMember(uniqueName('leser'));
  const title = `${uniqueName('Mainz')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(10));

  const readerSide = await memberPage(browser, reader);
  await readerSide.page.goto(`/events/${eventId}`);
  await expect(commentSection(readerSide.page).getByText('Noch keine Kommentare')).toBeVisible();

  const writerSide = await memberPage(browser, writer);
  const page = writerSide.page;
  await page.goto(`/events/${eventId}`);
  const section = commentSection(page);
  await expect(section.getByRole('heading', { name: 'Kommentare', level: 2 })).toBeVisible();
  const input = section.getByLabel('Dein Kommentar');
  const send = section.getByRole('button', { name: 'Senden' });
  // Blank after trimming is not sent (docs/architecture.md, "Rules once").
  await input.fill('   ');
  await expect(send).toBeDisabled();

  await writerSide.context.setOffline(true);
  await input.fill('Wir treffen uns um 12 Uhr am Bahnhof.');
  await section.getByLabel('Antwort erforderlich').check();
  await send.click();
  const mine = section.locator('li.comment', { hasText: 'Wir treffen uns um 12 Uhr am Bahnhof.' });
  await expect(mine).toContainText(writer.username);
  await expect(mine).toContainText('Wartet auf Antwort');
  await expect(input).toHaveValue('');
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();
  // The author's actions while it is unresolved.
  for (const action of ['Bearbeiten', 'Als erledigt markieren', 'Löschen'])
    await expect(mine.getByRole('button', { name: action })).toBeVisible();

  // The comment waits on the writer's device: the server has none, so the other member's page has nothing yet.
  expect((await admin.get(`/api/comments/event/${eventId}`)).comments).toEqual([]);
  await expect(commentSection(readerSide.page).locator('li.comment')).toHaveCount(0);

  await writerSide.context.setOffline(false);
  const arrived = commentSection(readerSide.page).locator('li.comment', { hasText: 'Wir treffen uns um 12 Uhr am Bahnhof.' });
  await expect(arrived).toContainText(writer.username, { timeout: 15_000 });
  await expect(arrived).toContainText('Wartet auf Antwort');
  // Not the reader's comment: no actions for them.
  await expect(arrived.getByRole('button')).toHaveCount(0);

  // The admin's task list names it among the pending comments, with the Answer link to the comments.
  const adminSide = await memberPage(browser, ADMIN);
  await adminSide.page.goto('/admin/tasks');
  const pending = adminSide.page
    .locator('section')
    .filter({ has: adminSide.page.getByRole('heading', { name: /Offene Kommentare/ }) });
  const row = pending.locator('tr', { hasText: writer.username });
  await expect(row).toContainText('Wir treffen uns um 12 Uhr am Bahnhof.');
  await expect(row.getByRole('link', { name: title })).toHaveAttribute('href', `/events/${eventId}#comments`);
  await row.getByRole('link', { name: `Auf den Kommentar von ${writer.username} antworten` }).click();
  await expect(adminSide.page).toHaveURL(new RegExp(`/events/${eventId}#comments$`));
  await expect(commentSection(adminSide.page)).toBeInViewport();
  // The admin resolves it: it leaves the task list, and the writer's page shows it resolved without a reload.
  await commentSection(adminSide.page).locator('li.comment').getByRole('button', { name: 'Als erledigt markieren' }).click();
  await expect(mine.locator('.badge-green')).toHaveText('Erledigt', { timeout: 15_000 });
  await expect(mine.getByRole('button', { name: 'Wieder öffnen' })).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Bearbeiten' })).toHaveCount(0);
  await adminSide.page.goto('/admin/tasks');
  await expect(adminSide.page.getByRole('heading', { name: 'Offene Aufgaben' })).toBeVisible();
  await expect(adminSide.page.locator('tr', { hasText: 'Wir treffen uns um 12 Uhr am Bahnhof.' })).toHaveCount(0);

  await adminSide.context.close();
  await writerSide.context.close();
  await readerSide.context.close();
});

test('a mention raises the yellow badge on the mentioned member’s open page; opening it lands on the comment', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const mentioned = await admin.registeredMember(uniqueName('erwaehnt'));
  const writer = await admin.registeredMember(uniqueName('rufer'));
  const filler = await admin.registeredMember(uniqueName('plauder'));
  const title = `${uniqueName('Kiel')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(11));
  // Comments before the mention, so the page must scroll to reach it.
  const fillerApi = await Api.signIn(request, filler.username, filler.password);
  for (let i = 1; i <= 8; i++) await fillerApi.post(`/api/comments/event/${eventId}`, { comment: `Vorab-Kommentar Nummer ${i}` });

  const target = await memberPage(browser, mentioned);
  await expect(eventCard(target.page, title)).toBeVisible();
  const profileLink = target.page.getByRole('link', { name: new RegExp(`^${mentioned.username}`) });
  await expect(profileLink).toHaveAttribute('href', '/profile');
  await expect(profileLink.locator('.badge')).toHaveCount(0);

  const writerSide = await memberPage(browser, writer);
  const page = writerSide.page;
  await page.goto(`/events/${eventId}`);
  const section = commentSection(page);
  const input = section.getByRole('textbox', { name: 'Dein Kommentar' });
  // The autocomplete: an @ with no space after it, filtered case-insensitively.
  await input.fill('Kommst du mit, ');
  await input.pressSequentially(`@${mentioned.username.slice(0, 6).toUpperCase()}`);
  const listbox = section.getByRole('listbox');
  await expect(listbox).toBeVisible();
  const option = listbox.getByRole('option', { name: `@${mentioned.username}` });
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await input.press('Enter');
  await expect(listbox).toHaveCount(0);
  await expect(input).toHaveValue(`Kommst du mit, @${mentioned.username} `);
  await input.pressSequentially('?');
  await section.getByRole('button', { name: 'Senden' }).click();
  const text = `Kommst du mit, @${mentioned.username} ?`;
  await expect(section.locator('li.comment', { hasText: text })).toBeVisible();

  // The mentioned member's open page: the yellow badges appear without a reload.
  const badge = profileLink.locator('.badge-yellow');
  await expect(badge).toHaveText('1', { timeout: 15_000 });
  await expect(badge).toHaveAttribute('aria-label', '1 ungelesene Erwähnung');
  await expect(eventCard(target.page, title).locator('.badge-yellow')).toHaveAttribute(
    'aria-label',
    '1 ungelesene Erwähnung bei diesem Termin',
  );

  // The username leads to the profile and its list of mentions; opening the mention lands on the comment.
  await profileLink.click();
  await expect(target.page).toHaveURL(/\/profile$/);
  const mentions = target.page.locator('section.mentions');
  const item = mentions.locator('li.mention-unread', { hasText: text });
  await expect(item).toContainText(`${writer.username} in ${title}`);
  await mentions.screenshot({ path: `${SHOTS}/mention-list.png` });
  await item.getByRole('link').click();
  const comment = target.page.locator('li.comment', { hasText: text });
  const commentId = (await comment.getAttribute('id'))!.slice('comment-'.length);
  await expect(target.page).toHaveURL(new RegExp(`/events/${eventId}#comment-${commentId}$`));
  await expect(comment).toHaveClass(/comment-highlight/);
  await expect(comment).toBeInViewport();
  await expect(comment).toBeFocused();
  await target.page.screenshot({ path: `${SHOTS}/mention-landing-desktop.png` });
  // Read now: the badges go, on this page and on the server.
  await expect(badge).toHaveCount(0);
  const mentionedApi = await Api.signIn(request, mentioned.username, mentioned.password);
  await expect.poll(async () => (await mentionedApi.get('/api/comments/mentions/count')).count).toBe(0);

  await writerSide.context.close();
  await target.context.close();
});

test('the comment section and the autocomplete at 360 px in German and English', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('schmal'));
  const other = await admin.registeredMember(uniqueName('Langername'));
  const otherApi = await Api.signIn(request, other.username, other.password);
  const title = `${uniqueName('Braunschweig')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(13));
  await otherApi.post(`/api/comments/event/${eventId}`, {
    comment: `Ein langer Kommentar mit einem sehr langen Wort: Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen und @${member.username}`,
    requires_answer: true,
  });
  const memberId = (await (await Api.signIn(request, member.username, member.password)).get('/api/auth/profile')).user.id;

  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 740 } });
  for (const language of ['de', 'en'] as const) {
    await admin.put(`/api/auth/users/${memberId}`, { language });
    // A fresh load reads the profile (and its language); a second go to the same address would only move to the anchor.
    await page.goto('/events');
    await page.goto(`/events/${eventId}#comments`);
    const words =
      language === 'de'
        ? { heading: 'Kommentare', label: 'Dein Kommentar', send: 'Senden', answer: 'Antwort erforderlich' }
        : { heading: 'Comments', label: 'Your comment', send: 'Send', answer: 'Requires an answer' };
    const section = commentSection(page);
    await expect(section.getByRole('heading', { name: words.heading, level: 2 })).toBeVisible();
    await expect(section).toBeInViewport();
    if (language === 'de') {
      // The member's own comment, with the actions the rules give its author.
      await section.getByLabel(words.label).fill('Meine Frage: Wer hat noch einen Platz im Bus frei?');
      await section.getByLabel(words.answer).check();
      await section.getByRole('button', { name: words.send }).click();
    }
    await expect(section.locator('li.comment')).toHaveCount(2);
    const own = section.locator('li.comment', { hasText: 'Meine Frage' });
    await expect(own.getByRole('button', { name: language === 'de' ? 'Bearbeiten' : 'Edit' })).toBeVisible();
    await expect(own.getByRole('button', { name: words.answer })).toHaveAttribute('aria-pressed', 'true');
    // Mentioned: on a phone the folded menu's button carries the yellow count too.
    await expect(page.locator('.menu-toggle .badge-yellow')).toHaveText('1');
    await section.getByLabel(words.answer).check();
    await page.screenshot({ path: `${SHOTS}/comments-360-${language}.png`, fullPage: true });
    await noHorizontalOverflow(page, `comments ${language}`);

    const input = section.getByRole('textbox', { name: words.label });
    await input.fill('');
    await input.pressSequentially('Hallo @lang');
    const option = section.getByRole('option', { name: `@${other.username}` });
    await expect(option).toBeVisible();
    // A tap on the name inserts it.
    await option.click();
    await expect(input).toHaveValue(`Hallo @${other.username} `);
    await expect(input).toBeFocused();
    await input.pressSequentially('@');
    await expect(section.getByRole('listbox')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/autocomplete-360-${language}.png` });
    await noHorizontalOverflow(page, `autocomplete ${language}`);
    // Escape closes the list and keeps the text.
    await input.press('Escape');
    await expect(section.getByRole('listbox')).toHaveCount(0);
    await expect(input).toHaveValue(`Hallo @${other.username} @`);
    await expect(section.getByRole('button', { name: words.send })).toBeEnabled();
  }
  await admin.put(`/api/auth/users/${memberId}`, { language: 'de' });
  await context.close();
});
