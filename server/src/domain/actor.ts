import type { Scope } from '@fankurve/shared';
import { DomainError } from './errors.js';

/** The signed-in user a domain function acts for. */
export interface Actor {
  id: string;
  username: string;
  scope: Scope;
}

export const isAdmin = (actor: Actor): boolean => actor.scope === 'admin';

export function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor)) throw new DomainError('adminRequired', 403);
}
