import { isPollOpen, type EventDoc, type PollDoc } from '@fankurve/shared';
import { combineLatest, map, of, switchMap, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import type { DocStore } from '../docStore.js';
import { useQuery } from '../query.js';
import { ownVotes$ } from './pollVotes.js';

/*
 * Polls on the device (docs/product.md, Polls): every poll with the counts the server let this
 * member see (null while hidden), the member's own choice from their votes on the device (also one
 * not yet sent), and the event a poll belongs to. Read offline like everything else.
 */

/** A poll as the screens show it. */
export interface PollView extends PollDoc {
  /** Takes votes by the device's clock (the server decides again by the vote's arrival). */
  open: boolean;
  /** The options the member chose on this device or another ([] none). */
  my_votes: string[];
  /** The event it belongs to, while that event is on the device and not archived. */
  event: Pick<EventDoc, 'id' | 'title' | 'date'> | null;
}

/** Open polls first, each part newest first (the order of GET /api/polls). */
const pollOrder = (a: PollView, b: PollView) =>
  Number(b.open) - Number(a.open) || b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** The polls on the device (of one event, or all), as `userId` sees them at `now`. */
export function polls$(
  db: FankurveDatabase,
  docs: DocStore,
  userId: string,
  options: { eventId?: string; now?: () => string } = {},
): Observable<PollView[]> {
  const now = options.now ?? (() => new Date().toISOString());
  const { eventId } = options;
  const polls$ = docs.live(() =>
    eventId === undefined ? docs.table('polls').toArray() : docs.table('polls').filter((poll) => poll.event_id === eventId).toArray(),
  );
  return combineLatest([polls$, ownVotes$(db, userId)]).pipe(
    switchMap(([polls, votes]) => {
      const eventIds = [...new Set(polls.flatMap((poll) => (poll.event_id ? [poll.event_id] : [])))];
      const events$ = eventIds.length === 0 ? of(new Map<string, EventDoc>()) : docs.byIds('events', eventIds);
      return events$.pipe(
        map((events) => {
          const at = now();
          return polls
            .map((poll): PollView => {
              const event = poll.event_id ? events.get(poll.event_id) : undefined;
              return {
                ...poll,
                open: isPollOpen(poll, at),
                my_votes: votes.get(poll.id) ?? [],
                event: event && !event.archived ? { id: event.id, title: event.title, date: event.date } : null,
              };
            })
            .sort(pollOrder);
        }),
      );
    }),
  );
}

/** The polls of one event, or all polls when `eventId` is left out; `tick` re-reads them (a closing time passed). */
export function usePolls(userId: string, eventId?: string, tick = 0): PollView[] | undefined {
  return useQuery((db, docs) => polls$(db, docs, userId, { eventId }), [userId, eventId, tick]);
}
