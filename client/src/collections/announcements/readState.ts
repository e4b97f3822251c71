import { useCallback, useSyncExternalStore } from 'react';

/*
 * Which announcements this member has read on this device (docs/product.md, Screens: the unread
 * count above the news). Kept in localStorage per member, so it works offline; only ids of
 * announcements that still exist are kept.
 */

const keyOf = (userId: string) => `announcementsRead:${userId}`;
const listeners = new Set<() => void>();
const cache = new Map<string, string>();

function raw(userId: string): string {
  if (!cache.has(userId)) cache.set(userId, localStorage.getItem(keyOf(userId)) ?? '[]');
  return cache.get(userId)!;
}

function readIds(userId: string): Set<string> {
  try {
    const parsed: unknown = JSON.parse(raw(userId));
    return new Set(Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Marks these announcements read, forgetting the ids of any that are gone. */
export function markAnnouncementsRead(userId: string, ids: readonly string[], existing: readonly string[]): void {
  const live = new Set(existing);
  const next = [...new Set([...readIds(userId), ...ids])].filter((id) => live.has(id));
  const text = JSON.stringify(next);
  if (text === raw(userId)) return;
  cache.set(userId, text);
  try {
    localStorage.setItem(keyOf(userId), text);
  } catch {
    // A full storage keeps the state for this page's life only.
  }
  for (const listener of listeners) listener();
}

/** The ids this member has read on this device; changes re-render. */
export function useReadAnnouncements(userId: string): Set<string> {
  const subscribe = useCallback((listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  const text = useSyncExternalStore(subscribe, () => raw(userId));
  // A new Set per change of the stored text only.
  return parseMemo(userId, text);
}

const parsed = new Map<string, { text: string; ids: Set<string> }>();
function parseMemo(userId: string, text: string): Set<string> {
  const hit = parsed.get(userId);
  if (hit && hit.text === text) return hit.ids;
  const ids = readIds(userId);
  parsed.set(userId, { text, ids });
  return ids;
}
