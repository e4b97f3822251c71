import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/*
 * "My data" (docs/architecture.md, Data export): a member downloads everything the app keeps about
 * them as a ZIP, an admin any member's. The archive is unpacked with the library that wrote it and
 * each file read: a member with data in ten seasons, and another member's data never in it.
 */

type Files = Record<string, string>;

describe('the data export', () => {
  let t: TestApp;
  let admin: string;
  let anna: { id: string; token: string };
  let bob: { id: string; token: string };

  /** GET a ZIP route: status, headers and, for a ZIP, its files as text. */
  async function download(url: string, token: string | null) {
    const response = await t.app.request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const zip = response.headers.get('content-type') === 'application/zip';
    const files: Files = zip
      ? Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]))
      : {};
    return {
      status: response.status,
      disposition: response.headers.get('content-disposition'),
      files,
      body: zip ? null : (JSON.parse(strFromU8(bytes)) as { code: string }),
    };
  }

  const call = async (method: string, url: string, token: string, body?: unknown) => {
    const res = await t.call(method, url, { token, body });
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    anna = await t.member('exp-anna');
    bob = await t.member('exp-bob');
    // Ten seasons, 2030/31 to 2039/40: an away match in each, both members going and asking for a ticket.
    const events: string[] = [];
    for (let season = 0; season < 10; season++) {
      const event = await call('POST', '/api/events', admin, {
        title: `Season ${2030 + season} (A)`,
        date: `${2030 + season}-09-12 15:30`,
        location: 'Stadion',
        ticket_price: 20,
      });
      events.push(event.event.id);
    }
    const rows: string[] = [];
    for (const id of events) {
      rows.push((await call('POST', `/api/attendance/${id}`, anna.token, { status: 'going', needs_ticket: true })).attendance.id);
      await call('POST', `/api/attendance/${id}`, bob.token, { status: 'maybe', needs_transport: true });
    }
    await call('POST', '/api/guests', anna.token, { event_id: events[0], guest_name: 'Annas Gast' });
    await call('POST', '/api/guests', bob.token, { event_id: events[0], guest_name: 'Bobs Gast' });
    await call('PUT', `/api/attendees/${rows[0]}`, admin, { bought: true, price: 20 });
    await call('POST', '/api/ledger/entries', admin, { user_id: anna.id, kind: 'payment', amount: 5, note: 'Bar bezahlt' });
    await call('POST', '/api/ledger/entries', admin, { user_id: bob.id, kind: 'charge', amount: 9, note: 'Bobs Schal' });
    await call('POST', `/api/comments/event/${events[1]}`, anna.token, { comment: 'Wer fährt mit?' });
    await call('POST', `/api/comments/event/${events[1]}`, bob.token, { comment: 'Ich, @exp-anna!' });
    const poll = await call('POST', '/api/polls', admin, { question: 'Neue Fahne?', options: ['Ja', 'Nein'] });
    await call('PUT', `/api/polls/${poll.poll.id}/vote`, anna.token, { option_ids: [poll.options[0].id] });
    await call('PUT', `/api/polls/${poll.poll.id}/vote`, bob.token, { option_ids: [poll.options[1].id] });
    await call('PUT', `/api/loyalty/${anna.id}/adjustment`, admin, { points: 3, note: 'Vor der App' });
    // Bob drives to the last season's match; Anna asks for a seat in his car.
    const ride = await call('POST', `/api/events/${events[9]}/rides`, bob.token, {
      seats: 3,
      departure_location: 'Ostkreuz',
      departure_datetime: '2039-09-12 12:00',
    });
    await call('POST', `/api/rides/${ride.ride.id}/seats`, anna.token, { seats: 1, note: 'Mit Fahne' });
  });
  afterAll(() => t.close());

  function checkAnnasFiles(files: Files): void {
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.txt',
        'profile.json',
        'answers.json',
        'answers.csv',
        'guests.json',
        'guests.csv',
        'tickets.json',
        'tickets.csv',
        'ledger.json',
        'ledger.csv',
        'comments.json',
        'poll_votes.json',
        'loyalty.json',
        'devices.json',
        'notices.json',
        'rides.json',
        'reminders.json',
        'created.json',
      ].sort(),
    );
    const read = (name: string) => JSON.parse(files[name]!);
    expect(read('profile.json')).toMatchObject({
      id: anna.id,
      username: 'exp-anna',
      email: 'exp-anna@example.org',
      role: 'user',
      status: 'active',
      language: 'de',
    });
    const answers = read('answers.json') as { season: string; status: string; needs_ticket: boolean }[];
    expect(answers).toHaveLength(10);
    expect(answers.map((row) => row.season)).toEqual(
      Array.from({ length: 10 }, (_, i) => `${2030 + i}/${String(31 + i).slice(-2)}`),
    );
    expect(answers.every((row) => row.status === 'going' && row.needs_ticket)).toBe(true);
    const answersCsv = files['answers.csv']!.replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(answersCsv).toHaveLength(11);
    expect(answersCsv[0]).toBe(
      'event_title;event_date;season;status;needs_ticket;has_ticket;needs_transport;transfer_status;created_at;updated_at;removed',
    );
    expect(answersCsv[1]).toMatch(/^Season 2030 \(A\);2030-09-12 15:30:00;2030\/31;going;true;false;true;outstanding;/);
    expect(read('guests.json')).toEqual([expect.objectContaining({ guest_name: 'Annas Gast', season: '2030/31' })]);
    const tickets = read('tickets.json');
    expect(tickets.tickets).toEqual([
      expect.objectContaining({ event_title: 'Season 2030 (A)', price: 20, bought: true, paid: false }),
    ]);
    expect(tickets.requests.length).toBeGreaterThanOrEqual(10);
    const ledger = read('ledger.json') as { kind: string; amount: number; description: string }[];
    expect(ledger.map((entry) => [entry.kind, entry.amount])).toEqual([
      ['ticket', 20],
      ['payment', -5],
    ]);
    expect(files['ledger.csv']).toContain('Bar bezahlt');
    const comments = read('comments.json');
    expect(comments.comments).toEqual([expect.objectContaining({ comment: 'Wer fährt mit?', removed: false })]);
    expect(comments.mentions).toEqual([
      expect.objectContaining({ comment: 'Ich, @exp-anna!', comment_by: 'exp-bob', read: false }),
    ]);
    expect(read('poll_votes.json')).toEqual([expect.objectContaining({ question: 'Neue Fahne?', options: ['Ja'] })]);
    expect(read('loyalty.json').adjustment).toMatchObject({ points: 3, note: 'Vor der App' });
    expect(read('rides.json')).toEqual({
      offered: [],
      seats_asked: [expect.objectContaining({ driver: 'exp-bob', seats: 1, note: 'Mit Fahne', state: 'asked', removed: false })],
    });
    const devices = read('devices.json');
    expect(devices.sessions.length).toBeGreaterThanOrEqual(1);
    expect(Object.keys(devices.sessions[0]).sort()).toEqual(['created_at', 'device_name', 'last_used_at']);
    // Another member's data and every secret stay out.
    const all = Object.values(files).join('\n');
    for (const foreign of [
      'Bobs Gast',
      'Bobs Schal',
      'exp-bob@example.org',
      bob.id,
      'maybe',
      'password_hash',
      'token',
      anna.token,
    ])
      expect(all, foreign).not.toContain(foreign);
    expect(files['README.txt']).toContain('exp-anna');
  }

  it('gives a member everything about them, and nothing about anyone else', async () => {
    const answer = await download('/api/me/export', anna.token);
    expect(answer.status).toBe(200);
    expect(answer.disposition).toMatch(/^attachment; filename="fankurve-exp-anna-\d{4}-\d{2}-\d{2}\.zip"$/);
    checkAnnasFiles(answer.files);
    // Bob's own archive has his data, not Anna's.
    const bobs = await download('/api/me/export', bob.token);
    expect(JSON.parse(bobs.files['profile.json']!).username).toBe('exp-bob');
    expect(JSON.parse(bobs.files['guests.json']!)).toEqual([expect.objectContaining({ guest_name: 'Bobs Gast' })]);
    expect(Object.values(bobs.files).join('\n')).not.toContain('Annas Gast');
  });

  it('lets an admin export a member, in the admin’s language', async () => {
    const english = await t.login('admin', 'admin-secret');
    await call('PUT', `/api/auth/users/${(await t.call('GET', '/api/auth/profile', { token: english })).body.user.id}`, english, {
      language: 'en',
    });
    const answer = await download(`/api/users/${anna.id}/export`, await t.login('admin', 'admin-secret'));
    expect(answer.status).toBe(200);
    expect(answer.disposition).toContain('fankurve-exp-anna-');
    checkAnnasFiles(answer.files);
    expect(answer.files['README.txt']).toMatch(/^Everything Fankurve keeps about exp-anna/);
  });

  it('answers 401 without a session, 403 to a member asking for another, 404 for no account', async () => {
    expect((await download('/api/me/export', null)).status).toBe(401);
    expect((await download(`/api/users/${anna.id}/export`, null)).status).toBe(401);
    const forbidden = await download(`/api/users/${anna.id}/export`, bob.token);
    expect([forbidden.status, forbidden.body?.code]).toEqual([403, 'adminRequired']);
    expect((await download(`/api/users/${anna.id}/export`, anna.token)).status).toBe(403);
    const missing = await download('/api/users/no-such-user/export', admin);
    expect([missing.status, missing.body?.code]).toEqual([404, 'userNotFound']);
  });
});
