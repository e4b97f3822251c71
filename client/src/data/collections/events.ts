import type { EventDoc } from '@fankurve/shared';
import { plainDoc, plainDocs, useQuery } from '../query.js';

export function useEvents(): EventDoc[] | undefined {
  return useQuery((db) => db.events.find({ sort: [{ date: 'asc' }] }).$.pipe(plainDocs<EventDoc>()), []);
}

export function useEvent(eventId: string): EventDoc | null | undefined {
  return useQuery((db) => db.events.findOne(eventId).$.pipe(plainDoc<EventDoc>()), [eventId]);
}
