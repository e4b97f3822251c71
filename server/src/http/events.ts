import { centsToEuros, createEventInput, MESSAGES, updateEventInput } from '@fankurve/shared';
import { listEventAttendees } from '../domain/attendance.js';
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
} from '../domain/events.js';
import { UploadStore } from '../domain/uploads.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { toRestAttendee } from './attendance.js';
import { requireActor } from './session.js';
import { readUploadedFile } from './upload.js';

const tag = 'Events';

/** The REST shape of an event: SPEC 3 field names, money in euros. */
export function toRestEvent<T extends EventView>(event: T) {
  const { ticket_price_cents, deleted: _deleted, seq: _seq, ...rest } = event;
  return { ...rest, ticket_price: centsToEuros(ticket_price_cents), image: rest.image_filename };
}

export function eventRoutes(app: Api, deps: AppDeps): void {
  const uploads = UploadStore.inDataDir(deps.config.dataDir);

  app.openapi(
    apiRoute({ method: 'get', path: '/api/events', tag, summary: 'All events with going and maybe counts' }),
    async (c) => {
      requireActor(c);
      const events = await listEvents(deps.store);
      return c.json({ success: true, events: events.map(toRestEvent) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events/{id}',
      tag,
      summary: 'An event with attendees and ticket prices',
      params: idParams,
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
      return c.json({ success: true, event: toRestEvent(event), attendees: attendees.map(toRestAttendee), ticketPrices }, 200);
    },
  );

  app.openapi(
    apiRoute({ method: 'post', path: '/api/events', tag, summary: 'Create an event', body: createEventInput }),
    async (c) => {
      const event = await createEvent(deps.store, requireActor(c), c.req.valid('json'));
      return c.json({ success: true, event: toRestEvent(event) }, 201);
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
    }),
    async (c) => {
      const event = await updateEvent(deps.store, requireActor(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ success: true, message: MESSAGES.eventUpdated, event: toRestEvent(event) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/events/{id}',
      tag,
      summary: 'Delete an event with its attendees and transport options (creator or admin)',
      params: idParams,
    }),
    async (c) => {
      await deleteEvent(deps.store, uploads, requireActor(c), c.req.valid('param').id);
      return c.json({ success: true, message: MESSAGES.eventDeleted }, 200);
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
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await readUploadedFile(c, 'image');
      const event = await setEventImage(deps.store, uploads, actor, c.req.valid('param').id, file);
      return c.json(
        { success: true, message: MESSAGES.imageUploaded, filename: event.image_filename, event: toRestEvent(event) },
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
    }),
    async (c) => {
      const event = await deleteEventImage(deps.store, uploads, requireActor(c), c.req.valid('param').id);
      return c.json({ success: true, message: MESSAGES.imageDeleted, event: toRestEvent(event) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/events/{id}/clear-updated',
      tag,
      summary: 'Clear the UPDATED badge (admin)',
      params: idParams,
    }),
    async (c) => {
      const event = await clearUpdated(deps.store, requireActor(c), c.req.valid('param').id);
      return c.json({ success: true, message: MESSAGES.updatedFlagCleared, event: toRestEvent(event) }, 200);
    },
  );
}
