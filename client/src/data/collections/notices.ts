import type { NoticeDoc } from '@fankurve/shared';
import type { Subscription } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import type { Device } from '../device.js';
import { plainDocs, useQuery } from '../query.js';

/** Notices older than this when they reach the device are not toasted (a new device would replay old ones). */
const FRESH_MS = 10 * 60 * 1000;
const SHOWN_KEY = 'shownNotices';

function loadShown(): Set<string> {
  if (typeof localStorage === 'undefined') return new Set();
  try {
    return new Set(JSON.parse(localStorage.getItem(SHOWN_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

/** Emits each fresh, unread server notice once per device, for the toasts. */
export function watchNotices(db: FankurveDatabase, listener: (notice: NoticeDoc) => void): Subscription {
  const shown = loadShown();
  return db.notices.find().$.subscribe((docs) => {
    let changed = false;
    for (const doc of docs) {
      if (shown.has(doc.id)) continue;
      shown.add(doc.id);
      changed = true;
      if (!doc.is_read && Date.now() - Date.parse(doc.created_at) < FRESH_MS) listener(doc.toJSON() as NoticeDoc);
    }
    if (changed && typeof localStorage !== 'undefined') localStorage.setItem(SHOWN_KEY, JSON.stringify([...shown].slice(-200)));
  });
}

/** The member's refusals that are not read yet, newest first (they stay until read, on any device). */
export function useUnreadNotices(): NoticeDoc[] | undefined {
  return useQuery(
    (db) => db.notices.find({ selector: { is_read: false }, sort: [{ created_at: 'desc' }] }).$.pipe(plainDocs<NoticeDoc>()),
    [],
  );
}

/** Marks notices read on the device; the replication tells the server (and so the member's other devices). */
export async function markNoticesRead({ db, outbox }: Device, ids: readonly string[]): Promise<void> {
  const docs = await db.notices.findByIds([...ids]).exec();
  for (const doc of docs.values()) {
    if (doc.is_read) continue;
    outbox.add(doc.id);
    await doc.incrementalPatch({ is_read: true });
  }
}
