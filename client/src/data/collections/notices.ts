import type { NoticeDoc } from '@fankurve/shared';
import type { Device } from '../device.js';
import { plainDocs, useQuery } from '../query.js';

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

/** The writes screens make, on the device (bound to it by data/index.ts). */
export const writes = { markNoticesRead };
