import { useEffect, useState } from 'react';
import { map, type Observable, type Subscription } from 'rxjs';
import type { FankurveDatabase } from './database.js';
import type { DocStore } from './docStore.js';
import { getDatabase, getDocStore } from './local.js';

/**
 * Subscribes a component to a reactive query of the device's data: RxDB's collections (what the
 * device pushes) and the document store's tables (what it only reads). undefined while the first
 * result loads (or while `build` gives null).
 */
export function useQuery<T>(build: (db: FankurveDatabase, docs: DocStore) => Observable<T> | null, deps: unknown[]): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let subscription: Subscription | undefined;
    let cancelled = false;
    // New inputs (another event's page): never show the previous inputs' result meanwhile.
    setValue(undefined);
    void Promise.all([getDatabase(), getDocStore()]).then(([db, docs]) => {
      if (cancelled) return;
      subscription = build(db, docs)?.subscribe({
        next: setValue,
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

/** Maps RxDB documents to plain objects (undeclared fields included). */
export function plainDocs<T>() {
  return map((docs: { toJSON(): unknown }[]) => docs.map((doc) => doc.toJSON() as T));
}

export function plainDoc<T>() {
  return map((doc: { toJSON(): unknown } | null) => (doc ? (doc.toJSON() as T) : null));
}
