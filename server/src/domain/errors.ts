import { MESSAGES, type MessageCode } from '@fankurve/shared';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 426 | 429;

/** The one error class of the domain: a message code, an HTTP status and the catalogue text. */
export class DomainError extends Error {
  constructor(
    readonly code: MessageCode,
    readonly status: ErrorStatus,
  ) {
    super(MESSAGES[code]);
    this.name = 'DomainError';
  }
}

export const badInput = (code: MessageCode = 'invalidInput') => new DomainError(code, 400);
export const notFound = (code: MessageCode = 'notFound') => new DomainError(code, 404);
export const forbidden = (code: MessageCode = 'forbidden') => new DomainError(code, 403);
export const conflict = (code: MessageCode) => new DomainError(code, 409);
