import { useEffect, useState } from 'react';
import { map, type Observable, type Subscription } from 'rxjs';
import type { FankurveDatabase } from './database.js';
import { getDatabase } from './local.js';

/** Subscribes a component to a reactive RxDB query; undefined while the first result loads (or while `build` gives null). */
export function useQuery<T>(build: (db: FankurveDatabase) => Observable<T> | null, deps: unknown[]): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let subscription: Subscription | undefined;
    let cancelled = false;
    // New inputs (another event's page): never show the previous inputs' result meanwhile.
    setValue(undefined);
    void getDatabase().then((db) => {
      if (!cancelled) subscription = build(db)?.subscribe(setValue);
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
