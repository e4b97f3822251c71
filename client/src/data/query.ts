import { startTransition, useEffect, useState } from 'react';
import { map, type Observable, type Subscription } from 'rxjs';
import type { FankurveDatabase } from './database.js';
import type { DocStore } from './docStore.js';
import { getDatabase, getDocStore } from './local.js';

type Build<T> = (db: FankurveDatabase, docs: DocStore) => Observable<T> | null;

function useDeviceQuery<T>(open: () => Promise<[FankurveDatabase, DocStore]>, build: Build<T>, deps: unknown[]): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let subscription: Subscription | undefined;
    let cancelled = false;
    // New inputs (another event's page): never show the previous inputs' result meanwhile.
    setValue(undefined);
    void open().then(([db, docs]) => {
      if (cancelled) return;
      subscription = build(db, docs)?.subscribe({
        // A transition: React renders what a new result changes in slices of a few milliseconds,
        // so a long list arriving never blocks the page in one long task (docs/architecture.md, Loading).
        next: (next) => startTransition(() => setValue(() => next)),
        // Sign-out deletes the store under a screen still shown: its queries end there.
        error: (error: unknown) => {
          if ((error as { name?: string }).name !== 'DatabaseClosedError') throw error;
        },
      });
    });
    return () => {
      cancelled = true;
      subscription?.unsubscribe();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query is rebuilt when its inputs change
  }, deps);
  return value;
}

/**
 * Subscribes a component to a reactive query of the device's data: RxDB's collections (what the
 * device pushes) and the document store's tables (what it only reads). undefined while the first
 * result loads (or while `build` gives null).
 */
export function useQuery<T>(build: Build<T>, deps: unknown[]): T | undefined {
  return useDeviceQuery(() => Promise.all([getDatabase(), getDocStore()]), build, deps);
}

/** A query of the document store only: it answers without waiting for RxDB's collections to open. */
export function useStoreQuery<T>(build: (docs: DocStore) => Observable<T> | null, deps: unknown[]): T | undefined {
  return useDeviceQuery(async () => [null as never, await getDocStore()], (_db, docs) => build(docs), deps);
}

/** Maps RxDB documents to plain objects (undeclared fields included). */
export function plainDocs<T>() {
  return map((docs: { toJSON(): unknown }[]) => docs.map((doc) => doc.toJSON() as T));
}

export function plainDoc<T>() {
  return map((doc: { toJSON(): unknown } | null) => (doc ? (doc.toJSON() as T) : null));
}
