import { MESSAGES, newId } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../src/db/store.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Mentions (docs/architecture.md, "Comments and mentions"): who a text names (names with spaces and umlauts,
 * case-folded, the longest name, never a name running on into a word), never the author, pending
 * or deleted accounts; what an edit does; the member's list, counts and read marks, own only.
 */

let t: TestApp;
let admin: string;
let author: User;
let max: User;
let maxMustermann: User;
let juergen: User;
let zoe: User;
let pendingId: string;
let deleted: User;
let eventId: string;
let secondEventId: string;
let seq = 0;
/** Members who write the comments of these tests, none of them named in a text. */
let writers: User[] = [];

interface User {
  id: string;
  token: string;
}

/** A member whose name may have spaces (t.member builds the email from the name). */
async function member(username: string): Promise<User> {
  const reg = await t.call('POST', '/api/auth/register', {
    body: { username, email: `mention-${++seq}@example.org`, password: 'member-pass' },
  });
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  expect((await t.call('PUT', `/api/auth/users/${reg.body.user.id}/approve`, { token: admin })).status).toBe(200);
  return { id: reg.body.user.id, token: await t.login(username, 'member-pass') };
}

/**
 * Writes a comment over REST as the given member, or as the next of a few writers (REST comments
 * are paced per member: COMMENTS_PER_MINUTE). `writerOf` tells who wrote it.
 */
async function comment(token: string | null, text: string, event = eventId): Promise<string> {
  const writer = token ?? writers[seq++ % writers.length]!.token;
  const res = await t.call('POST', `/api/comments/event/${event}`, { token: writer, body: { comment: text } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  written.set(res.body.comment.id, writer);
  return res.body.comment.id;
}
const written = new Map<string, string>();
const writerOf = (commentId: string) => written.get(commentId)!;

/** Who has a live mention of the comment. */
async function mentioned(commentId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('mentions')
    .select('user_id')
    .where('comment_id', '=', commentId)
    .where('deleted', '=', 0)
    .execute();
  return rows.map((row) => row.user_id).sort();
}

const sorted = (...users: User[]) => users.map((user) => user.id).sort();
const mentionsOf = async (user: User) => (await t.call('GET', '/api/comments/mentions', { token: user.token })).body.mentions;
const countOf = async (user: User) => (await t.call('GET', '/api/comments/mentions/count', { token: user.token })).body.count;
const byEventOf = async (user: User) =>
  (await t.call('GET', '/api/comments/mentions/by-event', { token: user.token })).body.counts;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  author = await member('Schreiber');
  max = await member('Max');
  maxMustermann = await member('Max Mustermann');
  juergen = await member('Jürgen Köhler');
  zoe = await member('Zoë');
  pendingId = (
    await t.call('POST', '/api/auth/register', {
      body: { username: 'Pending Pete', email: 'pete@example.org', password: 'member-pass' },
    })
  ).body.user.id;
  writers = [await member('Schreiber Eins'), await member('Schreiber Zwei'), await member('Schreiber Drei')];
  deleted = await member('Gone Gus');
  expect((await t.call('DELETE', `/api/auth/users/${deleted.id}`, { token: admin })).status).toBe(200);
  eventId = (await createEventVia(t, admin, { title: 'Mentions match (H)' })).id;
  secondEventId = (await createEventVia(t, admin, { title: 'Second match (A)' })).id;
});
afterAll(() => t.close());

describe('who a comment names', () => {
  it.each([
    ['a plain name', 'Hallo @Max!', () => sorted(max)],
    ['the longest name: @Max Mustermann is not Max', 'Kommst du mit, @Max Mustermann?', () => sorted(maxMustermann)],
    ['both, when both are named', '@Max und @Max Mustermann', () => sorted(max, maxMustermann)],
    ['a name with a space and umlauts', 'Danke @Jürgen Köhler.', () => sorted(juergen)],
    ['a name in another case', 'danke @jürgen köhler und @max mustermann', () => sorted(juergen, maxMustermann)],
    ['a name with a diaeresis at the end', 'Frag @Zoë', () => sorted(zoe)],
    ['a name running on into a word', 'Hallo @Maxi und @Zoëlle', () => []],
    ['a name followed by punctuation and a line break', '@Max,\n@Zoë:', () => sorted(max, zoe)],
    ['each member once', '@Max @Max @max', () => sorted(max)],
    ['no @ at all', 'Max und Zoë kommen auch', () => []],
    ['an @ that names nobody', 'Schreib an info@example.org oder @niemand', () => []],
  ])('%s', async (_label, text, expected) => {
    expect(await mentioned(await comment(null, text))).toEqual(expected());
  });

  it('never names the author, a pending registration or a deleted account', async () => {
    const id = await comment(author.token, 'Ich (@Schreiber) frage @Pending Pete und @Gone Gus und @Zoë');
    expect(await mentioned(id)).toEqual(sorted(zoe));
    const rows = await t.db.selectFrom('mentions').select('user_id').where('comment_id', '=', id).execute();
    expect(rows.map((row) => row.user_id)).not.toContain(pendingId);
    expect(rows.map((row) => row.user_id)).not.toContain(author.id);
    expect(rows.map((row) => row.user_id)).not.toContain(deleted.id);
  });
});

describe('at most MENTIONS_PER_COMMENT (20) members a comment', () => {
  it('notifies the first 20 distinct members named; further @names notify nobody, an edit included', async () => {
    const crowdName = (n: number) => `Crowd ${String(n).padStart(2, '0')}`;
    const crowd: User[] = [];
    for (let n = 1; n <= 25; n++) crowd.push(await member(crowdName(n)));
    const named = (numbers: number[]) => numbers.map((n) => `@${crowdName(n)}`).join(' ');
    const oneTo25 = crowd.map((_, i) => i + 1);
    // Each named twice: the first 20 distinct ones get a mention.
    const id = await comment(author.token, `${named(oneTo25)} ${named(oneTo25)}`);
    expect(await mentioned(id)).toEqual(sorted(...crowd.slice(0, 20)));
    expect(await countOf(crowd[20]!)).toBe(0);
    // An edit naming Zoë first and the crowd backwards keeps the 20 it has and adds nobody.
    const edit = await t.call('PUT', `/api/comments/${id}`, {
      token: author.token,
      body: { comment: `@Zoë ${named([...oneTo25].reverse())}` },
    });
    expect(edit.status).toBe(200);
    const live = await mentioned(id);
    expect(live).toEqual(sorted(...crowd.slice(0, 20)));
  });
});

describe('editing a comment', () => {
  it('keeps a kept mention as it is, adds new names and tombstones the dropped ones', async () => {
    const id = await comment(author.token, 'Wer fährt? @Max');
    const edit = (text: string) => t.call('PUT', `/api/comments/${id}`, { token: author.token, body: { comment: text } });
    const first = await t.db.selectFrom('mentions').selectAll().where('comment_id', '=', id).executeTakeFirstOrThrow();
    const commits: Commit[] = [];
    const stop = t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
    try {
      // The same name again: nothing new.
      expect((await edit('Wer fährt mit? @Max')).status).toBe(200);
      expect(await t.db.selectFrom('mentions').selectAll().where('comment_id', '=', id).execute()).toEqual([first]);
      expect(commits.flatMap((c) => c.events).map((e) => e.type)).toEqual(['comment.changed']);

      // Another name added: one new mention, the kept one untouched.
      commits.length = 0;
      await edit('Wer fährt mit? @Max @Zoë');
      expect(await mentioned(id)).toEqual(sorted(max, zoe));
      expect(await t.db.selectFrom('mentions').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()).toEqual(first);
      expect(commits.flatMap((c) => c.events)).toContainEqual(
        expect.objectContaining({ type: 'mention.created', userId: zoe.id }),
      );

      // A name dropped: that mention is tombstoned (read or not).
      await t.call('PUT', `/api/comments/mentions/${first.id}/read`, { token: max.token });
      await edit('Wer fährt mit? @Zoë');
      expect(await mentioned(id)).toEqual(sorted(zoe));
      const dropped = await t.db.selectFrom('mentions').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
      expect(dropped.deleted).toBe(1);
      expect(Number(dropped.seq)).toBeGreaterThan(Number(first.seq));
      expect((await mentionsOf(max)).some((m: { comment_id: string }) => m.comment_id === id)).toBe(false);

      // Named again later: a new, unread mention.
      await edit('Doch: @Max @Zoë');
      const again = await t.db
        .selectFrom('mentions')
        .selectAll()
        .where('comment_id', '=', id)
        .where('user_id', '=', max.id)
        .where('deleted', '=', 0)
        .executeTakeFirstOrThrow();
      expect(again.id).not.toBe(first.id);
      expect(again.is_read).toBe(0);
    } finally {
      stop();
    }
  });

  it('tombstones the mentions of a deleted comment', async () => {
    const id = await comment(null, 'Tschüss @Zoë');
    const before = await countOf(zoe);
    expect((await t.call('DELETE', `/api/comments/${id}`, { token: writerOf(id) })).status).toBe(200);
    expect(await mentioned(id)).toEqual([]);
    expect(await countOf(zoe)).toBe(before - 1);
  });
});

describe("a member's mentions", () => {
  let reader: User;
  let someone: User;
  let firstId: string;
  let secondId: string;
  let thirdId: string;

  beforeAll(async () => {
    reader = await member('Lena Lesend');
    someone = await member('Otto Anders');
    firstId = await comment(null, 'Hallo @Lena Lesend');
    secondId = await comment(someone.token, '@Lena Lesend, hast du Karten?');
    thirdId = await comment(null, 'Auch hier @Lena Lesend und @Otto Anders', secondEventId);
  });

  it('lists own mentions with their comment, event and author, newest first', async () => {
    const mentions = await mentionsOf(reader);
    expect(mentions).toHaveLength(3);
    expect(mentions.map((m: { comment_id: string }) => m.comment_id)).toEqual([thirdId, secondId, firstId]);
    expect(mentions[1]).toEqual({
      mention_id: expect.any(String),
      comment_id: secondId,
      event_id: eventId,
      event_title: 'Mentions match (H)',
      comment: '@Lena Lesend, hast du Karten?',
      commenter_username: 'Otto Anders',
      mention_date: expect.any(String),
      is_read: false,
    });
    expect(await countOf(reader)).toBe(3);
    expect(await byEventOf(reader)).toEqual({ [eventId]: 2, [secondEventId]: 1 });
    // Someone else's list has only their own.
    expect((await mentionsOf(someone)).map((m: { comment_id: string }) => m.comment_id)).toEqual([thirdId]);
  });

  it('marks an own mention read, and refuses someone else’s (404 for members and admins alike)', async () => {
    const [third] = await mentionsOf(reader);
    for (const token of [someone.token, admin]) {
      const refused = await t.call('PUT', `/api/comments/mentions/${third.mention_id}/read`, { token });
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe(MESSAGES.mentionNotFound);
    }
    expect(await countOf(reader)).toBe(3);
    const unknown = await t.call('PUT', `/api/comments/mentions/${newId()}/read`, { token: reader.token });
    expect(unknown.status).toBe(404);

    const res = await t.call('PUT', `/api/comments/mentions/${third.mention_id}/read`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.mention).toMatchObject({ id: third.mention_id, comment_id: thirdId, event_id: secondEventId, is_read: true });
    // Marking it again changes nothing.
    const row = await t.db.selectFrom('mentions').selectAll().where('id', '=', third.mention_id).executeTakeFirstOrThrow();
    expect((await t.call('PUT', `/api/comments/mentions/${third.mention_id}/read`, { token: reader.token })).status).toBe(200);
    expect(await t.db.selectFrom('mentions').selectAll().where('id', '=', third.mention_id).executeTakeFirstOrThrow()).toEqual(
      row,
    );
    expect(await countOf(reader)).toBe(2);
    expect(await byEventOf(reader)).toEqual({ [eventId]: 2 });
    expect((await mentionsOf(reader))[0].is_read).toBe(true);
  });

  it('marks all own mentions read and nobody else’s', async () => {
    expect(await countOf(someone)).toBe(1);
    const res = await t.call('PUT', '/api/comments/mentions/read-all', { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: MESSAGES.mentionsRead, updated: 2 });
    expect(await countOf(reader)).toBe(0);
    expect(await byEventOf(reader)).toEqual({});
    expect(await countOf(someone)).toBe(1);
    expect((await t.call('PUT', '/api/comments/mentions/read-all', { token: reader.token })).body.updated).toBe(0);
  });

  it('counts only mentions of live comments on live events', async () => {
    const fresh = await member('Frieda Frisch');
    const kept = await comment(null, 'Hi @Frieda Frisch');
    const event = (await createEventVia(t, admin, { title: 'Soon gone (A)' })).id;
    await comment(someone.token, 'Hi @Frieda Frisch', event);
    const gone = await comment(someone.token, 'Nochmal @Frieda Frisch', event);
    expect(await byEventOf(fresh)).toEqual({ [eventId]: 1, [event]: 2 });
    await t.call('DELETE', `/api/comments/${gone}`, { token: admin });
    expect(await byEventOf(fresh)).toEqual({ [eventId]: 1, [event]: 1 });
    await t.call('DELETE', `/api/events/${event}`, { token: admin });
    expect(await byEventOf(fresh)).toEqual({ [eventId]: 1 });
    expect(await countOf(fresh)).toBe(1);
    expect((await mentionsOf(fresh)).map((m: { comment_id: string }) => m.comment_id)).toEqual([kept]);
  });

  it('are refused to anonymous callers', async () => {
    for (const [method, path] of [
      ['GET', '/api/comments/mentions'],
      ['GET', '/api/comments/mentions/count'],
      ['GET', '/api/comments/mentions/by-event'],
      ['PUT', '/api/comments/mentions/read-all'],
      ['PUT', `/api/comments/mentions/${newId()}/read`],
    ] as const) {
      expect((await t.call(method, path)).status).toBe(401);
    }
  });
});
