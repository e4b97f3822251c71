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

/** GET /api/auth/users/{id}. */
export const adminUserAnswer = successAnswer({ user: adminUser });
export type AdminUserAnswer = z.infer<typeof adminUserAnswer>;

/** POST /api/auth/users (201): the temporary password is shown once. */
export const userCreatedAnswer = messageAnswerWith({ user: publicUser, temporaryPassword: z.string() });
export type UserCreatedAnswer = z.infer<typeof userCreatedAnswer>;
