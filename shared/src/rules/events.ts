import type { Scope } from '../constants.js';

/** Who may edit and delete an event and its image: its creator or an admin (SPEC 6). */
export function canManageEvent(user: { id: string; scope: Scope }, event: { created_by: string | null }): boolean {
  return user.scope === 'admin' || (event.created_by !== null && event.created_by === user.id);
}
