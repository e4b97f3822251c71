import {
  MESSAGES,
  newId,
  NOTICE_REPEAT_PACE_MS,
  NOTICES_UNREAD_MAX,
  type MessageCode,
  type NoticeAction,
} from '@fankurve/shared';
import type { WriteContext } from '../db/store.js';
import type { Actor } from './actor.js';
import { forbidden, notFound } from './errors.js';

/** What a notice is about: the event and the kind of change that was refused. */
export interface NoticeContext {
  eventId: string | null;
  action: NoticeAction | null;
}

/**
 * Writes a message for a user that replicates to their devices and stays in their list of refusals
 * until read (e.g. why a change made offline was refused). The event's title is kept with it, so
 * the notice still says what it was about after the event is gone.
 *
 * One member's notices are bounded (docs/architecture.md, Sync: Refusals): a repeat of an unread
 * notice (same code, event and action) folds into it — it moves to the top, at most once per
 * `NOTICE_REPEAT_PACE_MS`, and writes nothing in between — and of the unread ones only the newest
 * `NOTICES_UNREAD_MAX` stay unread: the oldest are marked read to make room. New notices are paced
 * too: at most `NOTICES_UNREAD_MAX` per member within `NOTICE_REPEAT_PACE_MS` (a full list); a
 * refusal beyond that writes none, so a device cycling through many refused changes cannot grow
 * the table faster than that.
 */
export async function addNotice(
  w: WriteContext,
  userId: string,
  code: MessageCode,
  context: NoticeContext = { eventId: null, action: null },
): Promise<void> {
  const event = context.eventId
    ? await w.db.selectFrom('events').select('title').where('id', '=', context.eventId).executeTakeFirst()
    : undefined;
  const eventId = event ? context.eventId : null;
  const unread = await w.db
    .selectFrom('notices')
    .select(['id', 'code', 'event_id', 'action', 'created_at'])
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const repeat = unread.find((notice) => notice.code === code && notice.event_id === eventId && notice.action === context.action);
  if (repeat) {
    if (Date.parse(w.now) - Date.parse(repeat.created_at) < NOTICE_REPEAT_PACE_MS) return;
    await w.db
      .updateTable('notices')
      .set({ created_at: w.now, event_title: event?.title ?? null, seq: await w.nextSeq('notices') })
      .where('id', '=', repeat.id)
      .execute();
    return;
  }
  const since = new Date(Date.parse(w.now) - NOTICE_REPEAT_PACE_MS).toISOString();
  const recent = await w.db
    .selectFrom('notices')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  if (Number(recent.count) >= NOTICES_UNREAD_MAX) return;
  for (const oldest of unread.slice(0, Math.max(0, unread.length - NOTICES_UNREAD_MAX + 1))) {
    await w.db
      .updateTable('notices')
      .set({ is_read: 1, seq: await w.nextSeq('notices') })
      .where('id', '=', oldest.id)
      .execute();
  }
  await w.db
    .insertInto('notices')
    .values({
      id: newId(),
      user_id: userId,
      code,
      message: MESSAGES[code],
      event_id: eventId,
      event_title: event?.title ?? null,
      action: context.action,
      is_read: 0,
      created_at: w.now,
      seq: await w.nextSeq('notices'),
    })
    .execute();
}

/** Marks one of the actor's own notices read (or unread again). */
export async function setNoticeRead(w: WriteContext, actor: Actor, noticeId: string, isRead: boolean): Promise<void> {
  const notice = await w.db
    .selectFrom('notices')
    .select(['user_id', 'is_read'])
    .where('id', '=', noticeId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!notice) throw notFound();
  if (notice.user_id !== actor.id) throw forbidden();
  if ((notice.is_read === 1) === isRead) return;
  await w.db
    .updateTable('notices')
    .set({ is_read: isRead ? 1 : 0, seq: await w.nextSeq('notices') })
    .where('id', '=', noticeId)
    .execute();
}
