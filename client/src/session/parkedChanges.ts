import { useMemo, useSyncExternalStore } from 'react';

/*
 * Changes parked at sign-out (docs/architecture.md, Sessions, throttles and limits): a member who signs out with changes
 * not yet sent keeps them on the device; the login page names them, and the same member's next
 * sign-in sends them (session.ts decides, this module keeps the note of them).
 */

/** Changes a member made on this device that were not sent before they signed out. */
export interface ParkedChanges {
  userId: string;
  username: string;
  count: number;
}

const PARKED_STORAGE_KEY = 'parkedChanges';
/** The login page listens: the changes are parked after the sign-out has already shown it. */
const parkedListeners = new Set<() => void>();

export function park(parked: ParkedChanges): void {
  try {
    localStorage.setItem(PARKED_STORAGE_KEY, JSON.stringify(parked));
  } catch {
    // storage blocked: the database still holds them
  }
  parkedListeners.forEach((listener) => listener());
}

function readParkedText(): string | null {
  try {
    return localStorage.getItem(PARKED_STORAGE_KEY);
  } catch {
    return null;
  }
}

function parseParked(text: string | null): ParkedChanges | null {
  try {
    const parsed = JSON.parse(text ?? 'null') as Partial<ParkedChanges> | null;
    if (!parsed || typeof parsed.userId !== 'string' || typeof parsed.username !== 'string' || typeof parsed.count !== 'number')
      return null;
    return parsed as ParkedChanges;
  } catch {
    return null;
  }
}

export function readParkedChanges(): ParkedChanges | null {
  return parseParked(readParkedText());
}

function subscribeParked(listener: () => void): () => void {
  parkedListeners.add(listener);
  return () => parkedListeners.delete(listener);
}

/** The parked changes, kept current while the login page shows them. */
export function useParkedChanges(): ParkedChanges | null {
  const text = useSyncExternalStore(subscribeParked, readParkedText, () => null);
  return useMemo(() => parseParked(text), [text]);
}

/** At sign-in: the parked changes, taken off the login page (null when there are none). */
export function takeParkedChanges(): ParkedChanges | null {
  const parked = readParkedChanges();
  if (!parked) return null;
  try {
    localStorage.removeItem(PARKED_STORAGE_KEY);
  } catch {
    // storage blocked: nothing was parked there
  }
  parkedListeners.forEach((listener) => listener());
  return parked;
}
