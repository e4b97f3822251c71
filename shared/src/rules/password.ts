import { MIN_PASSWORD_LENGTH } from '../constants.js';
import type { CoreMessageCode } from '../messages.js';

/** The longest password taken (MESSAGES.passwordTooLong names it); argon2 hashes any length, this bounds the work. */
export const PASSWORD_MAX_LENGTH = 200;

/** Returns the message code of what is wrong with a new password, or null. */
export function checkNewPassword(password: string): CoreMessageCode | null {
  if (password.length < MIN_PASSWORD_LENGTH) return 'passwordTooShort';
  return password.length > PASSWORD_MAX_LENGTH ? 'passwordTooLong' : null;
}

/** A new password and its confirmation must be the same (reset-password form; docs/product.md, Input rules). */
export function checkPasswordConfirmation(password: string, confirmation: string): CoreMessageCode | null {
  return password === confirmation ? null : 'passwordsDoNotMatch';
}
