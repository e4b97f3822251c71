import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

/** Cost parameters of new hashes; each hash carries its own, so verifying works whatever they were. */
export interface PasswordHashCost {
  memoryCost?: number;
  timeCost?: number;
  parallelism?: number;
}

/** argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes: ~170 ms per hash on 2 cores). */
let hashCost: PasswordHashCost = {};

/**
 * Lowers (or raises) the cost of new hashes for this process. Only the test harness lowers it, so
 * hundreds of sign-ins per test file stay fast; the server never calls it.
 */
export function setPasswordHashCost(cost: PasswordHashCost): void {
  hashCost = { ...cost };
}

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id, ...hashCost });

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** A readable random password for the bootstrap admin and admin-created users (shown once). */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}
