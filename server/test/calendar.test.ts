import { calendarUrlAnswer, newId } from '@fankurve/shared';
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/* The members' private calendar feed (docs/architecture.md, Calendar feed). */

let t: TestApp;
let admin: string;
let member: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp({ CLUB_TIME_ZONE: 'Europe/Berlin' });
  admin = await t.adminToken();
  member = await t.member('calendar-member');
});
afterAll(() => t.close());

/** The feed's path under the app (the url is absolute, on PUBLIC_URL). */
const pathOf = (url: string) => new URL(url).pathname;

async function feedUrl(token: string): Promise<string> {
  return (await t.callTyped(calendarUrlAnswer, 'GET', '/api/calendar', { token })).url;
}

/** Fetches the feed without any Authorization header and parses it with a real iCalendar parser. */
async function fetchFeed(url: string) {
  const response = await t.app.request(pathOf(url));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  const text = await response.text();
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => ({
    uid: String(vevent.getFirstPropertyValue('uid')),
    sequence: Number(vevent.getFirstPropertyValue('sequence')),
    status: String(vevent.getFirstPropertyValue('status')),
    summary: String(vevent.getFirstPropertyValue('summary')),
    location: String(vevent.getFirstPropertyValue('location')),
    description: String(vevent.getFirstPropertyValue('description')),
    start: (vevent.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate(),
    end: (vevent.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate(),
    alarms: vevent.getAllSubcomponents('valarm').map((valarm) => ({
      action: String(valarm.getFirstPropertyValue('action')),
      trigger: (valarm.getFirstPropertyValue('trigger') as ICAL.Time).toJSDate(),
      description: String(valarm.getFirstPropertyValue('description')),
    })),
  }));
  return { text, events };
}

const eventIn = <E extends { uid: string }>(events: E[], id: string) => events.find((e) => e.uid === `${id}@fankurve`);

/** A wall-clock date `days` from today (negative: in the past). */
function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

describe('calendar feed', () => {
  it('answers the same absolute url on every call and a feed without Authorization', async () => {
    const url = await feedUrl(member.token);
    expect(url).toMatch(/^http:\/\/localhost:\d+\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await feedUrl(member.token)).toBe(url);
    // Only the hash is stored, never the token itself.
    const token = pathOf(url)
      .split('/')
      .pop()!
      .replace(/\.ics$/, '');
    const row = await t.db.selectFrom('calendar_tokens').selectAll().where('user_id', '=', member.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
    const event = await createEventVia(t, admin, { title: 'Feed match (A)', date: '2030-03-01 15:30' });
    const { text, events } = await fetchFeed(url);
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    const entry = eventIn(events, event.id);
    expect(entry).toMatchObject({ summary: 'Feed match (A)', status: 'CONFIRMED', location: 'Stadion An der Alten Försterei' });
    // 15:30 in Berlin in March (UTC+1) is 14:30 UTC; two hours long.
    expect(entry!.start.toISOString()).toBe('2030-03-01T14:30:00.000Z');
    expect(entry!.end.getTime() - entry!.start.getTime()).toBe(2 * 60 * 60 * 1000);
    expect(entry!.description).toContain(`/events/${event.id}`);
    // The UID is stable across fetches.
    expect(eventIn((await fetchFeed(url)).events, event.id)?.uid).toBe(entry!.uid);
  });

  it('names the stadium and its address when the event has one', async () => {
    const stadium = await t.call('POST', '/api/stadiums', {
      token: admin,
      body: { team_name: 'Feed FC', stadium_name: 'Feed Arena', city: 'Berlin', address: 'Arenaweg 1, 10115 Berlin' },
    });
    expect(stadium.status).toBe(201);
    const event = await createEventVia(t, admin, { title: 'Stadium match (A)', stadium_id: stadium.body.stadium.id });
    const entry = eventIn((await fetchFeed(await feedUrl(member.token))).events, event.id);
    expect(entry?.location).toBe('Feed Arena, Arenaweg 1, 10115 Berlin');
  });

  it('raises SEQUENCE when an admin moves the date, not for a new title', async () => {
    const url = await feedUrl(member.token);
    const event = await createEventVia(t, admin, { title: 'Moved match (A)', date: '2030-04-01 15:30' });
    const before = eventIn((await fetchFeed(url)).events, event.id)!.sequence;
    const renamed = await t.call('PUT', `/api/events/${event.id}`, { token: admin, body: { title: 'Renamed match (A)' } });
    expect(renamed.status).toBe(200);
    expect(eventIn((await fetchFeed(url)).events, event.id)!.sequence).toBe(before);
    const moved = await t.call('PUT', `/api/events/${event.id}`, { token: admin, body: { date: '2030-04-02 18:30' } });
    expect(moved.status).toBe(200);
    const after = eventIn((await fetchFeed(url)).events, event.id)!;
    expect(after.sequence).toBeGreaterThan(before);
    expect(after.start.toISOString()).toBe('2030-04-02T16:30:00.000Z');
  });

  it('keeps events deleted in the last 30 days as cancelled, drops older deletions and events older than 90 days', async () => {
    const url = await feedUrl(member.token);
    const deleted = await createEventVia(t, admin, { title: 'Deleted match (A)' });
    const deletedLongAgo = await createEventVia(t, admin, { title: 'Deleted long ago (A)' });
    const old = await createEventVia(t, admin, { title: 'Old match (A)', date: `${dayFromToday(-95)} 15:30` });
    const recent = await createEventVia(t, admin, { title: 'Recent match (A)', date: `${dayFromToday(-80)} 15:30` });
    for (const id of [deleted.id, deletedLongAgo.id]) {
      expect((await t.call('DELETE', `/api/events/${id}`, { token: admin })).status).toBe(200);
    }
    const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    await t.db.updateTable('events').set({ updated_at: longAgo }).where('id', '=', deletedLongAgo.id).execute();
    const { events } = await fetchFeed(url);
    expect(eventIn(events, deleted.id)?.status).toBe('CANCELLED');
    expect(eventIn(events, deletedLongAgo.id)).toBeUndefined();
    expect(eventIn(events, old.id)).toBeUndefined();
    expect(eventIn(events, recent.id)?.summary).toBe('Recent match (A)');
  });

  it('names a deleted or archived event "Abgesagt:" / "Cancelled:" in the member\'s language and raises its SEQUENCE', async () => {
    const reader = await t.member('calendar-cancel');
    const url = await feedUrl(reader.token);
    const deleted = await createEventVia(t, admin, { title: 'Stammtisch im Juni', date: '2030-06-05 19:00' });
    const archived = await createEventVia(t, admin, { title: 'Archived match (A)', date: '2030-06-06 15:30' });
    const live = eventIn((await fetchFeed(url)).events, deleted.id)!;
    expect(live).toMatchObject({ summary: 'Stammtisch im Juni', status: 'CONFIRMED' });
    // A bought ticket makes the admin's delete an archive (docs/architecture.md, Data model).
    const bought = await t.call('POST', `/api/events/${archived.id}/attendees`, { token: admin, body: { user_id: reader.id } });
    expect(bought.status).toBe(201);
    const buy = await t.call('PUT', `/api/attendees/${bought.body.attendance.id}`, {
      token: admin,
      body: { bought: true, price: 20 },
    });
    expect(buy.status).toBe(200);
    const archivedBefore = eventIn((await fetchFeed(url)).events, archived.id)!.sequence;
    for (const id of [deleted.id, archived.id]) {
      expect((await t.call('DELETE', `/api/events/${id}`, { token: admin })).status).toBe(200);
    }
    expect(
      (await t.db.selectFrom('events').select('archived').where('id', '=', archived.id).executeTakeFirstOrThrow()).archived,
    ).toBe(1);
    const german = await fetchFeed(url);
    const gone = eventIn(german.events, deleted.id)!;
    expect(gone).toMatchObject({ summary: 'Abgesagt: Stammtisch im Juni', status: 'CANCELLED' });
    expect(gone.sequence).toBeGreaterThan(live.sequence);
    const gone2 = eventIn(german.events, archived.id)!;
    expect(gone2).toMatchObject({ summary: 'Abgesagt: Archived match (A)', status: 'CANCELLED' });
    expect(gone2.sequence).toBeGreaterThan(archivedBefore);
    expect(gone2.alarms).toEqual([]);
    const english = await t.call('PUT', `/api/auth/users/${reader.id}`, { token: reader.token, body: { language: 'en' } });
    expect(english.status).toBe(200);
    expect(eventIn((await fetchFeed(url)).events, deleted.id)!.summary).toBe('Cancelled: Stammtisch im Juni');
  });

  it("rings the day before the answer deadline (VALARM), in the member's language; none without a deadline", async () => {
    const reader = await t.member('calendar-alarm');
    const url = await feedUrl(reader.token);
    const event = await createEventVia(t, admin, {
      title: 'Deadline match (A)',
      date: '2030-03-10 15:30',
      answer_deadline: '2030-03-08 18:00',
    });
    const plain = await createEventVia(t, admin, { title: 'No deadline match (A)', date: '2030-03-11 15:30' });
    const { events, text } = await fetchFeed(url);
    const entry = eventIn(events, event.id)!;
    // 18:00 in Berlin in March (UTC+1) is 17:00 UTC; the alarm a day before it, as an absolute time.
    expect(entry.alarms).toEqual([
      {
        action: 'DISPLAY',
        trigger: new Date('2030-03-07T17:00:00.000Z'),
        description: expect.stringMatching(
          /^Morgen endet die Antwortfrist: Deadline match \(A\) \(Antworten bis 08\.03\.2030, 18:00\)$/,
        ),
      },
    ]);
    expect(text).toContain('TRIGGER;VALUE=DATE-TIME:20300307T170000Z');
    expect(eventIn(events, plain.id)!.alarms).toEqual([]);
    await t.call('PUT', `/api/auth/users/${reader.id}`, { token: reader.token, body: { language: 'en' } });
    expect(eventIn((await fetchFeed(url)).events, event.id)!.alarms[0]!.description).toMatch(
      /^Answers close tomorrow: Deadline match \(A\)/,
    );
  });

  it('gives a new address when an admin sets the password, the member changes it or a reset link does: the old one answers 404', async () => {
    const reader = await t.member('calendar-reset', 'calendar-reset-pass');
    const first = await feedUrl(reader.token);
    await fetchFeed(first);
    const set = await t.call('PUT', `/api/auth/users/${reader.id}/password`, {
      token: admin,
      body: { newPassword: 'set-by-admin-1' },
    });
    expect(set.status).toBe(200);
    expect((await t.call('GET', pathOf(first))).status).toBe(404);
    // The member signs in with it, must change it, and then gets a new, working address.
    const login = await t.call('POST', '/api/auth/login', { body: { username: 'calendar-reset', password: 'set-by-admin-1' } });
    expect(login.status).toBe(200);
    const changed = await t.call('POST', '/api/auth/change-password', {
      token: login.body.token,
      body: { currentPassword: 'set-by-admin-1', newPassword: 'changed-by-me-2' },
    });
    expect(changed.status).toBe(200);
    let session = changed.body.token as string;
    const second = await feedUrl(session);
    expect(second).not.toBe(first);
    await fetchFeed(second);
    // Their own change does the same.
    const again = await t.call('POST', '/api/auth/change-password', {
      token: session,
      body: { currentPassword: 'changed-by-me-2', newPassword: 'changed-by-me-3' },
    });
    expect(again.status).toBe(200);
    expect((await t.call('GET', pathOf(second))).status).toBe(404);
    session = again.body.token as string;
    const third = await feedUrl(session);
    await fetchFeed(third);
    // So does a reset link (the token a mail would carry; only its sha256 is stored).
    const resetToken = 'calendar-reset-link-token';
    await t.db
      .insertInto('password_resets')
      .values({
        id: newId(),
        user_id: reader.id,
        token_hash: createHash('sha256').update(resetToken).digest('hex'),
        expires_at: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
        used: 0,
        created_at: new Date().toISOString(),
      })
      .execute();
    const reset = await t.call('POST', '/api/auth/reset-password', {
      body: { token: resetToken, newPassword: 'reset-by-mail-4' },
    });
    expect(reset.status).toBe(200);
    expect((await t.call('GET', pathOf(third))).status).toBe(404);
    // Ending the other sessions by hand keeps the address.
    const relogin = await t.call('POST', '/api/auth/login', {
      body: { username: 'calendar-reset', password: 'reset-by-mail-4' },
    });
    const kept = await feedUrl(relogin.body.token);
    expect((await t.call('POST', '/api/auth/sessions/end-others', { token: relogin.body.token })).status).toBe(200);
    await fetchFeed(kept);
  });

  it("shows the member's own answer, ticket and seat in their language", async () => {
    const url = await feedUrl(member.token);
    const event = await createEventVia(t, admin, { title: 'Answered match (A)' });
    const none = eventIn((await fetchFeed(url)).events, event.id)!;
    expect(none.description).toContain('Keine Antwort');
    const answer = await t.call('POST', `/api/attendance/${event.id}`, {
      token: member.token,
      body: { status: 'going', needs_ticket: true, needs_transport: false },
    });
    expect(answer.status).toBe(200);
    const german = eventIn((await fetchFeed(url)).events, event.id)!;
    expect(german.description).toContain('Deine Antwort: Ich bin dabei');
    expect(german.description).toContain('Ticket: braucht eins');
    expect(german.description).toContain('Fahrt: eigene Anreise');
    const english = await t.call('PUT', `/api/auth/users/${member.id}`, { token: member.token, body: { language: 'en' } });
    expect(english.status).toBe(200);
    const entry = eventIn((await fetchFeed(url)).events, event.id)!;
    expect(entry.description).toContain('Your answer: Going');
    expect(entry.description).toContain('Ticket: needs one');
    expect(entry.description).toContain('Travel: own travel');
    expect(entry.description).not.toContain('Answer by');
    // An answer deadline is named in the member's language.
    const deadline = await t.call('PUT', `/api/events/${event.id}`, {
      token: admin,
      body: { answer_deadline: `${event.date.slice(0, 10)} 12:00` },
    });
    expect(deadline.status).toBe(200);
    expect(eventIn((await fetchFeed(url)).events, event.id)!.description).toMatch(/Answer by \d{1,2} \w{3} \d{4}, 12:00/);
    // Another member's feed holds their own (missing) answer.
    const other = await t.member('calendar-other');
    expect(eventIn((await fetchFeed(await feedUrl(other.token))).events, event.id)!.description).toContain('Keine Antwort');
  });

  it('rotates: the new url works, the old one answers 404', async () => {
    const old = await feedUrl(member.token);
    const rotated = await t.callTyped(calendarUrlAnswer, 'POST', '/api/calendar/rotate', { token: member.token });
    expect(rotated.url).not.toBe(old);
    expect(await feedUrl(member.token)).toBe(rotated.url);
    await fetchFeed(rotated.url);
    const gone = await t.call('GET', pathOf(old));
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ success: false, message: 'Calendar not found' });
  });

  it('answers 404 to a made-up token, a path without .ics and the token of a deleted user', async () => {
    expect((await t.call('GET', '/api/calendar/made-up-token-made-up-token-made-up-token-xx.ics')).status).toBe(404);
    const token = pathOf(await feedUrl(member.token))
      .split('/')
      .pop()!;
    expect((await t.call('GET', `/api/calendar/${token.replace(/\.ics$/, '')}`)).status).toBe(404);
    const leaving = await t.member('calendar-leaving');
    const url = await feedUrl(leaving.token);
    await fetchFeed(url);
    await t.db.updateTable('users').set({ deleted: 1 }).where('id', '=', leaving.id).execute();
    expect((await t.call('GET', pathOf(url))).status).toBe(404);
  });

  it('answers 401 without a session', async () => {
    expect((await t.call('GET', '/api/calendar')).status).toBe(401);
    expect((await t.call('POST', '/api/calendar/rotate')).status).toBe(401);
  });
});
