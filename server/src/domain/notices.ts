import { MESSAGES, newId, type MessageCode } from '@fankurve/shared';
import type { WriteContext } from '../db/store.js';

/** Writes a message for a user that replicates down and shows as a toast (e.g. why a push was refused). */
export async function addNotice(w: WriteContext, userId: string, code: MessageCode): Promise<void> {
  await w.db
    .insertInto('notices')
    .values({
      id: newId(),
      user_id: userId,
      code,
      message: MESSAGES[code],
      created_at: w.now,
      seq: await w.nextSeq('notices'),
    })
    .execute();
}
