import { useEffect, useState } from 'react';

/*
 * The last result a screen showed, kept on the device (localStorage) so that a warm start can paint
 * it at once, before the device database has opened; the live result replaces it as soon as it is
 * there. Only for what a screen derives from the database; never a source of truth.
 */

const PREFIX = 'snapshot:';
const SAVE_DELAY_MS = 1000;

interface Stored<T> {
  userId: string;
  value: T;
}

function read<T>(key: string, userId: string): T | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(PREFIX + key) ?? 'null') as Stored<T> | null;
    return stored?.userId === userId ? stored.value : undefined;
  } catch {
    return undefined;
  }
}

function write<T>(key: string, userId: string, value: T): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ userId, value } satisfies Stored<T>));
  } catch {
    // full or blocked storage: the next start waits for the database instead
  }
}

/**
 * The live value when there is one (remembered for the next start, at most once a second), else
 * the last remembered value of this user.
 */
export function useSnapshot<T>(key: string, userId: string, live: T | undefined): T | undefined {
  const [remembered] = useState(() => read<T>(key, userId));
  useEffect(() => {
    if (live === undefined) return;
    const timer = setTimeout(() => write(key, userId, live), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, userId, live]);
  return live ?? remembered;
}

/** Sign-out: no snapshot of this member stays on the device. */
export function clearSnapshots(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch {
    // blocked storage holds nothing
  }
}
