import { z } from 'zod';
import { publicUser } from './auth.js';
import { messageAnswerWith, successAnswer } from './common.js';

/* Answers of the admin's user administration (server/src/http/users.ts). */

/** A user of the admin's table with what they owe (docs/architecture.md, "Data model": euros at the REST edge). */
export const adminUser = publicUser
  .extend({
    unpaid_count: z.number().int(),
    /** Euros owed: the ledger's balance when positive, else 0 (`rules/ledger.ts` `owedFiguresOf`) … */
    total_debt: z.number(),
    /** … and how many unpaid tickets have their price open (not in the total). */
    open_price_count: z.number().int(),
    /** The signed ledger balance in euros (credit negative). */
    balance: z.number(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof adminUser>;

/** GET /api/auth/users and /api/auth/users/all. */
export const adminUsersAnswer = successAnswer({ users: z.array(adminUser) });
export type AdminUsersAnswer = z.infer<typeof adminUsersAnswer>;

/** An erased member as the admin's list shows them apart (docs/architecture.md, Erasure and retention). */
export const erasedUser = z
  .object({
    id: z.string(),
    /** The stored pseudonym ("Ehemaliges Mitglied 7"); the client shows it in the reader's language. */
    name: z.string(),
    former_number: z.number().int(),
    /** ISO 8601 UTC. */
    erased_at: z.string(),
    /** The last day something of the account is kept (`YYYY-MM-DD`); null: nothing is kept. */
    kept_until: z.string().nullable(),
    /** Ledger entries and ticket rows still kept for the books. */
    ledger_entries: z.number().int(),
    tickets: z.number().int(),
  })
  .meta({ id: 'ErasedUser' });
export type ErasedUser = z.infer<typeof erasedUser>;

/** GET /api/auth/users/erased (admin), newest erasure first. */
export const erasedUsersAnswer = successAnswer({ users: z.array(erasedUser) });
export type ErasedUsersAnswer = z.infer<typeof erasedUsersAnswer>;

/** GET /api/auth/users/{id}. */
export const adminUserAnswer = successAnswer({ user: adminUser });
export type AdminUserAnswer = z.infer<typeof adminUserAnswer>;

/** POST /api/auth/users (201): the temporary password is shown once. */
export const userCreatedAnswer = messageAnswerWith({ user: publicUser, temporaryPassword: z.string() });
export type UserCreatedAnswer = z.infer<typeof userCreatedAnswer>;
