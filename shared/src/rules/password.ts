import { MIN_PASSWORD_LENGTH } from '../constants.js';
import type { MessageCode } from '../messages.js';

/** Returns the message code of what is wrong with a new password, or null. */
export function checkNewPassword(password: string): MessageCode | null {
  return password.length < MIN_PASSWORD_LENGTH ? 'passwordTooShort' : null;
}

/** A new password and its confirmation must be the same (reset-password form; SPEC 5). */
export function checkPasswordConfirmation(password: string, confirmation: string): MessageCode | null {
  return password === confirmation ? null : 'passwordsDoNotMatch';
}
