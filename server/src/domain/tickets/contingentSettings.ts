import { checkRequestDeadline, DEFAULT_OFFER_MINUTES, type ContingentInput } from '@fankurve/shared';
import { type WriteContext } from '../../db/store.js';
import { scheduleJobBy } from '../../db/jobs.js';
import { requireAdmin, type Actor } from '../actor.js';
import { requireLiveEvent } from '../attendance/attendance.js';
import { badInput } from '../errors.js';
import { CONTINGENT_JOB, type ContingentRow, findContingent, requireContingent } from './contingentRequests.js';
import { settleContingent } from './contingentAllocation.js';
import { audit, changedFields } from '../club/auditLog.js';

/* The admin's settings of a contingent (docs/product.md, Ticket contingents): size, deadline, payment days, offer window. */

/** Whether a new or changed contingent must wait for its deadline: the job looks at once and then at the deadline. */
async function scheduleDeadline(w: WriteContext, contingent: ContingentRow): Promise<void> {
  if (contingent.request_deadline !== null && contingent.allocated_at === null) await scheduleJobBy(w.db, CONTINGENT_JOB, w.now);
}

/**
 * Sets the event's contingent (admin): tickets, request deadline (in the event's season, not after
 * it), payment days and the offers' window; a field left out keeps its value. Without a deadline
 * (or once the allocation ran) free tickets go out at once.
 */
export async function setContingent(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  input: ContingentInput,
): Promise<ContingentRow> {
  requireAdmin(actor);
  const event = await requireLiveEvent(w.db, eventId);
  const existing = await findContingent(w.db, eventId);
  let deadline = existing?.request_deadline ?? null;
  if (input.request_deadline !== undefined) {
    const typed = input.request_deadline?.trim() ?? '';
    if (typed === '') deadline = null;
    else {
      const checked = checkRequestDeadline(typed, event.date);
      if (!checked.ok) throw badInput(checked.code);
      deadline = checked.value;
    }
  }
  const row: ContingentRow = {
    event_id: eventId,
    tickets: input.tickets,
    request_deadline: deadline,
    payment_days: input.payment_days !== undefined ? input.payment_days : (existing?.payment_days ?? null),
    offer_minutes: input.offer_minutes ?? existing?.offer_minutes ?? DEFAULT_OFFER_MINUTES,
    allocated_at: existing?.allocated_at ?? null,
    created_at: existing?.created_at ?? w.now,
    updated_at: w.now,
  };
  const { event_id: _key, created_at: _created, ...changes } = row;
  await w.db
    .insertInto('contingents')
    .values(row)
    .onConflict((oc) => oc.column('event_id').doUpdateSet(changes))
    .execute();
  w.record({ type: 'contingent.set', eventId, actorId: actor.id });
  const { created_at: _at, updated_at: _updated, allocated_at: _allocated, event_id: _event, ...settings } = row;
  const changed = existing ? changedFields<Record<string, unknown>>(existing, settings) : { before: null, after: settings };
  await audit(w, actor, { kind: 'tickets', action: 'contingent.set', eventId, ...changed });
  await scheduleDeadline(w, row);
  await settleContingent(w, actor, eventId);
  return requireContingent(w.db, eventId);
}
