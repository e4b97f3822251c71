import type { NoticeDoc } from '@fankurve/shared';
import type { Subscription } from 'rxjs';
import type { FankurveDatabase } from './database.js';

/** Notices older than this when they reach the device are not shown (a new device would replay old ones). */
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

/** Emits each fresh server notice once per device, for the toasts. */
export function watchNotices(db: FankurveDatabase, listener: (notice: NoticeDoc) => void): Subscription {
  const shown = loadShown();
  return db.notices.find().$.subscribe((docs) => {
    let changed = false;
    for (const doc of docs) {
      if (shown.has(doc.id)) continue;
      shown.add(doc.id);
      changed = true;
      if (Date.now() - Date.parse(doc.created_at) < FRESH_MS) listener(doc.toJSON() as NoticeDoc);
    }
    if (changed && typeof localStorage !== 'undefined') localStorage.setItem(SHOWN_KEY, JSON.stringify([...shown].slice(-200)));
  });
}
