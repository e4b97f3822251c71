import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

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
