import fs from 'node:fs';
import path from 'node:path';
import { IMAGE_MAX_BYTES, MESSAGES, newId } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, eventRow, IMAGES, uploadFile, type TestApp } from './helpers.js';

/** PUT / DELETE /api/events/{id}, the UPDATED badge, and the event image. */

let t: TestApp;
let admin: string;
let fan: { id: string; token: string };
let other: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('edit-fan');
  other = await t.member('edit-other');
});
afterAll(() => t.close());
const put = (id: string, body: unknown, token = admin) => t.call('PUT', `/api/events/${id}`, { token, body });
const uploadsDir = () => path.join(t.dataDir, 'uploads');
const uploaded = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).sort() : []);

describe('PUT /api/events/{id}', () => {
  it('lets the creator change any subset of the fields, normalised like on create', async () => {
    const event = await createEventVia(t, fan.token, { title: 'Old title (H)', ticket_price: 10 });
    const res = await put(
      event.id,
      { title: '  New title (A) ', date: '2030-04-04T18:38', description: ' Bring scarves ', ticket_price: 22.5 },
      fan.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: MESSAGES.eventUpdated });
    expect(res.body.event).toMatchObject({
      id: event.id,
      title: 'New title (A)',
      date: '2030-04-04 18:45:00',
      description: 'Bring scarves',
      ticket_price: 22.5,
      location: event.location,
      season: '2029/30',
      is_updated: false,
      created_by: fan.id,
    });
    // Unmentioned fields stay; null price means "not yet available" (0).
    const cleared = await put(event.id, { ticket_price: null, description: null }, fan.token);
    expect(cleared.body.event).toMatchObject({ ticket_price: 0, description: null, title: 'New title (A)' });
  });

  it('refuses another member (403) and changes nothing; an admin may edit any event', async () => {
    const event = await createEventVia(t, fan.token, { title: 'Fan event (H)' });
    const before = await eventRow(t, event.id);
    const res = await put(event.id, { title: 'Hijacked' }, other.token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES.forbidden });
    expect(await eventRow(t, event.id)).toEqual(before);
    expect((await put(event.id, { title: 'Admin fixed it (H)' })).body.event.title).toBe('Admin fixed it (H)');
  });

  it('answers 404 for an unknown or deleted event and for an unknown stadium', async () => {
    expect((await put(newId(), { title: 'x' })).body).toMatchObject({ success: false, message: 'Event not found' });
    const event = await createEventVia(t, admin);
    const res = await put(event.id, { stadium_id: newId() });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Stadium not found');
    expect(await t.call('DELETE', `/api/events/${event.id}`, { token: admin })).toMatchObject({ status: 200 });
    expect((await put(event.id, { title: 'Zombie' })).status).toBe(404);
  });

  it('marks the event updated when an admin changes date, time, location or price of an answered event', async () => {
    const event = await createEventVia(t, admin, { title: 'Badge match (A)', ticket_price: 15 });
    // No answers yet: no badge.
    expect((await put(event.id, { date: '2030-05-05 20:30' })).body.event.is_updated).toBe(false);
    await t.call('POST', `/api/attendance/${event.id}`, { token: fan.token, body: { status: 'maybe' } });
    // Title and description are no reason for the badge; the same date again neither.
    expect((await put(event.id, { title: 'Badge match! (A)', description: 'x' })).body.event.is_updated).toBe(false);
    expect((await put(event.id, { date: '2030-05-05T20:30:00' })).body.event.is_updated).toBe(false);
    for (const change of [{ date: '2030-05-05 18:30' }, { location: 'Elsewhere' }, { ticket_price: 16 }]) {
      expect((await put(event.id, change)).body.event.is_updated, JSON.stringify(change)).toBe(true);
      const cleared = await t.call('PUT', `/api/events/${event.id}/clear-updated`, { token: admin });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ success: true, event: { is_updated: false } });
    }
  });

  it('does not mark the event updated when its member creator changes the date', async () => {
    const event = await createEventVia(t, fan.token, { title: 'Fan trip (A)' });
    await t.call('POST', `/api/attendance/${event.id}`, { token: other.token, body: { status: 'going' } });
    const res = await put(event.id, { date: '2031-01-01 12:00' }, fan.token);
    expect(res.body.event).toMatchObject({ date: '2031-01-01 12:00:00', is_updated: false });
  });

  it('gives the event a new seq on a change and none when nothing changes', async () => {
    const event = await createEventVia(t, admin);
    const seq0 = Number((await eventRow(t, event.id)).seq);
    await put(event.id, { title: 'Changed (H)' });
    const seq1 = Number((await eventRow(t, event.id)).seq);
    expect(seq1).toBeGreaterThan(seq0);
    await put(event.id, { title: 'Changed (H)' });
    expect(Number((await eventRow(t, event.id)).seq)).toBe(seq1);
  });
});

describe('PUT /api/events/{id}/clear-updated', () => {
  it('is for admins only, also against the creator', async () => {
    const event = await createEventVia(t, fan.token, { title: 'Creator cannot clear (H)' });
    await t.db.updateTable('events').set({ is_updated: 1 }).where('id', '=', event.id).execute();
    const res = await t.call('PUT', `/api/events/${event.id}/clear-updated`, { token: fan.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Admin access required');
    expect((await eventRow(t, event.id)).is_updated).toBe(1);
    expect((await t.call('PUT', `/api/events/${newId()}/clear-updated`, { token: admin })).status).toBe(404);
  });
});

describe('DELETE /api/events/{id}', () => {
  it('tombstones the event, its attendees and transports with new seqs, and removes the image', async () => {
    const event = await createEventVia(t, fan.token, { title: 'Doomed (A)' });
    await t.call('POST', `/api/attendance/${event.id}`, { token: fan.token, body: { status: 'going' } });
    await t.call('POST', `/api/attendance/${event.id}`, { token: other.token, body: { status: 'maybe' } });
    const guest = await t.call('POST', '/api/guests', { token: fan.token, body: { event_id: event.id, guest_name: 'Oma' } });
    expect(guest.status).toBe(201);
    const transport = await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: event.id, name: 'Bus', departure_location: 'Köpenick', price_per_seat: 20 },
    });
    expect(transport.status).toBe(201);
    const image = await uploadFile(t, `/api/events/${event.id}/image`, { token: fan.token, bytes: IMAGES.png });
    expect(image.status).toBe(200);
    const before = await t.db.selectFrom('attendees').select(['id', 'seq']).where('event_id', '=', event.id).execute();
    const eventSeq = Number((await eventRow(t, event.id)).seq);
    const transportSeq = Number(
      (await t.db.selectFrom('transports').select('seq').where('id', '=', transport.body.transport.id).executeTakeFirstOrThrow())
        .seq,
    );
    expect(before).toHaveLength(3);

    expect((await t.call('DELETE', `/api/events/${event.id}`, { token: other.token })).status).toBe(403);
    const res = await t.call('DELETE', `/api/events/${event.id}`, { token: fan.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: MESSAGES.eventDeleted });

    const row = await eventRow(t, event.id);
    expect(row.deleted).toBe(1);
    expect(Number(row.seq)).toBeGreaterThan(eventSeq);
    const after = await t.db.selectFrom('attendees').selectAll().where('event_id', '=', event.id).execute();
    expect(after.every((a) => a.deleted === 1)).toBe(true);
    for (const a of after) expect(Number(a.seq)).toBeGreaterThan(Number(before.find((b) => b.id === a.id)!.seq));
    // Every tombstone has its own seq, so a pull that stops between them misses none.
    expect(new Set(after.map((a) => Number(a.seq))).size).toBe(after.length);
    const transports = await t.db.selectFrom('transports').selectAll().where('event_id', '=', event.id).execute();
    expect(transports).toMatchObject([{ deleted: 1 }]);
    expect(Number(transports[0]!.seq)).toBeGreaterThan(transportSeq);
    expect(fs.existsSync(path.join(uploadsDir(), image.body.filename))).toBe(false);

    expect((await t.call('GET', `/api/events/${event.id}`, { token: fan.token })).status).toBe(404);
    expect((await t.call('DELETE', `/api/events/${event.id}`, { token: fan.token })).status).toBe(404);
    const list = await t.call('GET', `/api/transports/event/${event.id}`, { token: fan.token });
    expect(list.status).toBe(404);
  });

  it('lets an admin delete any event; anonymous gets 401', async () => {
    const event = await createEventVia(t, fan.token, { title: 'Admin deletes (H)' });
    expect((await t.call('DELETE', `/api/events/${event.id}`)).status).toBe(401);
    expect((await t.call('DELETE', `/api/events/${event.id}`, { token: admin })).status).toBe(200);
  });
});

describe('POST /api/events/{id}/image', () => {
  let eventId: string;
  beforeAll(async () => {
    eventId = (await createEventVia(t, fan.token, { title: 'Picture match (A)' })).id;
  });
  const url = () => `/api/events/${eventId}/image`;

  it.each([
    ['png', IMAGES.png, 'image/png', /^event-[\w-]+\.png$/],
    ['jpeg', IMAGES.jpeg, 'image/jpeg', /^event-[\w-]+\.jpg$/],
    ['gif', IMAGES.gif, 'image/gif', /^event-[\w-]+\.gif$/],
    ['webp', IMAGES.webp, 'image/webp', /^event-[\w-]+\.webp$/],
  ])(
    'stores a %s under a random name, serves it at /uploads/{name} and removes the previous one',
    async (_kind, bytes, type, pattern) => {
      const previous = (await eventRow(t, eventId)).image_filename;
      const seq = Number((await eventRow(t, eventId)).seq);
      // The declared type and file name do not matter; the content does.
      const res = await uploadFile(t, url(), {
        token: fan.token,
        bytes,
        filename: 'whatever.bin',
        type: 'application/octet-stream',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        message: MESSAGES.imageUploaded,
        filename: expect.stringMatching(pattern),
      });
      expect(res.body.event).toMatchObject({ id: eventId, image_filename: res.body.filename, image: res.body.filename });
      expect(Number((await eventRow(t, eventId)).seq)).toBeGreaterThan(seq);

      const served = await t.app.request(`/uploads/${res.body.filename}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
      if (previous) {
        expect(fs.existsSync(path.join(uploadsDir(), previous))).toBe(false);
        expect((await t.app.request(`/uploads/${previous}`)).status).toBe(404);
      }
      expect(uploaded()).toEqual([res.body.filename]);
    },
  );

  it('accepts a file of exactly 5 MB', async () => {
    const bytes = Buffer.alloc(IMAGE_MAX_BYTES);
    IMAGES.png.copy(bytes);
    const res = await uploadFile(t, url(), { token: admin, bytes });
    expect(res.status).toBe(200);
    expect(fs.statSync(path.join(uploadsDir(), res.body.filename)).size).toBe(IMAGE_MAX_BYTES);
  });

  it.each([
    ['a text file named .png', { bytes: IMAGES.text, filename: 'holiday.png', type: 'image/png' }, 400, MESSAGES.onlyImages],
    [
      'an SVG',
      { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), type: 'image/svg+xml' },
      400,
      MESSAGES.onlyImages,
    ],
    ['an empty file', { bytes: Buffer.alloc(0) }, 400, MESSAGES.noFileUploaded],
    ['the file under another field', { bytes: IMAGES.png, field: 'logo' }, 400, MESSAGES.noFileUploaded],
    [
      'one byte over 5 MB',
      { bytes: Buffer.concat([IMAGES.png, Buffer.alloc(IMAGE_MAX_BYTES + 1 - IMAGES.png.length)]) },
      413,
      MESSAGES.fileTooLarge,
    ],
    ['a 6 MB body', { bytes: Buffer.concat([IMAGES.png, Buffer.alloc(6 * 1024 * 1024)]) }, 413, MESSAGES.fileTooLarge],
  ])('refuses %s and changes nothing', async (_label, file, status, message) => {
    const before = await eventRow(t, eventId);
    const files = uploaded();
    const res = await uploadFile(t, url(), { token: fan.token, ...file });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await eventRow(t, eventId)).toEqual(before);
    expect(uploaded()).toEqual(files);
  });

  it('refuses a body without a file: JSON, a form without the field, none at all', async () => {
    const before = await eventRow(t, eventId);
    const requests: { body: string | undefined; headers: Record<string, string> }[] = [
      { body: JSON.stringify({ image: 'x' }), headers: { 'content-type': 'application/json' } },
      { body: 'image=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { body: '--broken\r\n', headers: { 'content-type': 'multipart/form-data; boundary=nope' } },
      { body: undefined, headers: {} },
    ];
    for (const request of requests) {
      const response = await t.app.request(url(), {
        method: 'POST',
        headers: { authorization: `Bearer ${fan.token}`, ...request.headers },
        body: request.body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, message: MESSAGES.noFileUploaded });
    }
    expect(await eventRow(t, eventId)).toEqual(before);
  });

  it('refuses a body over the limit by its Content-Length before reading it', async () => {
    const response = await t.app.request(url(), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fan.token}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(6 * 1024 * 1024),
      },
      body: 'x',
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ success: false, message: MESSAGES.fileTooLarge });
  });

  it('is for the creator or an admin: another member gets 403, anonymous 401, an unknown event 404', async () => {
    const before = await eventRow(t, eventId);
    const files = uploaded();
    expect((await uploadFile(t, url(), { token: other.token, bytes: IMAGES.png })).status).toBe(403);
    // Permission before content: another member learns nothing about the file.
    expect((await uploadFile(t, url(), { token: other.token, bytes: IMAGES.text })).status).toBe(403);
    expect((await uploadFile(t, url(), { bytes: IMAGES.png })).status).toBe(401);
    const unknown = await uploadFile(t, `/api/events/${newId()}/image`, { token: admin, bytes: IMAGES.png });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Event not found' } });
    expect(await eventRow(t, eventId)).toEqual(before);
    expect(uploaded()).toEqual(files);
  });

  it('DELETE removes the image and its file; again is a no-op; another member gets 403', async () => {
    const name = (await eventRow(t, eventId)).image_filename!;
    expect(name).toBeTruthy();
    expect((await t.call('DELETE', url(), { token: other.token })).status).toBe(403);
    expect(fs.existsSync(path.join(uploadsDir(), name))).toBe(true);
    const res = await t.call('DELETE', url(), { token: fan.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: MESSAGES.imageDeleted,
      event: { image_filename: null, image: null },
    });
    expect(fs.existsSync(path.join(uploadsDir(), name))).toBe(false);
    const seq = Number((await eventRow(t, eventId)).seq);
    expect((await t.call('DELETE', url(), { token: admin })).status).toBe(200);
    expect(Number((await eventRow(t, eventId)).seq)).toBe(seq);
  });
});
