import {
  contingentAllocatedAnswer,
  contingentAnswer,
  contingentInput,
  contingentSavedAnswer,
  MESSAGES,
  myOffersAnswer,
  offerAnswer,
  ticketRequestAnswer,
  ticketRequestFlagsInput,
  ticketReturnInput,
  ticketReturnedAnswer,
  todayIn,
} from '@fankurve/shared';
import { toBool, write } from '../db/store.js';
import { allocateNow, setRequestFlags } from '../domain/tickets/contingentAllocation.js';
import { contingentFigures, contingentView, toRestOffer } from '../domain/tickets/contingentView.js';
import { findContingent } from '../domain/tickets/contingentRequests.js';
import { setContingent } from '../domain/tickets/contingentSettings.js';
import { acceptOffer, declineOffer, myOpenOffers, returnTicket } from '../domain/tickets/offers.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Ticket contingents';

const attendeeParams = z.object({ attendeeId: z.string().min(1).max(64) });
const requestParams = z.object({ id: z.string().min(1).max(64), attendeeId: z.string().min(1).max(64) });

/** Ticket contingents, the fair allocation and the waiting list's offers (docs/product.md, REST API). */
export function contingentRoutes(app: Api, deps: AppDeps): void {
  const today = () => todayIn(deps.config.clubTimeZone);
  const figuresOf = async (eventId: string) => contingentFigures(deps.store.db, (await findContingent(deps.store.db, eventId))!);

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events/{id}/contingent',
      tag,
      summary: "The event's ticket contingent, the member's own request, and for admins the queue",
      params: idParams,
      answers: { 200: contingentAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const view = await contingentView(deps.store.db, actor, c.req.valid('param').id, today());
      return c.json({ success: true as const, ...view }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/events/{id}/contingent',
      tag,
      summary: 'Set the ticket contingent: tickets, request deadline, days to pay, offer window (admin)',
      params: idParams,
      body: contingentInput,
      access: 'admin',
      answers: { 200: contingentSavedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const eventId = c.req.valid('param').id;
      await write(deps.store, (w) => setContingent(w, actor, eventId, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.contingentSaved, contingent: await figuresOf(eventId) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/events/{id}/contingent/allocate',
      tag,
      summary: 'Allocate the free tickets now, in the allocation order (admin)',
      params: idParams,
      access: 'admin',
      answers: { 200: contingentAllocatedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const eventId = c.req.valid('param').id;
      const allocated = await write(deps.store, (w) => allocateNow(w, actor, eventId));
      return c.json(
        { success: true as const, message: MESSAGES.contingentAllocated, contingent: await figuresOf(eventId), allocated },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/events/{id}/contingent/requests/{attendeeId}',
      tag,
      summary: 'Pin a ticket request to the front or exclude it, with a note its member reads (admin)',
      params: requestParams,
      body: ticketRequestFlagsInput,
      access: 'admin',
      answers: { 200: ticketRequestAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { id, attendeeId } = c.req.valid('param');
      const row = await write(deps.store, (w) => setRequestFlags(w, actor, id, attendeeId, c.req.valid('json')));
      return c.json(
        {
          success: true as const,
          message: MESSAGES.ticketRequestSaved,
          request: {
            attendee_id: row.attendee_id,
            state: row.state,
            pinned: toBool(row.pinned),
            excluded: toBool(row.excluded),
            note: row.note,
          },
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/tickets/{attendeeId}/return',
      tag,
      summary: 'Return a bought ticket of a contingent: the next in line is offered it (its debtor or an admin)',
      params: attendeeParams,
      body: ticketReturnInput,
      bodyOptional: true,
      answers: { 200: ticketReturnedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const choice = c.req.valid('json');
      const offered = await write(deps.store, (w) => returnTicket(w, actor, c.req.valid('param').attendeeId, choice));
      return c.json({ success: true as const, message: MESSAGES.ticketReturned, offered }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/tickets/offers/my',
      tag,
      summary: "The member's open offers of returned tickets",
      answers: { 200: myOffersAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const offers = await myOpenOffers(deps.store.db, actor, new Date().toISOString());
      return c.json({ success: true as const, offers }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/tickets/offers/{id}/accept',
      tag,
      summary: 'Accept an offer before its window closes: the ticket and its debt move to the member',
      params: idParams,
      answers: { 200: offerAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const offer = await write(deps.store, (w) => acceptOffer(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.offerAccepted, offer: toRestOffer(offer) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/tickets/offers/{id}/decline',
      tag,
      summary: 'Decline an offer: the ticket is offered to the next in line',
      params: idParams,
      answers: { 200: offerAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const offer = await write(deps.store, (w) => declineOffer(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.offerDeclined, offer: toRestOffer(offer) }, 200);
    },
  );
}
