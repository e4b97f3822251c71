import { z } from 'zod';
import { MESSAGES, type MessageCode } from '../../registry.js';

/*
 * The answers of the REST routes (docs/architecture.md, "REST answers"). Each route names its answer
 * schema per status (`apiRoute` in server/src/http/openapi.ts), TypeScript checks every `c.json(...)`
 * against it, the OpenAPI document shows it, and the client's answer types are inferred from it.
 * Objects are strict: a field the schema does not name fails the server tests' answer check.
 */

/** A successful answer: `{ success: true, ...fields }`. */
export const successAnswer = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.strictObject({ success: z.literal(true), ...shape });

/** A write's answer with its confirmation: `message` is the English text of the message catalogue. */
export const messageAnswerWith = <Shape extends z.ZodRawShape>(shape: Shape) => successAnswer({ message: z.string(), ...shape });

/** `{ success: true, message }`: a deletion, and the writes that answer nothing else. */
export const messageAnswer = messageAnswerWith({}).meta({ id: 'Done' });
export type MessageAnswer = z.infer<typeof messageAnswer>;

/** A failure: the message code (clients translate by it) and its English text (docs/architecture.md, Layers). */
export const errorAnswer = z
  .strictObject({ success: z.literal(false), message: z.string(), code: z.string() })
  .meta({ id: 'Error' });
export type ErrorAnswer = z.infer<typeof errorAnswer>;

/** A code of the message catalogue (shared/src/messages.ts). */
export const messageCode = z.enum(Object.keys(MESSAGES) as [MessageCode, ...MessageCode[]]).meta({ id: 'MessageCode' });

/** A text that may be absent (null). */
export const textOrNull = z.string().nullable();
