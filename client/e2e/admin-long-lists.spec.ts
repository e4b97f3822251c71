import { SYNC_SCHEMAS } from '@fankurve/shared';
import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

const EVENTS = 6;
const GUESTS_PER_EVENT = 9;

/**
 * Paid requests of one member for `EVENTS × (1 + GUESTS_PER_EVENT)` bought tickets: their own and their
 * guests' at each event, reported paid the way a device pushes it.
 */
async function manyPaidRequests(admin: Api, member: Api): Promise<string[]> {
  const rowIds: string[] = [];
  for (let e = 0; e < EVENTS; e++) {
    const eventId = await admin.createEvent(uniqueName('Lange Liste ') + ' (A)', daysAhead(40 + e));
    rowIds.push((await member.post(`/api/attendance/${eventId}`, { status: 'going' })).attendance.id);
    for (let g = 0; g < GUESTS_PER_EVENT; g++)
      rowIds.push((await member.post('/api/guests', { event_id: eventId, guest_name: `Gast ${g}` })).guest.id);
  }
  for (const id of rowIds) await admin.put(`/api/attendees/${id}`, { bought: true, price: 12 });
  const pulled = await member.post(`/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/pull`, {
    checkpoint: null,
    limit: 1000,
  });
  const rows = (pulled.documents as { id: string }[]).filter((doc) => rowIds.includes(doc.id));
  expect(rows).toHaveLength(rowIds.length);
  const conflicts = await member.post(
    `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/push`,
    rows.map((row) => ({ assumedMasterState: row, newDocumentState: { ...row, paid_requested: true } })),
  );
  // Answered with every row's result (its new seq).
  expect(conflicts).toHaveLength(rows.length);
  expect(conflicts).toEqual(expect.arrayContaining([expect.objectContaining({ paid_requested: true })]));
  return rowIds;
}

test('a long task list shows its first 50 rows and the next ones on "show more"', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('Vielzahler'));
  const rowIds = await manyPaidRequests(admin, await Api.signIn(request, member.username, member.password));
  const open = (await admin.get('/api/admin/pending-paid-requests')).requests.length as number;
  expect(open).toBeGreaterThanOrEqual(rowIds.length);

  await page.setViewportSize({ width: 360, height: 780 });
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin/tasks');
  const section = page.getByRole('region', { name: /Offene Bezahlt-Meldungen/ });
  await expect(section.getByRole('heading')).toContainText(String(open));
  const rows = section.locator('tbody tr');
  await expect(rows).toHaveCount(50);
  await expect(section).toContainText(`noch ${open - 50} nicht gezeigt`);

  await section.getByRole('button', { name: `${Math.min(50, open - 50)} weitere zeigen` }).click();
  await expect(rows).toHaveCount(Math.min(100, open));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The admin accepts them all, so later tests find a short list again.
  const requests = (await admin.get('/api/admin/pending-paid-requests')).requests as { id: string }[];
  for (const { id } of requests.filter((r) => rowIds.includes(r.id))) await admin.put(`/api/admin/accept-paid-request/${id}`);
  if (open > rowIds.length) await expect(section.getByRole('heading')).toContainText(String(open - rowIds.length));
  else await expect(section).toHaveCount(0);
});
