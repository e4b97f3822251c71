import {
  COMMENTS_PER_MINUTE,
  MESSAGES,
  SYNC_SCHEMAS,
  commentsSync,
  mentionsSync,
  newId,
  type CommentDoc,
  type MentionDoc,
} from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * The comments and mentions sync collections: pulls (all comments of live events, only one's own
 * mentions, tombstones for deleted comments and events), pushes through the same domain functions
 * as REST with the three-way merge (an admin resolving while the author edits offline keeps both),
 * refused pushes (the current row comes back and the member gets a notice), and offline comments
 * (their own created_at within bounds, a backlog beyond the REST pace).
 */

type Comment = CommentDoc & { _deleted: boolean };
type Mention = MentionDoc & { _deleted: boolean };
interface User {
  id: string;
  token: string;
}

let t: TestApp;
let admin: User;
let author: User;
let other: User;
let eventId: string;
let members = 0;

const push = (collection: 'comments' | 'mentions', token: string, rows: unknown) =>
  t.call('POST', `/api/sync/${collection}/${SYNC_SCHEMAS[collection].version}/push`, { token, body: rows });
const pull = async (collection: 'comments' | 'mentions' | 'notices', token: string) => {
  const res = await t.call('POST', `/api/sync/${collection}/${SYNC_SCHEMAS[collection].version}/pull`, {
    token,
    body: { checkpoint: null, limit: 1000 },
  });
  expect(res.status).toBe(200);
  return res.body.documents as Record<string, unknown>[];
};
const serverComment = async (id: string) =>
  (await pull('comments', admin.token)).find((doc) => doc.id === id) as unknown as Comment;
const noticesOf = async (user: User) =>
  (await t.runtime.deps.store.db.selectFrom('notices').selectAll().where('user_id', '=', user.id).orderBy('seq').execute()).map(
    (row) => ({ code: row.code, action: row.action, event_id: row.event_id }),
  );

/** A comment as a device writes it offline (seq 0, not yet on the server). */
function offlineComment(user: User, fields: Partial<CommentDoc> = {}): Comment {
  const now = new Date().toISOString();
  return {
    id: newId(),
    event_id: eventId,
    user_id: user.id,
    comment: 'Offline geschrieben',
    requires_answer: false,
    is_resolved: false,
    created_at: now,
    updated_at: now,
    seq: 0,
    _deleted: false,
    ...fields,
  };
}

/** The author's comment, created through a push, as every device then holds it. */
async function pushedComment(fields: Partial<CommentDoc> = {}, user = author): Promise<Comment> {
  const doc = offlineComment(user, fields);
  expect((await push('comments', user.token, [{ assumedMasterState: null, newDocumentState: doc }])).status).toBe(200);
  return serverComment(doc.id);
}

const fresh = async (prefix: string) => t.member(`${prefix}${++members}`);

beforeAll(async () => {
  t = await createTestApp();
  const token = await t.adminToken();
  admin = { id: (await t.call('GET', '/api/auth/profile', { token })).body.user.id, token };
  author = await t.member('sync-author');
  other = await t.member('sync-other');
  eventId = (await createEventVia(t, admin.token, { title: 'Sync comments (H)' })).id;
});
afterAll(() => t.close());

describe('pull', () => {
  it('sends every comment of live events to every member, with the declared fields', async () => {
    const res = await t.call('POST', `/api/comments/event/${eventId}`, {
      token: author.token,
      body: { comment: 'Per REST', requires_answer: true },
    });
    const id = res.body.comment.id as string;
    for (const user of [author, other, admin]) {
      const doc = (await pull('comments', user.token)).find((d) => d.id === id);
      expect(doc).toEqual({
        id,
        event_id: eventId,
        user_id: author.id,
        comment: 'Per REST',
        requires_answer: true,
        is_resolved: false,
        created_at: res.body.comment.created_at,
        updated_at: expect.any(String),
        seq: expect.any(Number),
        _deleted: false,
      });
      expect(Object.keys(doc!).sort()).toEqual([...Object.keys(SYNC_SCHEMAS.comments.properties), '_deleted'].sort());
    }
  });

  it('sends a deleted comment, and the comments of a deleted event, as tombstones of only id, seq, event and _deleted', async () => {
    const gone = await pushedComment({ comment: 'Weg damit' });
    await t.call('DELETE', `/api/comments/${gone.id}`, { token: author.token });
    const event = (await createEventVia(t, admin.token, { title: 'Gone soon (A)' })).id;
    const onEvent = await pushedComment({ comment: 'Hallo @sync-other', event_id: event });
    const mention = (await pull('mentions', other.token)).find((d) => d.comment_id === onEvent.id)!;
    expect(mention).toMatchObject({ event_id: event, is_read: false, _deleted: false });
    await t.call('DELETE', `/api/events/${event}`, { token: admin.token });
    const docs = await pull('comments', other.token);
    for (const [doc, eventId] of [
      [gone, gone.event_id],
      [onEvent, event],
    ] as const) {
      expect(docs.find((d) => d.id === doc.id)).toEqual({
        id: doc.id,
        seq: expect.any(Number),
        event_id: eventId,
        _deleted: true,
      });
    }
    expect((await pull('mentions', other.token)).find((d) => d.id === mention.id)).toEqual({
      id: mention.id,
      seq: expect.any(Number),
      _deleted: true,
    });
  });

  it('sends a member only their own mentions', async () => {
    const named = await fresh('sync-named');
    const doc = await pushedComment({ comment: `Hallo @sync-named${members} und @sync-other` });
    const own = (await pull('mentions', named.token)) as unknown as Mention[];
    expect(own).toEqual([
      {
        id: expect.any(String),
        comment_id: doc.id,
        event_id: eventId,
        user_id: named.id,
        is_read: false,
        created_at: expect.any(String),
        seq: expect.any(Number),
        _deleted: false,
      },
    ]);
    for (const user of [author, admin]) {
      const docs = (await pull('mentions', user.token)) as unknown as Mention[];
      expect(docs.every((d) => d.user_id === user.id)).toBe(true);
    }
  });
});

describe('push: offline comments', () => {
  it('creates a comment written offline with its own created_at, and its mentions', async () => {
    const writtenAt = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
    const doc = offlineComment(author, {
      comment: '  Im Stadion, kein Netz @sync-other ',
      created_at: writtenAt,
      requires_answer: true,
    });
    const res = await push('comments', author.token, [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(res.status).toBe(200);
    // The device adopts the server's row (trimmed text, server seq and updated_at).
    expect(res.body).toEqual([
      expect.objectContaining({
        id: doc.id,
        comment: 'Im Stadion, kein Netz @sync-other',
        created_at: writtenAt,
        seq: expect.any(Number),
      }),
    ]);
    expect(await serverComment(doc.id)).toMatchObject({ user_id: author.id, created_at: writtenAt, requires_answer: true });
    expect((await pull('mentions', other.token)).some((d) => d.comment_id === doc.id)).toBe(true);
    const rest = await t.call('GET', `/api/comments/event/${eventId}`, { token: other.token });
    expect(rest.body.comments).toContainEqual(
      expect.objectContaining({ id: doc.id, username: 'sync-author', created_at: writtenAt }),
    );
  });

  it('gives a comment from the future or from long ago the server time', async () => {
    for (const claimed of [
      new Date(Date.now() + 10 * 60_000).toISOString(),
      new Date(Date.now() - 8 * 86_400_000).toISOString(),
    ]) {
      const doc = offlineComment(author, { created_at: claimed });
      await push('comments', author.token, [{ assumedMasterState: null, newDocumentState: doc }]);
      const stored = await serverComment(doc.id);
      expect(stored.created_at).not.toBe(claimed);
      expect(Math.abs(Date.parse(stored.created_at) - Date.now())).toBeLessThan(10_000);
    }
  });

  it(`takes a backlog of more than ${COMMENTS_PER_MINUTE} offline comments in one push (the REST pace does not apply)`, async () => {
    const fan = await fresh('sync-backlog');
    const docs = Array.from({ length: COMMENTS_PER_MINUTE + 5 }, (_, i) =>
      offlineComment(fan, { comment: `Tor Nr. ${i}`, created_at: new Date(Date.now() - (60 - i) * 60_000).toISOString() }),
    );
    const res = await push(
      'comments',
      fan.token,
      docs.map((doc) => ({ assumedMasterState: null, newDocumentState: doc })),
    );
    expect(res.status).toBe(200);
    const stored = await t.runtime.deps.store.db.selectFrom('comments').select('id').where('user_id', '=', fan.id).execute();
    expect(stored).toHaveLength(docs.length);
    expect(await noticesOf(fan)).toEqual([]);
    // The same member's REST pace is untouched by the push.
    expect(
      (await t.call('POST', `/api/comments/event/${eventId}`, { token: fan.token, body: { comment: 'Online' } })).status,
    ).toBe(201);
  });

  it('keeps a comment written and resolved offline resolved', async () => {
    const doc = await pushedComment({ comment: 'Erledigt sich von selbst', is_resolved: true });
    expect(doc).toMatchObject({ is_resolved: true, _deleted: false });
  });

  it('is idempotent: the same creation pushed again changes nothing', async () => {
    const doc = offlineComment(author, { comment: 'Doppelt gesendet' });
    await push('comments', author.token, [{ assumedMasterState: null, newDocumentState: doc }]);
    const first = await serverComment(doc.id);
    await push('comments', author.token, [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(await serverComment(doc.id)).toEqual(first);
    expect(await noticesOf(author)).toEqual([]);
  });
});

describe('push: the three-way merge', () => {
  it('keeps both when the author edits the text offline while an admin resolves', async () => {
    const base = await pushedComment({ comment: 'Wann fährt der Bus?', requires_answer: true });
    // The admin resolves (online).
    expect((await t.call('PUT', `/api/comments/${base.id}/resolve`, { token: admin.token })).status).toBe(200);
    // The author's phone edited the text on the state it had (unresolved).
    const res = await push('comments', author.token, [
      { assumedMasterState: base, newDocumentState: { ...base, comment: 'Wann genau fährt der Bus?' } },
    ]);
    expect(res.body).toEqual([
      expect.objectContaining({ id: base.id, comment: 'Wann genau fährt der Bus?', is_resolved: true, _deleted: false }),
    ]);
    expect(await serverComment(base.id)).toMatchObject({ comment: 'Wann genau fährt der Bus?', is_resolved: true });
    expect(await noticesOf(author)).toEqual([]);
  });

  it('keeps both the other way round: the author edits first, the admin resolves offline', async () => {
    const base = await pushedComment({ comment: 'Wer hat Karten?', requires_answer: true });
    await push('comments', author.token, [
      { assumedMasterState: base, newDocumentState: { ...base, comment: 'Wer hat noch Karten?' } },
    ]);
    const res = await push('comments', admin.token, [
      { assumedMasterState: base, newDocumentState: { ...base, is_resolved: true } },
    ]);
    expect(res.body).toEqual([expect.objectContaining({ id: base.id, comment: 'Wer hat noch Karten?', is_resolved: true })]);
    expect(await noticesOf(admin)).toEqual([]);
  });

  it('applies reopen, edit, answer request and resolve of one push in a working order', async () => {
    const base = await pushedComment({ comment: 'Frage', requires_answer: true, is_resolved: true });
    expect(base.is_resolved).toBe(true);
    // Reopened and edited offline.
    const reopened = await push('comments', author.token, [
      { assumedMasterState: base, newDocumentState: { ...base, is_resolved: false, comment: 'Neue Frage' } },
    ]);
    expect(reopened.body).toEqual([expect.objectContaining({ comment: 'Neue Frage', is_resolved: false })]);
    const now = await serverComment(base.id);
    // Edited, answer request dropped and resolved offline.
    await push('comments', author.token, [
      {
        assumedMasterState: now,
        newDocumentState: { ...now, comment: 'Hat sich erledigt', requires_answer: false, is_resolved: true },
      },
    ]);
    expect(await serverComment(base.id)).toMatchObject({
      comment: 'Hat sich erledigt',
      requires_answer: false,
      is_resolved: true,
    });
  });

  it('lets the author delete a comment offline and an admin delete anyone’s', async () => {
    for (const user of [author, admin]) {
      const base = await pushedComment();
      const res = await push('comments', user.token, [
        { assumedMasterState: base, newDocumentState: { ...base, _deleted: true } },
      ]);
      expect(res.body).toEqual([]);
      expect((await serverComment(base.id))._deleted).toBe(true);
    }
  });
});

describe('push: refusals answer the current row and leave a notice', () => {
  it('refuses another member editing, resolving or deleting the author’s comment', async () => {
    const intruder = await fresh('sync-intruder');
    const base = await pushedComment({ comment: 'Meins' });
    const changes: Partial<Comment>[] = [
      { comment: 'Gehackt' },
      { is_resolved: true },
      { requires_answer: true },
      { _deleted: true },
    ];
    for (const change of changes) {
      const res = await push('comments', intruder.token, [
        { assumedMasterState: base, newDocumentState: { ...base, ...change } },
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ ...base }]);
    }
    expect(await serverComment(base.id)).toEqual(base);
    // The three refused changes of one kind fold into one notice (docs/architecture.md, Sync: Refusals).
    expect(await noticesOf(intruder)).toEqual(
      ['comment.change', 'comment.remove'].map((action) => ({ code: 'commentNotAllowed', action, event_id: eventId })),
    );
    const notices = await pull('notices', intruder.token);
    expect(notices[0]).toMatchObject({ message: MESSAGES.commentNotAllowed, event_title: 'Sync comments (H)' });
  });

  it('refuses an admin editing someone’s text, and the author editing a comment resolved before the device saw it', async () => {
    const base = await pushedComment({ comment: 'Original' });
    const refused = await push('comments', admin.token, [
      { assumedMasterState: base, newDocumentState: { ...base, comment: 'Zensiert' } },
    ]);
    expect(refused.body).toEqual([base]);
    expect(await noticesOf(admin)).toContainEqual({ code: 'commentNotAllowed', action: 'comment.change', event_id: eventId });

    // The device already had the resolved comment: no offline excuse.
    await t.call('PUT', `/api/comments/${base.id}/resolve`, { token: admin.token });
    const resolved = await serverComment(base.id);
    const late = await push('comments', author.token, [
      { assumedMasterState: resolved, newDocumentState: { ...resolved, comment: 'Nachträglich' } },
    ]);
    expect(late.body).toEqual([resolved]);
    expect((await noticesOf(author)).at(-1)).toEqual({ code: 'commentIsResolved', action: 'comment.change', event_id: eventId });
  });

  it('drops a refused creation on the device (tombstone answer) and says why', async () => {
    const fan = await fresh('sync-refused');
    const gone = (await createEventVia(t, admin.token, { title: 'Abgesagt (A)' })).id;
    await t.call('DELETE', `/api/events/${gone}`, { token: admin.token });
    const cases: [Comment, string][] = [
      [offlineComment(fan, { comment: '   ' }), 'commentEmpty'],
      [offlineComment(fan, { comment: 'x'.repeat(2001) }), 'commentTooLong'],
      [offlineComment(fan, { event_id: gone }), 'eventNotFound'],
      [offlineComment(fan, { event_id: newId() }), 'eventNotFound'],
      // Written in someone else's name.
      [offlineComment(author), 'commentNotAllowed'],
    ];
    for (const [doc, code] of cases) {
      const res = await push('comments', fan.token, [{ assumedMasterState: null, newDocumentState: doc }]);
      expect(res.body, code).toEqual([{ ...commentsSync.tombstone, id: doc.id, seq: 0, _deleted: true }]);
      expect((await noticesOf(fan)).at(-1), code).toMatchObject({ code, action: 'comment.add' });
    }
    expect(await t.runtime.deps.store.db.selectFrom('comments').select('id').where('user_id', '=', fan.id).execute()).toEqual([]);
    // The notice names the deleted event with its title as it was.
    const notices = await pull('notices', fan.token);
    expect(notices.find((n) => n.event_id === gone)).toMatchObject({ event_title: 'Abgesagt (A)', action: 'comment.add' });
  });

  it('refuses taking over an existing id', async () => {
    const mine = await pushedComment({ comment: 'Mein Kommentar' });
    const thief = await fresh('sync-thief');
    const forged = { ...offlineComment(thief), id: mine.id };
    const res = await push('comments', thief.token, [{ assumedMasterState: null, newDocumentState: forged }]);
    expect(res.body).toEqual([mine]);
    expect(await serverComment(mine.id)).toEqual(mine);
  });
});

describe('push: mentions', () => {
  it('marks an own mention read; another member cannot, and gets a tombstone and a notice', async () => {
    const named = await fresh('sync-reader');
    const snoop = await fresh('sync-snoop');
    await pushedComment({ comment: `Lies das, @sync-reader${members - 1}` });
    const [mention] = (await pull('mentions', named.token)) as unknown as Mention[];
    expect(mention).toMatchObject({ user_id: named.id, is_read: false });

    const refused = await push('mentions', snoop.token, [
      { assumedMasterState: mention, newDocumentState: { ...mention, is_read: true } },
    ]);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual([{ ...mentionsSync.tombstone, id: mention!.id, seq: 0, _deleted: true }]);
    expect(await noticesOf(snoop)).toEqual([{ code: 'mentionNotFound', action: 'mention.read', event_id: null }]);
    const unchanged = (await pull('mentions', named.token)).find((d) => d.id === mention!.id);
    expect(unchanged).toEqual(mention);
    // Nor can an admin.
    await push('mentions', admin.token, [{ assumedMasterState: mention, newDocumentState: { ...mention, is_read: true } }]);
    expect((await pull('mentions', named.token)).find((d) => d.id === mention!.id)).toEqual(mention);

    const own = await push('mentions', named.token, [
      { assumedMasterState: mention, newDocumentState: { ...mention, is_read: true } },
    ]);
    const read = (await pull('mentions', named.token)).find((d) => d.id === mention!.id);
    expect(read).toMatchObject({ is_read: true });
    // Answered with the result: the device learns the mention's new seq.
    expect(own.body).toEqual([read]);
    expect((await t.call('GET', '/api/comments/mentions/count', { token: named.token })).body.count).toBe(0);
  });

  it('refuses creating or deleting mentions from a device', async () => {
    const named = await fresh('sync-creator');
    const doc = {
      id: newId(),
      comment_id: newId(),
      event_id: eventId,
      user_id: named.id,
      is_read: false,
      created_at: new Date().toISOString(),
      seq: 0,
      _deleted: false,
    };
    const res = await push('mentions', named.token, [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(res.body).toEqual([expect.objectContaining({ id: doc.id, _deleted: true })]);
    expect(await noticesOf(named)).toEqual([{ code: 'forbidden', action: 'mention.read', event_id: null }]);
    const stored = await t.runtime.deps.store.db.selectFrom('mentions').select('id').where('user_id', '=', named.id).execute();
    expect(stored).toEqual([]);

    await pushedComment({ comment: `Hallo @sync-creator${members}` });
    const [mention] = (await pull('mentions', named.token)) as unknown as Mention[];
    const deleted = await push('mentions', named.token, [
      { assumedMasterState: mention, newDocumentState: { ...mention, _deleted: true } },
    ]);
    expect(deleted.body).toEqual([mention]);
    expect((await pull('mentions', named.token)).find((d) => d.id === mention!.id)).toEqual(mention);
  });
});
