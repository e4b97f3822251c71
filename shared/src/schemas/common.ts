import { z } from 'zod';
import type { MessageCode } from '../registry.js';
import { freeTextProblem, normaliseLineBreaks } from '../rules/freeText.js';
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

/**
 * A single-line free text (a title, a name, a place): refused with 'textHasControlCharacters' when
 * it has a control or direction character, tabs and line breaks included (rules/freeText.ts).
 */
export const lineText = (schema: z.ZodString) =>
  schema.refine((text) => freeTextProblem(text, 'line') === null, msg('textHasControlCharacters'));

/** A multi-line free text (a description): as `lineText`, but \n and \t stay and \r\n becomes \n. */
export const multilineText = (schema: z.ZodString) =>
  schema
    .refine((text) => freeTextProblem(text, 'multiline') === null, msg('textHasControlCharacters'))
    .transform(normaliseLineBreaks);
