import {
  centsToEuros,
  createEventInput,
  eventChangedAnswer,
  eventCreatedAnswer,
  eventDetailAnswer,
  eventImageAnswer,
  eventRemindersAnswer,
  eventsAnswer,
  messageAnswer,
  MESSAGES,
  updateEventInput,
  type EventsAnswer,
} from '@fankurve/shared';
import { listEventAttendees } from '../domain/attendance/attendance.js';
import {
  clearUpdated,
  createEvent,
  deleteEvent,
  deleteEventImage,
  getEventView,
  listEvents,
  setEventImage,
  ticketPricesByStadium,
  updateEvent,
  type EventView,
} from '../domain/events/events.js';
import { listEventReminders } from '../domain/events/reminders.js';
import { UploadStore } from '../domain/uploads.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { write } from '../db/store.js';
import type { Api, AppDeps } from './context.js';
import { COMPRESS_MIN_BYTES, negotiateEncoding } from './compress.js';
import { apiRoute, idParams } from './openapi.js';
import { toRestAttendee } from './attendance.js';
import { requireActor } from './session.js';
import { readUploadedFile } from './upload.js';

const tag = 'Events';

/** The REST shape of an event (`restEvent`): money in euros, the image also as `image` (REST never shows an archived event). */
export function toRestEvent<T extends EventView>(event: T) {
  const { ticket_price_cents, deleted: _deleted, archived: _archived, seq: _seq, ...rest } = event;
  return { ...rest, ticket_price: centsToEuros(ticket_price_cents), image: rest.image_filename };
}

/** The body of GET /api/events, which deps.ts's events list cache builds. */
export async function eventsListAnswer(db: Kysely<Database>): Promise<EventsAnswer> {
  return { success: true as const, events: (await listEvents(db)).map(toRestEvent) };
}

export function eventRoutes(app: Api, deps: AppDeps): void {
  const uploads = new UploadStore(deps.config.uploadsDir);
  const eventsList = deps.eventsList;

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events',
      tag,
      summary: 'All events with going and maybe counts',
      // Stored bytes, typed where they are built (eventsListAnswer), so this handler's answers go unchecked.
      answers: { 200: eventsAnswer, 304: { description: 'Not modified (If-None-Match names the current list)' } },
    }),
    async (c) => {
      requireActor(c);
      // The same list for every signed-in user: served from bytes built once per write-counter value.
      const list = await eventsList.current();
      const coding = list.size < COMPRESS_MIN_BYTES ? 'identity' : negotiateEncoding(c.req.header('Accept-Encoding'));
      const headers: Record<string, string> = {
        ETag: list.etag(coding),
        'Cache-Control': 'private, no-cache',
        Vary: 'Accept-Encoding',
      };
      if (list.matches(c.req.header('If-None-Match'))) return c.body(null, 304, headers);
      headers['Content-Type'] = 'application/json';
      if (coding !== 'identity') headers['Content-Encoding'] = coding;
      const body = await list.body(coding);
      headers['Content-Length'] = String(body.byteLength);
      return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events/{id}',
      tag,
      summary: 'An event with attendees and ticket prices',
      params: idParams,
      answers: { 200: eventDetailAnswer },
    }),
    async (c) => {
      requireActor(c);
      const event = await getEventView(deps.store.db, c.req.valid('param').id);
      const [attendees, prices] = await Promise.all([
        listEventAttendees(deps.store.db, event.id),
        ticketPricesByStadium(deps.store.db, [event.stadium_id]),
      ]);
      const ticketPrices = (event.stadium_id ? (prices.get(event.stadium_id) ?? []) : []).map((p) => ({
        id: p.id,
        price: centsToEuros(p.price_cents),
        ticket_type: p.ticket_type,
      }));
      return c.json(
        { success: true as const, event: toRestEvent(event), attendees: attendees.map(toRestAttendee), ticketPrices },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/events',
      tag,
      summary: 'Create an event',
      body: createEventInput,
      answers: { 201: eventCreatedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const event = await write(deps.store, (w) => createEvent(w, actor, c.req.valid('json')));
      return c.json({ success: true as const, event: toRestEvent(event) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/events/{id}',
      tag,
      summary: 'Edit an event (creator or admin; any of the event fields)',
      params: idParams,
      body: updateEventInput,
      answers: { 200: eventChangedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const event = await write(deps.store, (w) => updateEvent(w, actor, c.req.valid('param').id, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.eventUpdated, event: toRestEvent(event) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/events/{id}',
      tag,
      summary: 'Delete an event with its attendees and transport options (creator or admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => deleteEvent(w, uploads, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.eventDeleted }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/events/{id}/image',
      tag,
      summary: 'Upload the event image (multipart field image; JPEG, PNG, GIF or WebP up to 5 MB; creator or admin)',
      params: idParams,
      upload: 'image',
      answers: { 200: eventImageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await readUploadedFile(c, 'image');
      const event = await write(deps.store, (w) => setEventImage(w, uploads, actor, c.req.valid('param').id, file));
      return c.json(
        { success: true as const, message: MESSAGES.imageUploaded, filename: event.image_filename, event: toRestEvent(event) },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/events/{id}/image',
      tag,
      summary: 'Delete the event image (creator or admin)',
      params: idParams,
      answers: { 200: eventChangedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const event = await write(deps.store, (w) => deleteEventImage(w, uploads, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.imageDeleted, event: toRestEvent(event) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/events/{id}/clear-updated',
      tag,
      summary: 'Clear the UPDATED badge (admin)',
      params: idParams,
      answers: { 200: eventChangedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const event = await write(deps.store, (w) => clearUpdated(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.updatedFlagCleared, event: toRestEvent(event) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events/{id}/reminders',
      tag,
      summary: 'Who was reminded to answer the event and when (admin; docs/product.md, Answer deadlines and reminders)',
      params: idParams,
      answers: { 200: eventRemindersAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const reminders = await listEventReminders(deps.store.db, actor, c.req.valid('param').id);
      return c.json({ success: true as const, reminders }, 200);
    },
  );
}
