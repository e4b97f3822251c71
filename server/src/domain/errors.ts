import { MESSAGES, type MessageCode } from '@fankurve/shared';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 426 | 429;

/** The one error class of the domain: a message code, an HTTP status and the catalogue text. */
export class DomainError extends Error {
  constructor(
    readonly code: MessageCode,
    readonly status: ErrorStatus,
    /** For 429: when trying again makes sense (the answer's Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(MESSAGES[code]);
    this.name = 'DomainError';
  }
}

export const badInput = (code: MessageCode = 'invalidInput') => new DomainError(code, 400);
export const notFound = (code: MessageCode = 'notFound') => new DomainError(code, 404);
export const forbidden = (code: MessageCode = 'forbidden') => new DomainError(code, 403);
export const conflict = (code: MessageCode) => new DomainError(code, 409);

/** A limit was reached; `retryAfterMs` becomes the answer's Retry-After header. */
export const tooManyRequests = (code: MessageCode, retryAfterMs: number) => new DomainError(code, 429, retryAfterMs);
