import {
  MESSAGES,
  newId,
  NOTICE_REPEAT_PACE_MS,
  NOTICES_UNREAD_MAX,
  type MessageCode,
  type NoticeAction,
} from '@fankurve/shared';
import type { WriteContext } from '../../db/store.js';
import type { Actor } from '../actor.js';
import { forbidden, notFound } from '../errors.js';

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
 * One member's notices are bounded (docs/architecture.md, Sync: Refusals), and every refusal is
 * still told: a refusal like an earlier notice (same code, event and action) reuses its row — made
 * unread and moved to the top; an unread one at most once per `NOTICE_REPEAT_PACE_MS`, with nothing
 * written in between — so a member has at most one row per kind of refusal, however often a device
 * pushes it; and of the unread ones only the newest `NOTICES_UNREAD_MAX` stay unread: the oldest are
 * marked read to make room.
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
  const same = (
    await w.db
      .selectFrom('notices')
      .select(['id', 'event_id', 'action', 'is_read', 'created_at'])
      .where('user_id', '=', userId)
      .where('code', '=', code)
      .where('deleted', '=', 0)
      .orderBy('created_at', 'desc')
      .execute()
  ).find((notice) => notice.event_id === eventId && notice.action === context.action);
  if (same && same.is_read === 0 && Date.parse(w.now) - Date.parse(same.created_at) < NOTICE_REPEAT_PACE_MS) return;

  const otherUnread = await w.db
    .selectFrom('notices')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .where('deleted', '=', 0)
    .where('id', '!=', same?.id ?? '')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const oldest of otherUnread.slice(0, Math.max(0, otherUnread.length - NOTICES_UNREAD_MAX + 1))) {
    await w.db
      .updateTable('notices')
      .set({ is_read: 1, seq: await w.nextSeq('notices') })
      .where('id', '=', oldest.id)
      .execute();
  }
  if (same) {
    await w.db
      .updateTable('notices')
      .set({ is_read: 0, created_at: w.now, event_title: event?.title ?? null, seq: await w.nextSeq('notices') })
      .where('id', '=', same.id)
      .execute();
    return;
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
