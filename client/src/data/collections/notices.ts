import type { NoticeDoc } from '@fankurve/shared';
import { kindOf } from '../pushedGroup.js';
import type { Device } from '../device.js';
import { plainDocs, useQuery } from '../query.js';

/** The member's refusals that are not read yet, newest first (they stay until read, on any device). */
export function useUnreadNotices(): NoticeDoc[] | undefined {
  return useQuery(
    (db) => kindOf(db, 'notices').find({ selector: { is_read: false }, sort: [{ created_at: 'desc' }] }).$.pipe(plainDocs<NoticeDoc>()),
    [],
  );
}

/** Marks notices read on the device; the replication tells the server (and so the member's other devices). */
export async function markNoticesRead({ db, outbox }: Device, ids: readonly string[]): Promise<void> {
  const docs = await kindOf(db, 'notices').findByIds(ids);
  for (const doc of docs) {
    if (doc.is_read) continue;
    outbox.add(doc.id);
    await doc.incrementalPatch({ is_read: true });
  }
}

/** The writes screens make, on the device (bound to it by data/index.ts). */
export const writes = { markNoticesRead };
