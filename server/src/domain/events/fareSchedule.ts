import { clubTimeToInstant } from '@fankurve/shared';
import { scheduleJobBy } from '../../db/jobs.js';
import { toBool, type WriteContext } from '../../db/store.js';
import type { Base } from '../domainEvents.js';

/*
 * When the bus fare falls due (docs/architecture.md, The bus): saving a transport option that charges
 * at its departure schedules the fare job then. Apart from the fare itself (transportFares.ts), so
 * that saving an option does not depend on charging one.
 */

declare module '../domainEvents.js' {
  interface DomainEventTypes {
    /** An option's fare falls due at its departure (`dueAtUtc`, ISO 8601): the fare job wakes then. */
    'transport.fareScheduled': { transportId: string; dueAtUtc: string } & Base;
  }
}

/** The job that charges the fares of options with `charge_at_departure` at their departure time. */
export const FARE_JOB = 'transport-fares';

/** The fields of a transport option that decide whether and when its fare falls due. */
export interface FareTiming {
  id: string;
  charge_at_departure: number;
  departure_datetime: string | null;
  departure_charged_at: string | null;
  deleted: number;
}

/** Schedules the fare job for the option's departure when it charges then and has not yet. */
export async function scheduleFareJob(w: WriteContext, row: FareTiming): Promise<void> {
  if (!toBool(row.charge_at_departure) || row.departure_datetime === null || row.departure_charged_at !== null) return;
  if (toBool(row.deleted)) return;
  const dueAtUtc = clubTimeToInstant(row.departure_datetime, w.timeZone).toISOString();
  await scheduleJobBy(w.db, FARE_JOB, dueAtUtc);
  w.record({ type: 'transport.fareScheduled', transportId: row.id, dueAtUtc, actorId: 'system' });
}
