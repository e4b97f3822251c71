/*
 * Persistent storage (docs/architecture.md, Background sync; docs/product.md, Profile). A browser may
 * delete a site's storage when the disk runs low, and with it the changes the device has not sent
 * yet. Once the app is installed or the first change is queued, the device asks the browser once to
 * keep it (`navigator.storage.persist()`; Chromium decides by itself, Firefox asks the member), and
 * remembers that it asked. The profile shows whether storage is persistent and how much is used.
 */

/** localStorage: when this device asked for persistent storage, and the browser's answer. */
export const PERSIST_ASKED_KEY = 'storagePersistAsked';

type StorageManagerLike = Partial<Pick<StorageManager, 'persist' | 'persisted' | 'estimate'>>;

function storageManager(): StorageManagerLike | null {
  return typeof navigator !== 'undefined' && navigator.storage ? navigator.storage : null;
}

function askedBefore(): boolean {
  try {
    return localStorage.getItem(PERSIST_ASKED_KEY) !== null;
  } catch {
    return true; // storage blocked: asking every time would be worse
  }
}

const listeners = new Set<() => void>();

/** Called when this device's storage may have become persistent (the profile reads it again). */
export function onStoragePersistence(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let asking: Promise<void> | null = null;

/** Asks the browser once per device to keep the app's storage; later calls do nothing. */
export function askPersistentStorage(): Promise<void> {
  const storage = storageManager();
  if (!storage || typeof storage.persist !== 'function' || askedBefore()) return Promise.resolve();
  asking ??= (async () => {
    let granted = false;
    try {
      granted = (await storage.persisted?.()) === true || (await storage.persist!()) === true;
    } catch {
      // refused by the browser (e.g. not in a secure context): nothing to remember but that it asked
    }
    try {
      localStorage.setItem(PERSIST_ASKED_KEY, JSON.stringify({ at: new Date().toISOString(), granted }));
    } catch {
      // blocked storage
    }
    for (const listener of listeners) listener();
  })();
  return asking;
}

export interface StorageInfo {
  /** Whether the browser keeps the app's storage when space runs low; null where it does not say. */
  persisted: boolean | null;
  /** Bytes used and available to the app; null where the browser does not say. */
  usage: number | null;
  quota: number | null;
}

/** What the browser says about the app's storage; null where it has no Storage API at all. */
export async function readStorageInfo(): Promise<StorageInfo | null> {
  const storage = storageManager();
  if (!storage || (typeof storage.persisted !== 'function' && typeof storage.estimate !== 'function')) return null;
  const [persisted, estimate] = await Promise.all([
    typeof storage.persisted === 'function' ? storage.persisted().catch(() => null) : Promise.resolve(null),
    typeof storage.estimate === 'function' ? storage.estimate().catch(() => null) : Promise.resolve(null),
  ]);
  return {
    persisted,
    usage: typeof estimate?.usage === 'number' ? estimate.usage : null,
    quota: typeof estimate?.quota === 'number' ? estimate.quota : null,
  };
}
