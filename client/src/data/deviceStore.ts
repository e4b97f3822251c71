/*
 * The few values the page and the service worker both need (docs/architecture.md, Background sync).
 * A service worker has no localStorage, so they live in a small IndexedDB database of their own,
 * beside RxDB's: the session's token (written and removed by the session), a mirror of the push
 * rebaser's dropped answers, and what the worker's last background sync did.
 */

const DATABASE = 'fankurve-device';
const STORE = 'values';

/** The signed-in session as the worker reads it: `{ token }`, removed at sign-out. */
export const WORKER_SESSION_KEY = 'session';
/** A background sync that sent everything waiting: `{ startedAt }` (ms), taken by the app at its next start. */
export const BACKGROUND_SYNCED_KEY = 'backgroundSynced';
/** What the worker's last background sync did: `{ outcome, at }`, for diagnosis and the browser tests. */
export const BACKGROUND_OUTCOME_KEY = 'backgroundSyncOutcome';

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('no IndexedDB'));
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => {
      const db = request.result;
      // Another context deletes or upgrades it: let go, and open afresh next time.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      db.onclose = () => {
        opening = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
    request.onblocked = () => reject(new Error('IndexedDB open blocked'));
  });
  opening.catch(() => {
    opening = null;
  });
  return opening;
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  const db = await open();
  return new Promise<T | undefined>((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = work(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(request ? request.result : undefined);
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

const prefixRange = (prefix: string) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

export function readDeviceValue<T>(key: string): Promise<T | undefined> {
  return run<T>('readonly', (store) => store.get(key) as IDBRequest<T>);
}

export async function writeDeviceValue(key: string, value: unknown): Promise<void> {
  await run('readwrite', (store) => {
    store.put(value, key);
  });
}

export async function deleteDeviceValue(key: string): Promise<void> {
  await run('readwrite', (store) => {
    store.delete(key);
  });
}

/** Every value whose key starts with the prefix. */
export async function readDeviceValues(prefix: string): Promise<Map<string, unknown>> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, 'readonly');
    const store = transaction.objectStore(STORE);
    const keys = store.getAllKeys(prefixRange(prefix));
    const values = store.getAll(prefixRange(prefix));
    transaction.oncomplete = () => resolve(new Map(keys.result.map((key, index) => [String(key), values.result[index]])));
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
  });
}

export async function deleteDeviceValues(prefix: string): Promise<void> {
  await run('readwrite', (store) => {
    store.delete(prefixRange(prefix));
  });
}

/** Takes a value out: reads and removes it in one transaction (null when there was none). */
export async function takeDeviceValue<T>(key: string): Promise<T | null> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, 'readwrite');
    const store = transaction.objectStore(STORE);
    const request = store.get(key) as IDBRequest<T | undefined>;
    request.onsuccess = () => {
      if (request.result !== undefined) store.delete(key);
    };
    transaction.oncomplete = () => resolve(request.result ?? null);
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
  });
}
