import type { ContingentAnswer, MyRequest } from '@fankurve/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/client.js';
import { getContingent } from '../../api/contingents.js';
import { onServerChange, useSnapshot, useSyncState } from '../../data/index.js';

/** The answer for an event that has a contingent. */
export type HeldContingent = ContingentAnswer & { contingent: NonNullable<ContingentAnswer['contingent']>; mine: MyRequest };

/**
 * What the section shows: `ready` with the answer read now, or the one last read on this device
 * (`stale` with its time `readAt`: offline, or the server does not answer; while the first read is
 * under way it shows without being called stale); `none` for an event without one; `unavailable`
 * when nothing was ever read here and the server cannot be asked.
 */
export type LoadedContingent =
  | { state: 'loading' }
  | { state: 'none' }
  | { state: 'unavailable' }
  | { state: 'ready'; answer: HeldContingent; stale: boolean; readAt: string };

/** What the device remembers of the last answer (docs/architecture.md, Ticket contingents, "Offline"). */
interface Remembered {
  answer: HeldContingent | null;
  readAt: string;
}

const held = (answer: ContingentAnswer): answer is HeldContingent => answer.contingent !== null && answer.mine !== null;

/** The collections whose changes can move the contingent's figures or the member's place. */
const MOVES_CONTINGENT = ['attendees', 'offers', 'events'];

/**
 * The contingent's figures, the member's place and the admin's queue, read online (REST), again
 * whenever the change stream says attendee rows or offers changed, and when the device has finished
 * syncing (an answer made offline has just reached the server). The last answer is remembered on the
 * device (per member), so offline — at the stadium, or opened for the first time since — the
 * section still shows the member's state, place and pay-by date as last read, and says so.
 */
export function useContingent(eventId: string, userId: string, online: boolean): [LoadedContingent, () => void] {
  const [read, setRead] = useState<Remembered | 'loading' | 'failed'>('loading');
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const syncing = useSyncState('syncing');
  const wasSyncing = useRef(syncing);
  useEffect(() => {
    if (wasSyncing.current && !syncing) reload();
    wasSyncing.current = syncing;
  }, [syncing, reload]);
  useEffect(
    () =>
      onServerChange((collections) => {
        if (collections.some((name) => MOVES_CONTINGENT.includes(name))) reload();
      }),
    [reload],
  );
  useEffect(() => {
    if (!online) {
      setRead((before) => (typeof before === 'object' ? before : 'failed'));
      return;
    }
    let cancelled = false;
    getContingent(eventId).then(
      (answer) => {
        // An event without a contingent answers null, no error (docs/product.md, REST API).
        if (!cancelled) setRead({ answer: held(answer) ? answer : null, readAt: new Date().toISOString() });
      },
      (error: unknown) => {
        if (cancelled) return;
        if (!isApiError(error)) console.warn('Could not read the contingent', error);
        setRead((before) => (typeof before === 'object' ? before : 'failed'));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [eventId, online, version]);

  const current = typeof read === 'object' ? read : undefined;
  const remembered = useSnapshot<Remembered>(`contingent:${eventId}`, userId, current);
  // Read here before the connection went (or the server stopped answering): shown as of then.
  if (current) return [shown(current, !online), reload];
  if (remembered) return [shown(remembered, read === 'failed'), reload];
  return [read === 'loading' ? { state: 'loading' } : { state: 'unavailable' }, reload];
}

function shown({ answer, readAt }: Remembered, stale: boolean): LoadedContingent {
  return answer ? { state: 'ready', answer, stale, readAt } : { state: 'none' };
}
