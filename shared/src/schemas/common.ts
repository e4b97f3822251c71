import { z } from 'zod';
import type { MessageCode } from '../messages.js';
import { hasWholeCents } from '../rules/money.js';

/** Zod issue messages are message codes, so the HTTP layer can answer with the catalogue text. */
export const msg = (code: MessageCode) => ({ error: code });

export const uuidSchema = z.string().uuid();
export const idParamSchema = z.object({ id: z.string().min(1).max(64) });

/**
 * A euro amount as the REST API takes it (a JSON number from 0 to 100,000): `invalid` when it is no
 * such number, `moneyTooPrecise` beyond whole cents, like every money input of the client
 * (rules/money.ts checkEuros). `missing` names a value that is not sent as a number at all.
 */
export const euros = (invalid: MessageCode, missing: MessageCode = invalid) =>
  z.number(msg(missing)).min(0, msg(invalid)).max(100000, msg(invalid)).refine(hasWholeCents, msg('moneyTooPrecise'));
