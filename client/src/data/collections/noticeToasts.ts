import type { NoticeDoc } from '@fankurve/shared';
import type { Subscription } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import { kindOf } from '../pushedGroup.js';

/*
 * The toasts' feed of fresh refusals. Apart from collections/notices.ts (the screens' hooks), so the
 * sync module that starts it does not import the query hooks that load it lazily.
 */

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
  return kindOf(db, 'notices').find().$.subscribe((docs) => {
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
