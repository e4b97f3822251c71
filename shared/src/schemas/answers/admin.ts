import { z } from 'zod';
import { successAnswer, textOrNull } from './common.js';

/* Answers of the admin's task routes (server/src/http/admin.ts). */

/** A member's paid or received request waiting for the admin. */
export const pendingRequest = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    event_title: z.string(),
    event_date: z.string(),
    /** The member, or for a guest the member who brought them (the debtor). */
    username: textOrNull,
    guest_name: textOrNull,
    brought_by_username: textOrNull,
    /** Euros; 0 when the price is not known yet … */
    price: z.number(),
    /** … which this says: shown as "price open", never as 0,00 €. */
    price_open: z.boolean(),
    /**
     * Euros still open on the ticket (its price minus the part of the member's money that goes to it,
     * `rules/ledger.ts` `ticketDebtsOf`): what accepting a paid request books. Null while the price is open.
     */
    open_amount: z.number().nullable(),
    request_date: z.string(),
  })
  .meta({ id: 'PendingRequest' });
export type PendingRequest = z.infer<typeof pendingRequest>;

/** GET /api/admin/pending-paid-requests and /api/admin/pending-received-requests. */
export const pendingRequestsAnswer = successAnswer({ requests: z.array(pendingRequest) });
export type PendingRequestsAnswer = z.infer<typeof pendingRequestsAnswer>;

/** GET /api/admin/pending-tasks-count: the nav bar's badge and what it is made of. */
export const taskCountsAnswer = successAnswer({
  pendingUsers: z.number().int(),
  pendingPaidRequests: z.number().int(),
  pendingReceivedRequests: z.number().int(),
  pendingComments: z.number().int(),
  totalCount: z.number().int(),
});
export type TaskCountsAnswer = z.infer<typeof taskCountsAnswer>;
