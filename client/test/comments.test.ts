import 'fake-indexeddb/auto';
import { kindOf } from '../src/data/pushedGroup.js';
import { COMMENT_MAX_LENGTH, type CommentActor, type CommentDoc } from '@fankurve/shared';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addComment,
  comments$,
  deleteComment,
  editComment,
  resolveComment,
  toggleRequiresAnswer,
  unresolveComment,
} from '../src/data/collections/comments.js';
import {
  markAllMentionsRead,
  markMentionRead,
  myMentions$,
  unreadMentionCount$,
  unreadMentionsByEvent$,
} from '../src/data/collections/mentions.js';
import { LocalRuleError } from '../src/data/device.js';
import { excerpt } from '../src/features/comments/format.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/**
 * Comments and mentions on devices (docs/architecture.md, "Comments and mentions"): each device is the client's own RxDB database on
 * fake-indexeddb with its replication, against the real server over HTTP.
 */
describe('comments and mentions on devices', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let adminToken: string;
  let kai: { id: string; token: string };
  let lena: { id: string; token: string };
  let kaiDevice: TestClient;
  let lenaDevice: TestClient;
  let adminDevice: TestClient;
  let admin: CommentActor;
  let eventId: string;
  const kaiActor = (): CommentActor => ({ id: kai.id, scope: 'user' });
  const lenaActor = (): CommentActor => ({ id: lena.id, scope: 'user' });

  /** The comments of the event as the server has them (REST, as the admin). */
  const serverComments = async () =>
    (await t.call('GET', `/api/comments/event/${eventId}`, { token: adminToken })).body.comments as (CommentDoc & {
      username: string;
    })[];
  const serverComment = async (id: string) => (await serverComments()).find((comment) => comment.id === id);
  const unreadOnServer = async (token: string) => (await t.call('GET', '/api/comments/mentions/count', { token })).body.count;
  const deviceComment = async (device: TestClient, id: string) =>
    (await device.db.comments.findOne(id).exec())?.toJSON() as CommentDoc | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    adminToken = await t.adminToken();
    const profile = await t.call('GET', '/api/auth/profile', { token: adminToken });
    admin = { id: profile.body.user.id, scope: 'admin' };
    kai = await t.member('kai');
    lena = await t.member('lena');
    // At most 13 RxDB collections per process: 4 + 4 + 3.
    kaiDevice = await TestClient.connect(server.url, kai.token, ['events', 'members', 'comments', 'mentions']);
    lenaDevice = await TestClient.connect(server.url, lena.token, ['events', 'members', 'comments', 'mentions']);
    adminDevice = await TestClient.connect(server.url, adminToken, ['events', 'members', 'comments']);
    const event = await t.call('POST', '/api/events', {
      token: adminToken,
      body: { title: 'Bremen (A)', date: '2030-03-01 15:30', location: 'Bremen' },
    });
    eventId = event.body.event.id;
    for (const device of [kaiDevice, lenaDevice, adminDevice]) {
      await eventually(async () => expect(await device.stored('events', eventId)).not.toBeNull());
      await eventually(async () => expect(await device.storedAll('members')).toHaveLength(3));
    }
  });

  afterAll(async () => {
    await kaiDevice?.close();
    await lenaDevice?.close();
    await adminDevice?.close();
    await server?.close();
    await t?.close();
  });

  it('a comment written offline arrives on another device after sync, with its author, time and mention', async () => {
    await kaiDevice.goOffline();
    const refused = kaiDevice.nextPushFailure('comments');
    const id = await addComment(kaiDevice, kaiActor(), eventId, '  Wer fährt mit, @lena?  ', true);
    const local = await deviceComment(kaiDevice, id);
    expect(local).toMatchObject({ comment: 'Wer fährt mit, @lena?', requires_answer: true, is_resolved: false, seq: 0 });
    expect(kaiDevice.outbox.size).toBeGreaterThan(0);
    // Shown on the writing device at once, with its author's name.
    const shown = await firstValueFrom(comments$(kaiDevice.db, kaiDevice.docs, eventId));
    expect(shown.map((comment) => [comment.id, comment.username])).toEqual([[id, 'kai']]);
    // The device tried to send it and could not.
    await refused;
    expect(await serverComment(id)).toBeUndefined();

    kaiDevice.goOnline();
    await eventually(async () =>
      expect(await serverComment(id)).toMatchObject({ comment: 'Wer fährt mit, @lena?', username: 'kai' }),
    );
    // The device's time of writing is kept.
    expect((await serverComment(id))!.created_at).toBe(local!.created_at);
    await eventually(async () => {
      const onLena = await firstValueFrom(comments$(lenaDevice.db, lenaDevice.docs, eventId));
      expect(onLena).toEqual([
        expect.objectContaining({ id, username: 'kai', comment: 'Wer fährt mit, @lena?', requires_answer: true }),
      ]);
    });

    // The mention reaches only Lena's device, with what it refers to from her device's collections.
    await eventually(async () => {
      const mentions = await firstValueFrom(myMentions$(lenaDevice.db, lenaDevice.docs));
      expect(mentions).toEqual([
        expect.objectContaining({
          comment_id: id,
          event_id: eventId,
          event_title: 'Bremen (A)',
          comment: 'Wer fährt mit, @lena?',
          commenter_username: 'kai',
          is_read: false,
        }),
      ]);
    });
    expect(await firstValueFrom(unreadMentionCount$(lenaDevice.db))).toBe(1);
    expect(await firstValueFrom(unreadMentionCount$(lenaDevice.db, eventId))).toBe(1);
    expect(await firstValueFrom(unreadMentionCount$(lenaDevice.db, 'another-event'))).toBe(0);
    expect([...(await firstValueFrom(unreadMentionsByEvent$(lenaDevice.db)))]).toEqual([[eventId, 1]]);
    // A pull of Kai's device after the mention was stored brings it no mention.
    kaiDevice.handle.reSync();
    await kaiDevice.inSync();
    expect(await kindOf(kaiDevice.db, 'mentions').find().exec()).toHaveLength(0);
    expect(await firstValueFrom(unreadMentionCount$(kaiDevice.db))).toBe(0);
  });

  it('marking mentions read syncs to the server, one and all', async () => {
    await eventually(async () => expect(await unreadOnServer(lena.token)).toBe(1));
    const [first] = await firstValueFrom(myMentions$(lenaDevice.db, lenaDevice.docs));
    await markMentionRead(lenaDevice, lena.id, first!.id);
    expect(await firstValueFrom(unreadMentionCount$(lenaDevice.db))).toBe(0);
    await eventually(async () => expect(await unreadOnServer(lena.token)).toBe(0));

    // Two more, written on Kai's device; "mark all" reads both.
    await addComment(kaiDevice, kaiActor(), eventId, '@lena Treffpunkt 12 Uhr', false);
    await addComment(kaiDevice, kaiActor(), eventId, 'Und @Lena bringt die Fahne', false);
    await eventually(async () => expect(await firstValueFrom(unreadMentionCount$(lenaDevice.db))).toBe(2));
    const newest = await firstValueFrom(myMentions$(lenaDevice.db, lenaDevice.docs));
    // Newest first.
    expect(newest.map((mention) => mention.comment)).toEqual([
      'Und @Lena bringt die Fahne',
      '@lena Treffpunkt 12 Uhr',
      'Wer fährt mit, @lena?',
    ]);
    await markAllMentionsRead(lenaDevice, lena.id);
    expect(await firstValueFrom(unreadMentionCount$(lenaDevice.db))).toBe(0);
    await eventually(async () => expect(await unreadOnServer(lena.token)).toBe(0));
    const onServer = (await t.call('GET', '/api/comments/mentions', { token: lena.token })).body.mentions;
    expect(onServer.map((mention: { is_read: boolean }) => mention.is_read)).toEqual([true, true, true]);
  });

  it('the author edits the text offline while an admin’s device resolves the comment: both changes are kept', async () => {
    const id = await addComment(kaiDevice, kaiActor(), eventId, 'Gibt es noch Karten?', true);
    await eventually(async () => expect(await deviceComment(adminDevice, id)).toBeDefined());
    await eventually(async () => expect((await deviceComment(kaiDevice, id))?.seq).toBeGreaterThan(0));

    await kaiDevice.goOffline();
    await editComment(kaiDevice, kaiActor(), id, 'Gibt es noch Karten für den Block?');
    await resolveComment(adminDevice, admin, id);
    await eventually(async () => expect(await serverComment(id)).toMatchObject({ is_resolved: true }));
    kaiDevice.goOnline();

    const both = { comment: 'Gibt es noch Karten für den Block?', is_resolved: true, requires_answer: true };
    await eventually(async () => {
      expect(await serverComment(id)).toMatchObject(both);
      expect(await deviceComment(kaiDevice, id)).toMatchObject(both);
      expect(await deviceComment(adminDevice, id)).toMatchObject(both);
      expect(await deviceComment(lenaDevice, id)).toMatchObject(both);
    });

    // Resolved: the author may reopen it (it requires an answer), then drop the answer request.
    await unresolveComment(kaiDevice, kaiActor(), id);
    await toggleRequiresAnswer(kaiDevice, kaiActor(), id);
    await eventually(async () => expect(await serverComment(id)).toMatchObject({ is_resolved: false, requires_answer: false }));
    await eventually(async () =>
      expect(await deviceComment(adminDevice, id)).toMatchObject({ is_resolved: false, requires_answer: false }),
    );
  });

  it('the rules refuse on the device what the server would, and change nothing', async () => {
    const id = await addComment(kaiDevice, kaiActor(), eventId, 'Regeln', false);
    await eventually(async () => expect(await deviceComment(lenaDevice, id)).toBeDefined());
    await eventually(async () => expect(await deviceComment(adminDevice, id)).toBeDefined());
    const refusal = async (task: Promise<unknown>, code: string) => {
      const error = await task.then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(LocalRuleError);
      expect((error as LocalRuleError).code).toBe(code);
    };

    // Text: blank after trimming, too long; an event that is not on the device.
    await refusal(addComment(kaiDevice, kaiActor(), eventId, '   \n ', false), 'commentEmpty');
    await refusal(addComment(kaiDevice, kaiActor(), eventId, 'x'.repeat(COMMENT_MAX_LENGTH + 1), false), 'commentTooLong');
    await refusal(addComment(kaiDevice, kaiActor(), 'no-such-event', 'Hallo', false), 'eventNotFound');
    await refusal(editComment(kaiDevice, kaiActor(), id, ' '), 'commentEmpty');
    // Someone else's comment: a member changes nothing of it, an admin not its text.
    await refusal(editComment(lenaDevice, lenaActor(), id, 'Übernommen'), 'commentNotAllowed');
    await refusal(deleteComment(lenaDevice, lenaActor(), id), 'commentNotAllowed');
    await refusal(resolveComment(lenaDevice, lenaActor(), id), 'commentNotAllowed');
    await refusal(toggleRequiresAnswer(lenaDevice, lenaActor(), id), 'commentNotAllowed');
    await refusal(editComment(adminDevice, admin, id, 'Vom Admin'), 'commentNotAllowed');
    // Resolved: no edit, no toggle, no second resolve; reopening needs an answer request.
    await resolveComment(kaiDevice, kaiActor(), id);
    await refusal(editComment(kaiDevice, kaiActor(), id, 'Später'), 'commentIsResolved');
    await refusal(toggleRequiresAnswer(kaiDevice, kaiActor(), id), 'commentIsResolved');
    await refusal(resolveComment(kaiDevice, kaiActor(), id), 'commentIsResolved');
    await refusal(deleteComment(kaiDevice, kaiActor(), id), 'commentIsResolved');
    await refusal(unresolveComment(kaiDevice, kaiActor(), id), 'commentNotReopenable');
    await refusal(editComment(kaiDevice, kaiActor(), 'no-such-comment', 'x'), 'commentNotFound');
    // Nothing of the refused changes was written or waits for the server.
    expect(await deviceComment(lenaDevice, id)).toMatchObject({ comment: 'Regeln' });
    expect(await lenaDevice.db.comments.find({ selector: { event_id: eventId, user_id: lena.id } }).exec()).toHaveLength(0);

    // An admin deletes any comment (moderation), also a resolved one; it goes from every device.
    await eventually(async () => expect(await deviceComment(adminDevice, id)).toMatchObject({ is_resolved: true }));
    await deleteComment(adminDevice, admin, id);
    await eventually(async () => {
      expect(await serverComment(id)).toBeUndefined();
      expect(await deviceComment(kaiDevice, id)).toBeUndefined();
      expect(await deviceComment(lenaDevice, id)).toBeUndefined();
    });
  });

  it('comments are listed oldest first; a mention of someone else never reaches the device', async () => {
    const listed = await firstValueFrom(comments$(lenaDevice.db, lenaDevice.docs, eventId));
    const times = listed.map((comment) => comment.created_at);
    expect(times).toEqual([...times].sort());
    expect(listed.every((comment) => comment.username === 'kai')).toBe(true);
    // Lena names Kai: only Kai's device gets it.
    const id = await addComment(lenaDevice, lenaActor(), eventId, 'Danke @kai!', false);
    await eventually(async () => {
      const mentions = await firstValueFrom(myMentions$(kaiDevice.db, kaiDevice.docs));
      expect(mentions.map((mention) => [mention.comment_id, mention.commenter_username])).toEqual([[id, 'lena']]);
    });
    expect((await firstValueFrom(myMentions$(lenaDevice.db, lenaDevice.docs))).some((mention) => mention.comment_id === id)).toBe(
      false,
    );
  });
});

describe('the pending comment excerpt', () => {
  it('keeps short texts, shortens long ones at a word', () => {
    expect(excerpt('Kurz  und\ngut')).toBe('Kurz und gut');
    const long = 'Wort '.repeat(40);
    const short = excerpt(long, 22);
    expect(short).toBe('Wort Wort Wort Wort …');
  });
});
