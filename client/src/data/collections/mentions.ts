import type { CommentDoc, MentionDoc } from '@fankurve/shared';
import { combineLatest, map, of, shareReplay, switchMap, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import { kindOf } from '../pushedGroup.js';
import type { DocStore } from '../docStore.js';
import { LocalRuleError, type Device } from '../device.js';
import { useQuery } from '../query.js';

/*
 * The signed-in member's mentions on the device (docs/product.md, Data and States and transitions). The
 * server creates them from comment texts and replicates only the member's own; the event title,
 * the comment text and the commenter's name are read from the device's other collections, so the
 * list works offline. A device only marks them read, which syncs to the member's other devices.
 */

/** A mention as the screen shows it (docs/product.md, Data: mention_id, comment_id, event_id, event_title, comment, commenter_username, mention_date, is_read). */
export interface MentionView {
  id: string;
  comment_id: string;
  event_id: string;
  /** Null while the event, the comment or the commenter has not reached the device yet. */
  event_title: string | null;
  comment: string | null;
  commenter_username: string | null;
  created_at: string;
  is_read: boolean;
}

const newestFirst = (a: MentionDoc, b: MentionDoc) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** The member's mentions, newest first, with what they refer to; mentions of archived events are left out. */
export function myMentions$(db: FankurveDatabase, docs: DocStore): Observable<MentionView[]> {
  return kindOf(db, 'mentions').find().$.pipe(
    map((docs) => docs.map((doc) => doc.toJSON() as MentionDoc).sort(newestFirst)),
    switchMap((mentions) => {
      if (mentions.length === 0) return of([]);
      const commentIds = [...new Set(mentions.map((mention) => mention.comment_id))];
      const eventIds = [...new Set(mentions.map((mention) => mention.event_id))];
      return combineLatest([db.comments.findByIds(commentIds).$, docs.byIds('events', eventIds), docs.all('members')]).pipe(
        map(([comments, events, members]) => {
          const names = new Map(members.map((member) => [member.id, member.username]));
          return mentions.flatMap((mention): MentionView[] => {
            const event = events.get(mention.event_id);
            if (event?.archived) return [];
            const comment = comments.get(mention.comment_id)?.toJSON() as CommentDoc | undefined;
            return [
              {
                id: mention.id,
                comment_id: mention.comment_id,
                event_id: mention.event_id,
                event_title: event?.title ?? null,
                comment: comment?.comment ?? null,
                commenter_username: comment ? (names.get(comment.user_id) ?? null) : null,
                created_at: mention.created_at,
                is_read: mention.is_read,
              },
            ];
          });
        }),
      );
    }),
  );
}

export function useMyMentions(): MentionView[] | undefined {
  return useQuery((db, docs) => myMentions$(db, docs), []);
}

const unreadByDatabase = new WeakMap<FankurveDatabase, Observable<ReadonlyMap<string, number>>>();

/**
 * The unread mentions per event, one query shared by every subscriber (the events list asks for each
 * of its cards). The collection is live through the change stream: no polling.
 */
export function unreadMentionsByEvent$(db: FankurveDatabase): Observable<ReadonlyMap<string, number>> {
  let shared = unreadByDatabase.get(db);
  if (!shared) {
    shared = kindOf(db, 'mentions').find({ selector: { is_read: false } }).$.pipe(
      map((docs) => {
        const counts = new Map<string, number>();
        for (const doc of docs) counts.set(doc.event_id, (counts.get(doc.event_id) ?? 0) + 1);
        return counts as ReadonlyMap<string, number>;
      }),
      shareReplay({ bufferSize: 1, refCount: true }),
    );
    unreadByDatabase.set(db, shared);
  }
  return shared;
}

/** The number of unread mentions: all of them (the nav bar's badge), or of one event (its card's badge). */
export function unreadMentionCount$(db: FankurveDatabase, eventId?: string): Observable<number> {
  return unreadMentionsByEvent$(db).pipe(
    map((counts) => {
      if (eventId !== undefined) return counts.get(eventId) ?? 0;
      let total = 0;
      for (const count of counts.values()) total += count;
      return total;
    }),
  );
}

export function useUnreadMentionCount(eventId?: string): number | undefined {
  return useQuery((db) => unreadMentionCount$(db, eventId), [eventId]);
}

/** The unread mentions per event (as the REST API's mentions/by-event, from the device's copy). */
export function useUnreadMentionsByEvent(): ReadonlyMap<string, number> | undefined {
  return useQuery((db) => unreadMentionsByEvent$(db), []);
}

/** Marks one of the member's mentions read (opening it). */
export async function markMentionRead({ db, outbox }: Device, userId: string, mentionId: string): Promise<void> {
  const doc = await kindOf(db, 'mentions').findOne(mentionId).exec();
  if (!doc) throw new LocalRuleError('mentionNotFound');
  // Only the mentioned member may mark it (the declaration's owner); the server checks it again.
  if (doc.user_id !== userId) throw new LocalRuleError('forbidden');
  if (doc.is_read) return;
  outbox.add(doc.id);
  await doc.incrementalPatch({ is_read: true });
}

/** Marks all of the member's unread mentions read. */
export async function markAllMentionsRead({ db, outbox }: Device, userId: string): Promise<void> {
  const docs = await kindOf(db, 'mentions').find({ selector: { is_read: false, user_id: userId } }).exec();
  for (const doc of docs) {
    outbox.add(doc.id);
    await doc.incrementalPatch({ is_read: true });
  }
}

/** The writes screens make, on the device (bound to it by data/index.ts). */
export const writes = { markMentionRead, markAllMentionsRead };
