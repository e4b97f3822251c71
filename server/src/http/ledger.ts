import {
  errorAnswer,
  ledgerEntryAnswer,
  ledgerChargeAnswer,
  ledgerChargeInput,
  ledgerChargeReversedAnswer,
  ledgerAccountsQuery,
  ledgerEntryInput,
  ledgerMembersAnswer,
  ledgerPaymentAnswer,
  ledgerStatementAnswer,
  MESSAGES,
  seasonAccountsAnswer,
  todayIn,
} from '@fankurve/shared';
import { write } from '../db/store.js';
import { bookEntry, reverseEntry } from '../domain/money/ledgerBookings.js';
import { chargeInBulk, reverseBulkCharge } from '../domain/money/bulkCharges.js';
import {
  listBalances,
  memberStatement,
  myStatement,
  paymentRequestOf,
  toRestLedgerEntry,
} from '../domain/money/ledgerStatements.js';
import { answerOnce, idempotencyKeyOf, keepRefusal } from '../domain/money/idempotency.js';
import { seasonAccounts } from '../domain/money/seasonAccounts.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, withQuery, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Ledger';

/** The club's money (docs/architecture.md, Ledger): members read their own statement, admins everyone's and book entries. */
export function ledgerRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/ledger/my',
      tag,
      summary: "The member's balance (positive: owed) and statement",
      answers: { 200: ledgerStatementAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      return c.json({ success: true as const, ...(await myStatement(deps.store.db, actor)) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/ledger/my/payment',
      tag,
      summary: "What the member transfers, its reference and the GiroCode's EPC payload",
      answers: {
        200: ledgerPaymentAnswer,
        409: {
          schema: errorAnswer,
          description: 'Nothing is owed (`ledgerNothingOwed`) or no club account (`ledgerNoClubAccount`)',
        },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      const payment = await paymentRequestOf(deps.store.db, actor);
      return c.json(
        { success: true as const, amount: payment.amountCents / 100, reference: payment.reference, epc: payment.epc },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/ledger',
      tag,
      summary: 'Every member with their balance, largest first (admin)',
      answers: { 200: ledgerMembersAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      return c.json({ success: true as const, members: await listBalances(deps.store.db, actor) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/ledger/members/{userId}',
      tag,
      summary: "One member's balance and statement (admin)",
      params: z.object({ userId: z.string().min(1).max(64) }),
      answers: { 200: ledgerStatementAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      return c.json(
        { success: true as const, ...(await memberStatement(deps.store.db, actor, c.req.valid('param').userId)) },
        200,
      );
    },
  );

  app.openapi(
    withQuery(
      apiRoute({
        method: 'get',
        path: '/api/ledger/accounts',
        tag,
        summary:
          "The season's accounts in cents: per event charged, collected, credited, refunded and open; the other kinds of money; totals; members' balances at the season's end (admin)",
        access: 'admin',
        answers: {
          200: seasonAccountsAnswer,
          400: { schema: errorAnswer, description: 'The season is no year from 2000 to 2100 (`ledgerSeasonInvalid`)' },
        },
      }),
      ledgerAccountsQuery,
    ),
    async (c) => {
      const actor = requireActor(c);
      const accounts = await seasonAccounts(deps.store.db, actor, c.req.valid('query').season, todayIn(deps.config.clubTimeZone));
      return c.json({ success: true as const, accounts }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/ledger/entries',
      tag,
      summary:
        'Book a payment, charge, credit or refund for a member (admin); with an Idempotency-Key header a repeated request gets the first answer and books nothing',
      access: 'admin',
      body: ledgerEntryInput,
      answers: {
        201: ledgerEntryAnswer,
        409: { schema: errorAnswer, description: 'The Idempotency-Key was used with another body (`idempotencyKeyReused`)' },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      const body = c.req.valid('json');
      const request = { actor, scope: 'POST /api/ledger/entries', key: idempotencyKeyOf(c.req.header('idempotency-key')), body };
      try {
        const answer = await write(deps.store, (w) =>
          answerOnce(w, request, async () => {
            const entry = await bookEntry(w, actor, body);
            return {
              status: 201,
              body: { success: true as const, message: MESSAGES.ledgerEntryBooked, entry: toRestLedgerEntry(entry) },
            };
          }),
        );
        return c.json(answer.body, 201);
      } catch (error) {
        if (request.key !== null) await write(deps.store, (w) => keepRefusal(w, request, error));
        throw error;
      }
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/ledger/entries/{id}/reverse',
      tag,
      summary: 'Reverse a booked entry (admin)',
      params: idParams,
      answers: {
        201: ledgerEntryAnswer,
        409: {
          schema: errorAnswer,
          description: 'Already reversed, a reversal itself, or following a ticket (`ledgerEntryReversed`, …)',
        },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      const entry = await write(deps.store, (w) => reverseEntry(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.ledgerEntryReversedNow, entry: toRestLedgerEntry(entry) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/ledger/charges',
      tag,
      summary:
        "Charge many members at once: all active members, everyone going to an event, or a transport option's passengers (admin)",
      body: ledgerChargeInput,
      access: 'admin',
      answers: { 201: ledgerChargeAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const charge = await write(deps.store, (w) => chargeInBulk(w, actor, c.req.valid('json')));
      return c.json({ id: charge.id, entries: charge.entries.map(toRestLedgerEntry), total: charge.totalCents / 100 }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/ledger/charges/{id}/reverse',
      tag,
      summary: 'Reverse every entry of a bulk charge (admin)',
      params: idParams,
      access: 'admin',
      answers: { 201: ledgerChargeReversedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const reversals = await write(deps.store, (w) => reverseBulkCharge(w, actor, c.req.valid('param').id));
      return c.json({ entries: reversals.map(toRestLedgerEntry) }, 201);
    },
  );
}
