import { centsToEuros, createEventInput } from '@fankurve/shared';
import { listEventAttendees } from '../domain/attendance.js';
import { createEvent, getEventView, listEvents, ticketPricesByStadium, type EventView } from '../domain/events.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { toRestAttendee } from './attendance.js';
import { requireActor } from './session.js';

const tag = 'Events';

/** The REST shape of an event: SPEC 3 field names, money in euros. */
export function toRestEvent<T extends EventView>(event: T) {
  const { ticket_price_cents, deleted: _deleted, seq: _seq, ...rest } = event;
  return { ...rest, ticket_price: centsToEuros(ticket_price_cents), image: rest.image_filename };
}

export function eventRoutes(app: Api, deps: AppDeps): void {
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
}
