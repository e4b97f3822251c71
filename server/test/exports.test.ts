import { toCsv } from '@fankurve/shared/rules/csv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * The lists for the day (docs/architecture.md, Lists for the day): GET /api/events/{id}/export/
 * tickets.csv and transport.csv (admin) — their content, the file's form (BOM, semicolons, CRLF),
 * the formula guard on names members type, permissions and unknown events.
 */

interface CsvDownload {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** The text after the byte order mark, split into lines. */
  lines: string[];
}

/** A guest name a spreadsheet would run as a formula (it opens a web address). */
const HYPERLINK = '=HYPERLINK("http://example.org/x","klick")';

describe('lists for the day (CSV exports)', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  let anna: { id: string; token: string };
  let bert: { id: string; token: string };
  let eventId: string;

  /** The raw answer: the bytes as sent (a text decoder would hide the BOM). */
  async function download(path: string, token: string | null = admin): Promise<CsvDownload> {
    const response = await t.app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    return { status: response.status, headers: response.headers, bytes, lines: text.split('\r\n') };
  }
  const tickets = (id = eventId, token?: string | null) => download(`/api/events/${id}/export/tickets.csv`, token);
  const transport = (id = eventId, token?: string | null) => download(`/api/events/${id}/export/transport.csv`, token);

  async function update(attendeeId: string, body: Record<string, unknown>) {
    const res = await t.call('PUT', `/api/attendees/${attendeeId}`, { token: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  async function addGuest(name: string): Promise<string> {
    const res = await t.call('POST', '/api/guests', { token: anna.token, body: { event_id: eventId, guest_name: name } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.guest.id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    adminId = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id;
    anna = await t.member('anna-day');
    bert = await t.member('bert-day');
    eventId = (await createEventVia(t, admin, { title: 'Bayern München (A)', date: '2030-03-14 15:30' })).id;

    const annaRow = await t.call('POST', `/api/attendance/${eventId}`, {
      token: anna.token,
      body: { status: 'going', needs_ticket: true, needs_transport: true },
    });
    const bertRow = await t.call('POST', `/api/attendance/${eventId}`, {
      token: bert.token,
      body: { status: 'maybe', has_ticket: true, needs_transport: true },
    });
    // Guests need a ticket and a seat unless told otherwise; their names are the formula guard's cases.
    const plusOne = await addGuest('+1');
    const minusTwo = await addGuest('-2');
    await addGuest(HYPERLINK);
    await addGuest('@x');
    await update(annaRow.body.attendance.id, {
      bought: true,
      price: 18.5,
      ticket_type: 'Stehplatz',
      paid: true,
      transfer_status: 'reserved',
    });
    await update(plusOne, { bought: true, is_price_tbd: true });
    await update(minusTwo, { transfer_status: 'waiting_list' });
    expect(bertRow.status).toBe(200);
    const bus = await t.call('POST', '/api/transports', {
      token: admin,
      body: {
        event_id: eventId,
        name: 'Bus 1',
        departure_location: 'Hauptbahnhof',
        departure_datetime: '2030-03-14 08:00',
        price_per_seat: 15,
      },
    });
    expect(bus.status, JSON.stringify(bus.body)).toBe(201);
  });
  afterAll(() => t.close());

  it('writes UTF-8 with a byte order mark, semicolons and CRLF, as a download named after the event', async () => {
    for (const [res, kind] of [
      [await tickets(), 'tickets'],
      [await transport(), 'transport'],
    ] as const) {
      expect(res.status).toBe(200);
      expect([...res.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${kind}-2030-03-14-bayern-munchen-a.csv"`);
      // Every line ends with CRLF: the text ends with one, and no bare LF is left.
      expect(res.lines.at(-1)).toBe('');
      expect(res.bytes.toString('utf8').replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
      expect(res.lines[0]).toContain(';');
    }
  });

  it('lists the bought tickets, then the ones still needed, with member or guest, host, category, price, paid and received', async () => {
    const { lines } = await tickets();
    expect(lines[0]).toBe('Name;Mitglied/Gast;Gast von;Kategorie;Preis;Bezahlt;Erhalten;Ticket;Antwort');
    const body = lines.slice(1, -1);
    // Bought first: Anna (paid, 18,50 in the category), then her guest whose price is open.
    expect(body[0]).toBe('anna-day;Mitglied;;Stehplatz;18,50;ja;nein;gekauft;zugesagt');
    expect(body[1]).toBe("'+1;Gast;anna-day;;Preis offen;nein;nein;gekauft;zugesagt");
    // Then the guests who still need one; Bert has his own ticket and needs no name from the club.
    expect(body.slice(2).sort()).toEqual(
      [
        `"'${HYPERLINK.replace(/"/g, '""')}";Gast;anna-day;;;;;benötigt;zugesagt`,
        "'-2;Gast;anna-day;;;;;benötigt;zugesagt",
        "'@x;Gast;anna-day;;;;;benötigt;zugesagt",
      ].sort(),
    );
    expect(body.join('\n')).not.toContain('bert-day');
  });

  it("names the category of a contingent's tickets and lists those still needing one in the queue's order", async () => {
    const stadium = (
      await t.call('POST', '/api/stadiums', {
        token: admin,
        body: { team_name: 'Union Berlin', stadium_name: 'An der Alten Försterei', city: 'Berlin' },
      })
    ).body.stadium;
    for (const [price, ticket_type] of [
      [15, 'Stehplatz'],
      [30, 'Sitzplatz'],
    ] as const) {
      const res = await t.call('POST', '/api/ticket-prices', {
        token: admin,
        body: { stadium_id: stadium.id, price, ticket_type },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const event = await createEventVia(t, admin, {
      title: 'Union Berlin (A)',
      date: '2030-04-20 15:30',
      ticket_price: 15,
      stadium_id: stadium.id,
    });
    expect((await t.call('PUT', `/api/events/${event.id}/contingent`, { token: admin, body: { tickets: 1 } })).status).toBe(200);
    const [zoe, yann, xaver] = [await t.member('zoe-queue'), await t.member('yann-queue'), await t.member('xaver-queue')];
    for (const [member, points] of [
      [yann, 40],
      [xaver, 20],
    ] as const) {
      const res = await t.call('PUT', `/api/loyalty/${member.id}/adjustment`, { token: admin, body: { points } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // Zoe asks first and gets the one ticket at once; Xaver asks before Yann, who has more points.
    for (const member of [zoe, xaver, yann]) {
      const res = await t.call('POST', `/api/attendance/${event.id}`, {
        token: member.token,
        body: { status: 'going', needs_ticket: true },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const body = (await tickets(event.id)).lines.slice(1, -1);
    expect(body).toEqual([
      'zoe-queue;Mitglied;;Stehplatz;15,00;nein;nein;gekauft;zugesagt',
      'yann-queue;Mitglied;;;;;;benötigt;zugesagt',
      'xaver-queue;Mitglied;;;;;;benötigt;zugesagt',
    ]);
  });

  it('lists the passengers by seat state with the transport option when the event has exactly one', async () => {
    const { lines } = await transport();
    expect(lines[0]).toBe('Transport;Abfahrt;Abfahrtsort;Platz;Name;Mitglied/Gast;Gast von;Antwort;Platzstatus');
    const body = lines.slice(1, -1);
    expect(body).toHaveLength(6);
    expect(body[0]).toBe('Bus 1;2030-03-14 08:00;Hauptbahnhof;;anna-day;Mitglied;;zugesagt;reserviert');
    expect(body[1]).toBe("Bus 1;2030-03-14 08:00;Hauptbahnhof;;'-2;Gast;anna-day;zugesagt;Warteliste");
    // The outstanding seats: Anna's guests (her group comes first), then Bert, who said maybe.
    expect(body.at(-1)).toBe('Bus 1;2030-03-14 08:00;Hauptbahnhof;;bert-day;Mitglied;;vielleicht;offen');
    expect(body.slice(2, 5).every((line) => line.endsWith(';Gast;anna-day;zugesagt;offen'))).toBe(true);
    expect(
      body
        .slice(2, 5)
        .map((line) => line.split(';')[4])
        .sort(),
    ).toEqual([`"'${HYPERLINK.replace(/"/g, '""')}"`, "'+1", "'@x"].sort());
  });

  it('leaves the transport column empty when the event has several options and the passenger holds no seat on one', async () => {
    const car = await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: eventId, name: 'Auto Kalle', departure_location: 'Köpenick', is_free: true },
    });
    expect(car.status).toBe(201);
    try {
      const body = (await transport()).lines.slice(1, -1);
      expect(body).toHaveLength(6);
      expect(body[0]).toBe(';;;;anna-day;Mitglied;;zugesagt;reserviert');
    } finally {
      await t.call('DELETE', `/api/transports/${car.body.transport.id}`, { token: admin });
    }
  });

  it("writes the headers and words in the admin's language", async () => {
    expect((await t.call('PUT', `/api/auth/users/${adminId}`, { token: admin, body: { language: 'en' } })).status).toBe(200);
    try {
      const list = (await tickets()).lines;
      expect(list[0]).toBe('Name;Member/guest;Guest of;Category;Price;Paid;Received;Ticket;Answer');
      expect(list[1]).toBe('anna-day;member;;Stehplatz;18,50;yes;no;bought;going');
      expect(list[2]).toBe("'+1;guest;anna-day;;price open;no;no;bought;going");
      expect((await transport()).lines[0]).toBe(
        'Transport;Departure;Departure place;Seat no.;Name;Member/guest;Guest of;Answer;Seat',
      );
    } finally {
      await t.call('PUT', `/api/auth/users/${adminId}`, { token: admin, body: { language: 'de' } });
    }
  });

  it('answers only admins: 401 without a session, 403 for members (also for an unknown id)', async () => {
    for (const list of [tickets, transport]) {
      expect((await list(eventId, null)).status).toBe(401);
      const asMember = await list(eventId, anna.token);
      expect(asMember.status).toBe(403);
      expect(JSON.parse(asMember.bytes.toString('utf8'))).toMatchObject({ success: false, code: 'adminRequired' });
      expect((await list('01900000-0000-7000-8000-00000000dead', bert.token)).status).toBe(403);
    }
  });

  it('answers 404 for an unknown or deleted event', async () => {
    const gone = (await createEventVia(t, admin, { title: 'Abgesagt (A)' })).id;
    expect((await t.call('DELETE', `/api/events/${gone}`, { token: admin })).status).toBe(200);
    for (const list of [tickets, transport]) {
      for (const id of ['01900000-0000-7000-8000-00000000dead', 'kein-termin', gone]) {
        const res = await list(id);
        expect(res.status, id).toBe(404);
        expect(JSON.parse(res.bytes.toString('utf8'))).toMatchObject({ success: false, code: 'eventNotFound' });
      }
    }
  });

  it('gives an empty event a header line only', async () => {
    const empty = (await createEventVia(t, admin, { title: 'Testspiel (H)' })).id;
    expect((await tickets(empty)).lines).toEqual([
      'Name;Mitglied/Gast;Gast von;Kategorie;Preis;Bezahlt;Erhalten;Ticket;Antwort',
      '',
    ]);
    expect((await transport(empty)).lines).toHaveLength(2);
  });
});

describe('the CSV formula guard', () => {
  it('puts an apostrophe before a text starting with = + - @, a tab or a carriage return, and leaves other text and amounts alone', () => {
    const csv = toCsv(['a'], [['=1+1'], ['+1'], ['-2'], ['@x'], ['\tTab'], ['\rCR'], ['plain'], ['a-b'], [-5], [null]]);
    expect(csv.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'a',
      "'=1+1",
      "'+1",
      "'-2",
      "'@x",
      "'\tTab",
      `"'\rCR"`,
      'plain',
      'a-b',
      '-5',
      '',
      '',
    ]);
  });
});
