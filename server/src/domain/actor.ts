import type { Scope } from '@fankurve/shared';
import { DomainError } from './errors.js';

/** The signed-in user a domain function acts for, or the system for writes no user makes. */
export interface Actor {
  id: string;
  username: string;
  scope: Scope;
  /** True only for SYSTEM_ACTOR. */
  system?: boolean;
}

/**
 * The actor of writes that no user makes (the fixture import, reminders): it has an admin's rights
 * and is never a member of anything (its id matches no user row).
 */
export const SYSTEM_ACTOR: Actor = Object.freeze({ id: 'system', username: 'system', scope: 'admin', system: true });

export const isAdmin = (actor: Actor): boolean => actor.scope === 'admin';

export function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor)) throw new DomainError('adminRequired', 403);
}
