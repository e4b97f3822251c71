import { MESSAGES, type MessageCode } from '@fankurve/shared';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { DomainError } from '../domain/errors.js';

/** Every failure answers `{ success: false, message, code }` (`errorAnswer`) with its status. */
export function failure<Status extends ContentfulStatusCode>(
  c: Context,
  status: Status,
  code: MessageCode | string,
  message?: string,
) {
  const text = message ?? (code in MESSAGES ? MESSAGES[code as MessageCode] : code);
  // A body too large is left unread and the server closes the socket after answering: say so, so a
  // client that reuses connections opens a new one instead of failing on the closed one.
  if (status === 413) c.header('Connection', 'close');
  return c.json({ success: false as const, message: text, code }, status);
}

/** A zod failure: the first issue's message is a message code, or becomes `field: text`. */
export function validationFailure(c: Context, error: ZodError) {
  const issue = error.issues[0];
  if (!issue) return failure(c, 400, 'invalidInput');
  if (issue.message in MESSAGES) return failure(c, 400, issue.message);
  const field = issue.path.join('.');
  return failure(c, 400, 'invalidInput', field ? `${MESSAGES.invalidInput}: ${field}` : MESSAGES.invalidInput);
}

export function handleError(error: Error, c: Context) {
  if (error instanceof DomainError) {
    if (error.retryAfterMs !== undefined) c.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
    return failure(c, error.status, error.code);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    if (status === 413) return failure(c, 413, 'bodyTooLarge');
    if (status === 415) return failure(c, 415, 'unsupportedMediaType');
    if (status === 400 && /JSON/i.test(error.message)) return failure(c, 400, 'malformedJson');
    return failure(c, status, error.message || 'invalidInput');
  }
  console.error('Unexpected error on', c.req.method, c.req.path, error);
  return failure(c, 500, 'internalError');
}
