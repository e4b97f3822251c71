import {
  centsToEuros,
  messageAnswer,
  MESSAGES,
  stadiumAnswer,
  stadiumDetailAnswer,
  stadiumInput,
  stadiumInUseAnswer,
  stadiumsAnswer,
  ticketPriceAnswer,
  ticketPriceInput,
  ticketPricesAnswer,
  todayIn,
  updateStadiumInput,
} from '@fankurve/shared';
import {
  createStadium,
  createTicketPrice,
  deleteStadium,
  deleteTicketPrice,
  getStadiumDetail,
  listStadiums,
  listTicketPrices,
  StadiumInUseError,
  updateStadium,
  type StadiumView,
  type TicketPriceRow,
} from '../domain/events/stadiums.js';
import { write } from '../db/store.js';
import type { Api, AppDeps } from './context.js';
import { toRestEvent } from './events.js';
import { apiRoute, idParams, z } from './openapi.js';
import { requireActor } from './session.js';

/** The REST shape of a stadium price option: price in euros. */
export function toRestTicketPrice(row: TicketPriceRow) {
  const { price_cents, ...rest } = row;
  return { ...rest, price: centsToEuros(price_cents) };
}

/** The REST shape of a stadium (`restStadium`): ticket_price in euros or null, with its price options as ticketPrices. */
export function toRestStadium(stadium: StadiumView) {
  const { ticket_price_cents, ticket_prices, ...rest } = stadium;
  return {
    ...rest,
    ticket_price: ticket_price_cents === null ? null : centsToEuros(ticket_price_cents),
    ticketPrices: ticket_prices.map(toRestTicketPrice),
  };
}

/** Stadiums (list readable by every signed-in user, the rest admin-only) and their ticket prices (admin). */
export function stadiumRoutes(app: Api, deps: AppDeps): void {
  const tag = 'Stadiums';

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/stadiums',
      tag,
      summary: 'All stadiums with their ticket prices (signed in)',
      answers: { 200: stadiumsAnswer },
    }),
    async (c) => {
      requireActor(c);
      const stadiums = await listStadiums(deps.store.db);
      return c.json({ success: true as const, stadiums: stadiums.map(toRestStadium) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/stadiums/{id}',
      tag,
      summary: 'A stadium with its prices, at most 5 upcoming and 5 recent events (admin)',
      params: idParams,
      answers: { 200: stadiumDetailAnswer },
    }),
    async (c) => {
      const today = todayIn(deps.config.clubTimeZone);
      const detail = await getStadiumDetail(deps.store.db, requireActor(c), c.req.valid('param').id, today);
      return c.json(
        {
          success: true as const,
          stadium: toRestStadium(detail.stadium),
          upcomingEvents: detail.upcoming.map(toRestEvent),
          recentEvents: detail.recent.map(toRestEvent),
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/stadiums',
      tag,
      summary: 'Add a stadium (admin)',
      body: stadiumInput,
      answers: { 201: stadiumAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const stadium = await write(deps.store, (w) => createStadium(w, actor, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.stadiumAdded, stadium: toRestStadium(stadium) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/stadiums/{id}',
      tag,
      summary: 'Change a stadium (admin)',
      params: idParams,
      body: updateStadiumInput,
      answers: { 200: stadiumAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const stadium = await write(deps.store, (w) => updateStadium(w, actor, c.req.valid('param').id, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.stadiumUpdated, stadium: toRestStadium(stadium) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/stadiums/{id}',
      tag,
      summary: 'Delete a stadium that no event uses (admin); 409 names the events that use it',
      params: idParams,
      answers: {
        200: messageAnswer,
        409: { schema: stadiumInUseAnswer, description: 'Live events use the stadium (`stadiumInUse`)' },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      try {
        await write(deps.store, (w) => deleteStadium(w, actor, c.req.valid('param').id));
      } catch (error) {
        if (!(error instanceof StadiumInUseError)) throw error;
        return c.json({ success: false as const, message: MESSAGES.stadiumInUse, code: error.code, events: error.events }, 409);
      }
      return c.json({ success: true as const, message: MESSAGES.stadiumDeleted }, 200);
    },
  );

  const priceTag = 'Ticket prices';

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/ticket-prices/stadium/{stadiumId}',
      tag: priceTag,
      summary: 'The ticket price options of a stadium (admin)',
      params: z.object({ stadiumId: z.string().min(1).max(64) }),
      answers: { 200: ticketPricesAnswer },
    }),
    async (c) => {
      const prices = await listTicketPrices(deps.store.db, requireActor(c), c.req.valid('param').stadiumId);
      return c.json({ success: true as const, ticketPrices: prices.map(toRestTicketPrice) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/ticket-prices',
      tag: priceTag,
      summary: 'Add a ticket price option to a stadium (admin)',
      body: ticketPriceInput,
      answers: { 201: ticketPriceAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const price = await write(deps.store, (w) => createTicketPrice(w, actor, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.ticketPriceAdded, ticketPrice: toRestTicketPrice(price) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/ticket-prices/{id}',
      tag: priceTag,
      summary: 'Delete a ticket price option (admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => deleteTicketPrice(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.ticketPriceDeleted }, 200);
    },
  );
}
