import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

/*
 * The @-suggestion list of the comment field (docs/architecture.md, Comments): only typing opens it,
 * and choosing a name, a space, Escape and leaving the field close it — it never covers Save and Cancel
 * of a comment being edited.
 */
test('editing a comment that ends with a mention: the list opens only on typing and closes on choice, space, Escape and blur', async ({
  page,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const mentioned = await admin.registeredMember(uniqueName('genannt'));
  const writer = await admin.registeredMember(uniqueName('schreiber'));
  const eventId = await admin.createEvent(`${uniqueName('Bochum')} (A)`, daysAhead(12));
  const writerApi = await Api.signIn(request, writer.username, writer.password);
  await writerApi.post(`/api/comments/event/${eventId}`, { comment: `Fährst du mit, @${mentioned.username}` });

  await signInThroughForm(page, writer.username, writer.password);
  await page.goto(`/events/${eventId}`);
  const section = page.locator('section#comments');
  const comment = section.locator('li.comment', { hasText: 'Fährst du mit' });
  await comment.getByRole('button', { name: 'Bearbeiten' }).click();
  const input = section.getByRole('textbox', { name: 'Kommentar bearbeiten' });
  await expect(input).toBeFocused();
  const list = section.getByRole('listbox');
  const save = section.getByRole('button', { name: 'Speichern' });
  // Opened for editing, the caret moved behind the mention: no list over the buttons.
  await input.press('End');
  await expect(save).toBeVisible();
  await expect(list).toHaveCount(0);
  await expect(input).not.toHaveAttribute('aria-activedescendant');

  const typeMention = async () => {
    await input.press('End');
    await input.pressSequentially(` @${mentioned.username.slice(0, 5)}`);
    await expect(list).toBeVisible();
    await expect(input).toHaveAttribute('aria-activedescendant', /option-0$/);
  };

  // Choosing a name (Enter) closes it.
  await typeMention();
  await input.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(input).toHaveValue(`Fährst du mit, @${mentioned.username} @${mentioned.username} `);

  // A space closes it.
  await typeMention();
  await input.press('Space');
  await expect(list).toHaveCount(0);

  // Escape closes it and keeps the edit open.
  await typeMention();
  await input.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(save).toBeVisible();

  // Leaving the field closes it.
  await typeMention();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(list).toHaveCount(0);

  // A click on a name closes it too.
  await typeMention();
  await list.getByRole('option', { name: `@${mentioned.username}` }).click();
  await expect(list).toHaveCount(0);
  await save.click();
  await expect(comment.getByRole('button', { name: 'Bearbeiten' })).toBeVisible();
});
