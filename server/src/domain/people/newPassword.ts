import { checkNewPassword } from '@fankurve/shared';
import { hashPassword } from './passwords.js';
import { badInput } from '../errors.js';

/**
 * A new password, checked by the shared rule (rules/password.ts) and hashed before the write: argon2
 * is slow and must never hold a transaction (and with it every other writer) open. Registration, a
 * member's own change, an admin's and a reset link all take one.
 */
export interface PreparedPassword {
  hash: string;
}

export async function prepareNewPassword(password: string): Promise<PreparedPassword> {
  const problem = checkNewPassword(password);
  if (problem) throw badInput(problem);
  return { hash: await hashPassword(password) };
}
