import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, signInThroughForm, uniqueName } from './support.js';

/*
 * Match-day details (docs/product.md, "Screens"): each as a new member or the admin meets it in the browser.
 */

/** The card (section) of the detail page with this heading. */
const section = (page: Page, heading: string) =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) });

const profileId = async (api: Api) => (await api.get('/api/auth/profile')).user.id as string;

/** A member signed in through the form, with their API handle. */
async function memberSession(page: Page, request: APIRequestContext, admin: Api, prefix: string) {
  const member = await admin.registeredMember(uniqueName(prefix));
  const api = await Api.signIn(request, member.username, member.password);
  await signInThroughForm(page, member.username, member.password);
  return { ...member, api };
}

/**
 * The lowest text contrast (WCAG 2) inside an element, from computed colours: every visible element
 * with its own text, its colour against the first opaque background behind it, both composited through
 * the opacity of the element and its ancestors onto the page background.
 */
async function lowestContrast(locator: Locator): Promise<{ ratio: number; text: string }> {
  return locator.evaluate((root) => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba => {
      const parts = value.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i]! * a + below[i]! * (1 - a)).concat(1) as Rgba;
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const page = parse(getComputedStyle(document.body).backgroundColor);
    const backgroundOf = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const color = parse(getComputedStyle(node).backgroundColor);
        if (color[3] > 0) layers.push(color);
        if (color[3] >= 1) break;
      }
      return layers.reduceRight<Rgba>((below, layer) => over(layer, below), page);
    };
    const opacityOf = (element: Element) => {
      let opacity = 1;
      for (let node: Element | null = element; node; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
      return opacity;
    };
    let lowest = { ratio: Infinity, text: '' };
    for (const element of [root, ...root.querySelectorAll('*')]) {
      const ownText = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim();
      const box = element.getBoundingClientRect();
      if (!ownText || box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const opacity = opacityOf(element);
      const background = backgroundOf(element);
      const text = over(parse(style.color), background);
      const shownText = over([...text.slice(0, 3), opacity] as Rgba, page);
      const shownBackground = over([...background.slice(0, 3), opacity] as Rgba, page);
      const [light, dark] = [luminance(shownText), luminance(shownBackground)].sort((a, b) => b - a) as [number, number];
      const ratio = (light + 0.05) / (dark + 0.05);
      if (ratio < lowest.ratio) lowest = { ratio, text: ownText };
    }
    return lowest;
  });
}

test('a Stammtisch shows under every filter; the dialog offers home / away / other and opens the new event', async ({
  page,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const p = uniqueName('Spieltag');
  const stammtisch = `${p} Stammtisch`;
  await admin.createEvent(stammtisch, daysAhead(3));
  await admin.createEvent(`${p} Derby (H)`, daysAhead(4));
  await admin.createEvent(`${p} Auswärts (A)`, daysAhead(5));
  await memberSession(page, request, admin, 'stammtisch');

  const filter = page.getByRole('group', { name: 'Spielort' });
  for (const where of ['Auswärts', 'Heim', 'Alle']) {
    await filter.getByRole('button', { name: where }).click();
    await expect(filter.getByRole('button', { name: where })).toHaveAttribute('aria-pressed', 'true');
    await expect(eventCard(page, stammtisch), where).toBeVisible();
  }
  await expect(eventCard(page, `${p} Derby (H)`)).toBeVisible();
  await expect(eventCard(page, `${p} Auswärts (A)`)).toBeVisible();

  // Back on the default filter (away), a home match is created: the dialog asks, nobody types '(H)'.
  await filter.getByRole('button', { name: 'Auswärts' }).click();
  await page.getByRole('button', { name: 'Neuer Termin' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neuer Termin' });
  const kind = dialog.getByRole('group', { name: 'Art des Termins' });
  await expect(kind.getByRole('radio')).toHaveCount(3);
  await expect(kind.getByLabel('Heimspiel (H)')).not.toBeChecked();
  await dialog.getByLabel('Titel').fill(`${p} Pokal`);
  await dialog.getByLabel('Datum').fill(daysAhead(8).slice(0, 10));
  await dialog.getByLabel('Ort', { exact: true }).fill('An der Alten Försterei');
  await dialog.getByRole('button', { name: 'Termin anlegen' }).click();
  await expect(dialog.getByText('Bitte wähle Heim, Auswärts oder Sonstiges')).toBeVisible();

  await kind.getByLabel('Heimspiel (H)').check();
  await expect(dialog.getByLabel('Titel')).toHaveValue(`${p} Pokal (H)`);
  await dialog.screenshot({ path: test.info().outputPath('create-dialog.png') });
  // A typed suffix chooses too, and another choice replaces it.
  await dialog.getByLabel('Titel').fill(`${p} Pokal (A)`);
  await expect(kind.getByLabel('Auswärtsspiel (A)')).toBeChecked();
  await kind.getByLabel('Heimspiel (H)').check();
  await expect(dialog.getByLabel('Titel')).toHaveValue(`${p} Pokal (H)`);
  await dialog.getByRole('button', { name: 'Termin anlegen' }).click();

  // The app opens the new event, though the away filter would hide it.
  await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: `${p} Pokal (H)`, level: 1 })).toBeVisible();

  // Other: no suffix, and it shows under the default filter.
  await page.goto('/events');
  await page.getByRole('button', { name: 'Neuer Termin' }).click();
  await dialog.getByLabel('Titel').fill(`${p} Weihnachtsfeier`);
  await kind.getByLabel('Sonstiges (kein Spiel)').check();
  await dialog.getByLabel('Datum').fill(daysAhead(9).slice(0, 10));
  await dialog.getByLabel('Ort', { exact: true }).fill('Vereinsheim');
  await dialog.getByRole('button', { name: 'Termin anlegen' }).click();
  await expect(page.getByRole('heading', { name: `${p} Weihnachtsfeier`, level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Zurück zu den Terminen' }).click();
  await expect(page).toHaveURL(/\/events$/);
  await expect(eventCard(page, `${p} Weihnachtsfeier`)).toBeVisible();
  await expect(eventCard(page, `${p} Pokal (H)`)).toHaveCount(0);
});

test('the UPDATED badge shows on the card too', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Verlegt')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(6));
  const member = await memberSession(page, request, admin, 'verlegt');
  await member.api.post(`/api/attendance/${eventId}`, { status: 'going' });
  await expect(eventCard(page, title)).toBeVisible();
  await expect(eventCard(page, title).getByText('AKTUALISIERT')).toHaveCount(0);

  // The admin moves the kick-off while people attend: UPDATED on the card, live, and on the page.
  await admin.put(`/api/events/${eventId}`, { date: daysAhead(6, '18:30') });
  await expect(eventCard(page, title).getByText('AKTUALISIERT')).toBeVisible();
  await eventCard(page, title).screenshot({ path: test.info().outputPath('updated-card.png') });
  await eventCard(page, title).getByRole('link', { name: title }).click();
  await expect(page.locator('.detail-title-row').getByText('AKTUALISIERT')).toBeVisible();
});

test('a past event takes no new answers, and its faded card keeps a contrast of 4.5:1', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const p = uniqueName('Vorbei');
  const pastTitle = `${p} Gestern (A)`;
  const attendedTitle = `${p} Besucht (A)`;
  const pastId = await admin.createEvent(pastTitle, daysAhead(-2));
  const attendedId = await admin.createEvent(attendedTitle, daysAhead(-3));
  const member = await admin.registeredMember(uniqueName('vorbei'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  // Answered while it was upcoming (the admin's table may still add rows afterwards).
  await admin.post(`/api/events/${attendedId}/attendees`, { user_id: await profileId(memberApi) });

  // The server refuses a new answer with its message.
  const refused = await request.post(`/api/attendance/${pastId}`, {
    headers: { authorization: `Bearer ${memberApi.token}` },
    data: { status: 'going' },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ code: 'eventIsPast', message: expect.stringContaining('over') });

  await signInThroughForm(page, member.username, member.password);
  for (const title of [pastTitle, attendedTitle]) {
    const card = eventCard(page, title);
    await expect(card).toHaveClass(/event-past/);
    for (const name of ['Zusage', 'Vielleicht', 'Absage']) await expect(card.getByRole('button', { name })).toBeDisabled();
    const contrast = await lowestContrast(card);
    expect(contrast.ratio, `lowest contrast on "${title}": ${contrast.text}`).toBeGreaterThanOrEqual(4.5);
  }
  // An upcoming card for comparison: its buttons work.
  await expect(page.locator('article.event-card:not(.event-past)').first().getByRole('button', { name: 'Zusage' })).toBeEnabled();

  await eventCard(page, attendedTitle).getByRole('link', { name: attendedTitle }).click();
  const answer = section(page, 'Deine Antwort');
  await expect(answer.getByText('Dieser Termin ist vorbei: Antworten lassen sich nicht mehr ändern.')).toBeVisible();
  for (const name of ['Zusage', 'Vielleicht', 'Absage']) await expect(answer.getByRole('button', { name })).toBeDisabled();
  await expect(answer.getByLabel('Ich brauche ein Ticket')).toBeDisabled();
  const guests = section(page, 'Gäste');
  await expect(guests.getByRole('button', { name: 'Gast hinzufügen' })).toBeDisabled();
  // As a phone shows them (kept with the test's output for a look).
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: test.info().outputPath('past-event-detail-360.png'), fullPage: true });
  await page.goto('/events');
  await eventCard(page, pastTitle).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('past-cards-360.png') });
});

test('the same words on card and page: "Absage" / "Not going", "noch offen" / "to be announced"', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Worte')} (A)`;
  const body = await admin.post('/api/events', { title, date: daysAhead(7), location: 'Köpenick', ticket_price: 0 });
  const eventId = body.event.id as string;
  await admin.post('/api/transports', { event_id: eventId, name: 'Bus', departure_location: 'Köpenick', is_price_tbd: true });
  const member = await memberSession(page, request, admin, 'worte');

  const card = eventCard(page, title);
  await expect(card.getByRole('button', { name: 'Absage' })).toBeVisible();
  await expect(card).toContainText('noch offen');
  await card.getByRole('link', { name: title }).click();
  await expect(section(page, 'Deine Antwort').getByRole('button', { name: 'Absage' })).toBeVisible();
  await expect(page.locator('.detail-facts')).toContainText('Ticketpreis');
  await expect(page.locator('.detail-facts')).toContainText('noch offen');
  const bus = section(page, 'Fahrten').getByRole('listitem', { name: 'Bus' });
  await expect(bus.locator('.transport-price')).toHaveText('noch offen');
  await expect(bus).toContainText('Abfahrtnoch offen');

  await member.api.put(`/api/auth/users/${await profileId(member.api)}`, { language: 'en' });
  await page.reload();
  await expect(section(page, 'Your answer').getByRole('button', { name: 'Not going' })).toBeVisible();
  await expect(page.locator('.detail-facts')).toContainText('to be announced');
  await expect(section(page, 'Transport').locator('.transport-price')).toHaveText('to be announced');
  await page.getByRole('link', { name: 'Back to events' }).click();
  await expect(eventCard(page, title).getByRole('button', { name: 'Not going' })).toBeVisible();
  await expect(eventCard(page, title)).toContainText('to be announced');
});

test('dates: "Sat 7 Dec 2030, 18:30" in English, "Sa., 07.12.2030, 18:30" in German', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Datum')} (A)`;
  const eventId = await admin.createEvent(title, '2030-12-07 18:30');
  await admin.post('/api/transports', {
    event_id: eventId,
    name: 'Zug',
    departure_location: 'Ostkreuz',
    is_free: true,
    departure_datetime: '2030-12-07 09:05',
  });
  const member = await memberSession(page, request, admin, 'datum');

  await page.goto('/events?season=2030/31');
  await expect(eventCard(page, title)).toContainText('Sa., 07.12.2030, 18:30');
  await page.goto(`/events/${eventId}`);
  await expect(page.locator('.detail-facts')).toContainText('Sa., 07.12.2030, 18:30');
  await expect(section(page, 'Fahrten')).toContainText('Sa., 07.12.2030, 09:05');

  await member.api.put(`/api/auth/users/${await profileId(member.api)}`, { language: 'en' });
  await page.reload();
  await expect(page.locator('.detail-facts')).toContainText('Sat 7 Dec 2030, 18:30');
  await expect(section(page, 'Transport')).toContainText('Sat 7 Dec 2030, 09:05');
  await page.goto('/events?season=2030/31');
  await expect(eventCard(page, title)).toContainText('Sat 7 Dec 2030, 18:30');
});

test('a transport departure is kept as entered', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Abfahrt')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(10));
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto(`/events/${eventId}`);

  const transport = section(page, 'Fahrten');
  await transport.getByRole('button', { name: 'Fahrt hinzufügen' }).click();
  await transport.getByLabel('Bezeichnung').fill('Bus 7:40');
  await transport.getByLabel('Abfahrtsort').fill('S Köpenick');
  await transport.getByLabel('Kostenlos').check();
  const departure = transport.getByLabel('Abfahrt', { exact: true });
  await expect(departure).toHaveAccessibleDescription(/genau so gespeichert, wie eingegeben/);
  await departure.fill('2030-05-01T07:40');
  await transport.getByRole('button', { name: 'Speichern' }).click();
  const bus = transport.getByRole('listitem', { name: 'Bus 7:40' });
  await expect(bus).toContainText('01.05.2030, 07:40');
  const stored = (await admin.get(`/api/transports/event/${eventId}`)).transports as { departure_datetime: string }[];
  expect(stored.map((t) => t.departure_datetime)).toEqual(['2030-05-01 07:40:00']);

  // Editing shows the same time again.
  await bus.getByRole('button', { name: 'Bearbeiten Bus 7:40' }).click();
  await expect(transport.getByLabel('Abfahrt', { exact: true })).toHaveValue('2030-05-01T07:40');
});

test("the attendee table's sticky name column covers what scrolls under it at 360 px", async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Tabelle')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(11));
  for (const prefix of ['breit', 'schmal']) {
    const member = await admin.registeredMember(uniqueName(prefix));
    const api = await Api.signIn(request, member.username, member.password);
    const answered = await api.post(`/api/attendance/${eventId}`, { status: 'going' });
    await admin.put(`/api/attendees/${answered.attendance.id}`, { bought: true, price: 18.5, paid_by: 'club_cash_desk' });
  }

  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 740 } });
  await page.goto(`/events/${eventId}`);
  const scroller = page.getByRole('region', { name: 'Teilnehmerliste' });
  await expect(scroller.getByRole('rowheader')).toHaveCount(2);
  const scrollable = await scroller.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(scrollable).toBeGreaterThan(100);

  for (const mode of ['view', 'edit']) {
    if (mode === 'edit') {
      await page.getByRole('button', { name: 'Tabelle bearbeiten' }).click();
      await expect(scroller.getByRole('columnheader', { name: 'Aktionen' })).toHaveCount(1);
    }
    await scroller.evaluate((element) => {
      element.scrollIntoView({ block: 'center' });
      element.scrollLeft = element.scrollWidth;
    });
    // Scrolled to the end: the last column is in view.
    await expect
      .poll(() => scroller.evaluate((element) => element.scrollWidth - element.clientWidth - element.scrollLeft))
      .toBeLessThanOrEqual(1);
    // From the scroller's left edge across each name cell (and the column's header), every point shows the
    // name column, never a column that scrolled under it.
    const leaks = await scroller.evaluate((element) => {
      const found: string[] = [];
      const left = element.getBoundingClientRect().left;
      const cells = element.querySelectorAll<HTMLElement>('tbody th, thead th:first-child');
      for (const cell of cells) {
        const box = cell.getBoundingClientRect();
        for (const x of [left + 1, box.left + 1, box.left + box.width / 2, box.right - 2])
          for (const y of [box.top + 3, box.top + box.height / 2, box.bottom - 3]) {
            const hit = document.elementFromPoint(x, y);
            const column = hit?.closest('tbody th, thead th:first-child');
            if (!column)
              found.push(`${cell.textContent} at ${Math.round(x - left)},${Math.round(y - box.top)}: ${hit?.textContent}`);
          }
      }
      return found;
    });
    expect(leaks, mode).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`sticky-${mode}.png`) });
  }
  await context.close();
});

test('the not-found page keeps the navigation bar for a signed-in user', async ({ page, browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  await memberSession(page, request, admin, 'verirrt');
  await page.goto('/gibt-es-nicht');
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Termine' }).click();
  await expect(page).toHaveURL(/\/events$/);

  // An anonymous visitor sees the page alone.
  const anonymous = await browser.newContext();
  const other = await anonymous.newPage();
  await other.goto('/gibt-es-nicht');
  await expect(other.getByRole('heading', { name: 'Seite nicht gefunden', level: 1 })).toBeVisible();
  await expect(other.getByRole('navigation')).toHaveCount(0);
  await anonymous.close();
});

test('deleting a stadium that events use names those events', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const name = uniqueName('Stadion ');
  const stadium = (await admin.post('/api/stadiums', { team_name: 'Testclub', stadium_name: name, city: 'Teststadt' })).stadium;
  const p = uniqueName('Heimat');
  const later = `${p} Später (H)`;
  const sooner = `${p} Bald (H)`;
  for (const [title, days] of [
    [later, 20],
    [sooner, 5],
  ] as const) {
    await admin.post('/api/events', { title, date: daysAhead(days), location: 'Teststadt', stadium_id: stadium.id });
  }

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/config');
  await page.getByRole('tab', { name: 'Stadionverwaltung' }).click();
  const card = page.getByRole('article', { name });
  await card.getByRole('button', { name: 'Löschen', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Stadion wird noch verwendet' });
  await expect(dialog).toContainText(`${name} lässt sich nicht löschen`);
  await expect(dialog.getByRole('link')).toHaveText([
    new RegExp(sooner.replace(/[()]/g, '\\$&')),
    new RegExp(later.replace(/[()]/g, '\\$&')),
  ]);
  await expect(dialog.getByRole('button', { name: 'Löschen' })).toHaveCount(0);
  await dialog.getByRole('link', { name: new RegExp(sooner.replace(/[()]/g, '\\$&')) }).click();
  await expect(page.getByRole('heading', { name: sooner, level: 1 })).toBeVisible();

  // The server names them too.
  const refused = await request.delete(`/api/stadiums/${stadium.id}`, { headers: { authorization: `Bearer ${admin.token}` } });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).events.map((event: { title: string }) => event.title)).toEqual([sooner, later]);
});
