import type { EventDoc } from '@fankurve/shared';
import { KEPT_BY_EVENT_COLLECTIONS, SYNC_DECLARATIONS } from '@fankurve/shared/registry';
import { isKeptOnDevice } from '@fankurve/shared/rules/keptOnDevice';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { loadSync } from './local.js';
import { status$ } from './state.js';

/*
 * Whether the device holds an event's attendee rows and comments (docs/architecture.md, What a
 * device keeps). It keeps those of every upcoming event and of the current season; an older
 * season's event is loaded when the member opens it online and kept from then on. The events so
 * loaded are remembered in localStorage, under the schema versions of the collections loaded (a new
 * version drops the device's copy, and with it this record).
 */

const KEY = 'loadedEvents';
const VERSIONS = KEPT_BY_EVENT_COLLECTIONS.map((name) => `${name}@${SYNC_DECLARATIONS[name].schema.version}`).join(',');

interface Stored {
  versions: string;
  ids: string[];
}

function readLoaded(): Set<string> {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Stored | null;
    return new Set(stored?.versions === VERSIONS ? stored.ids : []);
  } catch {
    return new Set();
  }
}

let loaded: ReadonlySet<string> | null = null;
const listeners = new Set<() => void>();

function loadedEvents(): ReadonlySet<string> {
  loaded ??= readLoaded();
  return loaded;
}

function markLoaded(eventId: string): void {
  const next = new Set(loadedEvents());
  next.add(eventId);
  loaded = next;
  try {
    localStorage.setItem(KEY, JSON.stringify({ versions: VERSIONS, ids: [...next] } satisfies Stored));
  } catch {
    // full or blocked storage: the event is loaded again next time it is opened
  }
  for (const listener of listeners) listener();
}

/** Sign-out: the device's copy is gone, and so is the record of what was loaded. */
export function forgetLoadedEvents(): void {
  loaded = new Set();
  try {
    localStorage.removeItem(KEY);
  } catch {
    // blocked storage holds nothing
  }
  for (const listener of listeners) listener();
}

/** The events whose rows were loaded on demand (reactive). */
export function useLoadedEvents(): ReadonlySet<string> {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    loadedEvents,
  );
}

/** The device holds the event's attendee rows and comments. */
export function holdsEventRows(event: Pick<EventDoc, 'id' | 'date' | 'season'>, today: string, loadedIds: ReadonlySet<string>): boolean {
  return isKeptOnDevice(event, today) || loadedIds.has(event.id);
}

/**
 * 'onDevice': the rows are here (kept, or loaded before); 'loading': being fetched; 'offline': not
 * here and no network to fetch them; 'failed': the fetch failed (`retry` tries again).
 */
export type EventRowsState = 'onDevice' | 'loading' | 'offline' | 'failed';

/**
 * The event detail's question: are this event's attendee rows and comments on the device? Fetches
 * them when they are not and the device is online; an event loaded before is refreshed quietly
 * when it is opened online.
 */
export function useEventRows(event: EventDoc | null | undefined, today: string): { state: EventRowsState; retry: () => void } {
  const loadedIds = useLoadedEvents();
  const online = useSyncExternalStore(
    (onChange) => {
      const subscription = status$.subscribe(onChange);
      return () => subscription.unsubscribe();
    },
    () => status$.value.online,
  );
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const kept = event ? isKeptOnDevice(event, today) : true;
  const id = event?.id;

  useEffect(() => {
    if (!id || kept || !online) return;
    let current = true;
    setFailed(null);
    loadSync()
      .then((sync) => sync.loadEventRows(id))
      .then(
        () => markLoaded(id),
        () => {
          if (current) setFailed(id);
        },
      );
    return () => {
      current = false;
    };
  }, [id, kept, online, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  if (!event || kept || loadedIds.has(event.id)) return { state: 'onDevice', retry };
  if (!online) return { state: 'offline', retry };
  return { state: failed === event.id ? 'failed' : 'loading', retry };
}
