import { COMMENT_MAX_LENGTH, COMMENTS_PER_MINUTE, MESSAGES, newId } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write, type Commit } from '../src/db/store.js';
import type { Actor } from '../src/domain/actor.js';
import { acceptedCreatedAt, createComment } from '../src/domain/comments/comments.js';
import { expectRefusal, GENERIC, type BodyRoute } from './bad-input-cases.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Comments over REST (docs/architecture.md, "Comments and mentions"): who may do what to a comment in
 * which state (shared rule mayChangeComment, checked by the server), bad input for every body, the
 * pace of new comments, the admin's pending comments and their share of the pending-task count, the
 * domain events, and what deleting or archiving an event does to its comments and mentions.
 */

let t: TestApp;
let admin: { id: string; token: string };
let author: { id: string; token: string };
let other: { id: string; token: string };
let eventId: string;
const actorOf = (user: { id: string }, username: string, scope: 'admin' | 'user' = 'user'): Actor => ({
  id: user.id,
  username,
  scope,
});
const commentRow = (id: string) => t.db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A comment of the author, written through the domain (fixtures do not count against the REST pace), in a given state. */
async function authorsComment(state: { requires_answer?: boolean; is_resolved?: boolean } = {}, text = 'Wer fährt mit?') {
  const row = await write(t.runtime.deps.store, (w) =>
    createComment(w, actorOf(author, 'cm-author'), eventId, { comment: text, requires_answer: state.requires_answer ?? false }),
  );
  if (state.is_resolved) await t.db.updateTable('comments').set({ is_resolved: 1 }).where('id', '=', row.id).execute();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const adminToken = await t.adminToken();
  const profile = await t.call('GET', '/api/auth/profile', { token: adminToken });
  admin = { id: profile.body.user.id, token: adminToken };
  author = await t.member('cm-author');
  other = await t.member('cm-other');
  eventId = (await createEventVia(t, admin.token, { title: 'Comments match (H)' })).id;
});
afterAll(() => t.close());

describe('writing and reading comments', () => {
  it('writes a comment (author = the caller, text trimmed) and lists it with the author name', async () => {
    const res = await t.call('POST', `/api/comments/event/${eventId}`, {
      token: author.token,
      body: { comment: '  Treffpunkt 12 Uhr am Bahnhof  ', requires_answer: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: MESSAGES.commentAdded });
    expect(res.body.comment).toEqual({
      id: expect.any(String),
      event_id: eventId,
      user_id: author.id,
      username: 'cm-author',
      comment: 'Treffpunkt 12 Uhr am Bahnhof',
      created_at: expect.any(String),
      requires_answer: true,
      is_resolved: false,
    });
    // REST comments carry the server's time.
    expect(Math.abs(Date.parse(res.body.comment.created_at) - Date.now())).toBeLessThan(10_000);
    const list = await t.call('GET', `/api/comments/event/${eventId}`, { token: other.token });
    expect(list.status).toBe(200);
    expect(list.body.comments).toContainEqual(res.body.comment);
  });

  it('takes requires_answer as optional (false) and keeps the comments oldest first', async () => {
    const event = (await createEventVia(t, admin.token, { title: 'Order (A)' })).id;
    const first = await t.call('POST', `/api/comments/event/${event}`, { token: other.token, body: { comment: 'eins' } });
    const second = await t.call('POST', `/api/comments/event/${event}`, { token: author.token, body: { comment: 'zwei' } });
    expect(first.body.comment.requires_answer).toBe(false);
    const list = await t.call('GET', `/api/comments/event/${event}`, { token: author.token });
    expect(list.body.comments.map((c: { comment: string }) => c.comment)).toEqual(['eins', 'zwei']);
    expect(second.body.comment.username).toBe('cm-author');
  });

  it('accepts a text of exactly COMMENT_MAX_LENGTH characters once trimmed', async () => {
    const text = 'x'.repeat(COMMENT_MAX_LENGTH);
    const res = await t.call('POST', `/api/comments/event/${eventId}`, { token: other.token, body: { comment: `  ${text}\n` } });
    expect(res.status).toBe(201);
    expect(res.body.comment.comment).toBe(text);
  });

  it('answers 404 Event not found for an unknown, deleted or archived event, to reads and writes', async () => {
    const deleted = (await createEventVia(t, admin.token, { title: 'Deleted (A)' })).id;
    expect((await t.call('DELETE', `/api/events/${deleted}`, { token: admin.token })).status).toBe(200);
    const archived = (await createEventVia(t, admin.token, { title: 'Archived (A)' })).id;
    await t.call('POST', `/api/attendance/${archived}`, { token: other.token, body: { status: 'going' } });
    await t.call('PUT', `/api/tickets/event/${archived}/user/${other.id}/status`, { token: admin.token, body: { bought: true } });
    expect((await t.call('DELETE', `/api/events/${archived}`, { token: admin.token })).status).toBe(200);
    expect(
      (await t.db.selectFrom('events').select('archived').where('id', '=', archived).executeTakeFirstOrThrow()).archived,
    ).toBe(1);
    for (const id of [newId(), deleted, archived]) {
      const post = await t.call('POST', `/api/comments/event/${id}`, { token: author.token, body: { comment: 'Hallo' } });
      expect(post.status).toBe(404);
      expect(post.body.message).toBe(MESSAGES.eventNotFound);
      const get = await t.call('GET', `/api/comments/event/${id}`, { token: author.token });
      expect(get.status).toBe(404);
      expect(get.body.message).toBe(MESSAGES.eventNotFound);
    }
    // settle the ticket so the member carries no debt into later tests
    await t.call('PUT', `/api/tickets/event/${archived}/user/${other.id}/status`, { token: admin.token, body: { paid: true } });
  });

  it('answers 404 Comment not found for unknown and deleted comments', async () => {
    const id = await authorsComment();
    expect((await t.call('DELETE', `/api/comments/${id}`, { token: author.token })).status).toBe(200);
    for (const target of [newId(), id]) {
      for (const [method, path, body] of [
        ['PUT', '', { comment: 'x' }],
        ['DELETE', '', undefined],
        ['PUT', '/resolve', undefined],
        ['PUT', '/unresolve', undefined],
        ['PUT', '/toggle-requires-answer', undefined],
      ] as const) {
        const res = await t.call(method, `/api/comments/${target}${path}`, { token: admin.token, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.message).toBe(MESSAGES.commentNotFound);
      }
    }
  });
});

/*
 * Who may change a comment in which state: the author edits, deletes, resolves and toggles
 * while unresolved; admins resolve, toggle and delete anyone's (never edit someone's text); a
 * resolved comment that requires an answer is reopened by its author or an admin. Resolving a
 * resolved comment or reopening an open one is no change (200 for those who may do it at all).
 */
describe('the comment rules for author, other member and admin', () => {
  type Who = 'author' | 'other' | 'admin';
  type State = 'open' | 'openPlain' | 'resolved' | 'resolvedPlain';
  type Action = 'edit' | 'delete' | 'resolve' | 'unresolve' | 'toggle';
  const STATES: Record<State, { requires_answer: boolean; is_resolved: boolean }> = {
    open: { requires_answer: true, is_resolved: false },
    openPlain: { requires_answer: false, is_resolved: false },
    resolved: { requires_answer: true, is_resolved: true },
    resolvedPlain: { requires_answer: false, is_resolved: true },
  };
  const ALL_403 = { open: 403, openPlain: 403, resolved: 403, resolvedPlain: 403 };
  const EXPECTED: Record<Action, Record<Who, Record<State, number>>> = {
    edit: {
      author: { open: 200, openPlain: 200, resolved: 409, resolvedPlain: 409 },
      other: ALL_403,
      admin: ALL_403,
    },
    delete: {
      author: { open: 200, openPlain: 200, resolved: 409, resolvedPlain: 409 },
      other: ALL_403,
      admin: { open: 200, openPlain: 200, resolved: 200, resolvedPlain: 200 },
    },
    resolve: {
      author: { open: 200, openPlain: 200, resolved: 200, resolvedPlain: 200 },
      other: ALL_403,
      admin: { open: 200, openPlain: 200, resolved: 200, resolvedPlain: 200 },
    },
    unresolve: {
      author: { open: 200, openPlain: 200, resolved: 200, resolvedPlain: 409 },
      other: ALL_403,
      admin: { open: 200, openPlain: 200, resolved: 200, resolvedPlain: 409 },
    },
    toggle: {
      author: { open: 200, openPlain: 200, resolved: 409, resolvedPlain: 409 },
      other: ALL_403,
      admin: { open: 200, openPlain: 200, resolved: 409, resolvedPlain: 409 },
    },
  };
  const CALL: Record<Action, { method: 'PUT' | 'DELETE'; path: string; body?: unknown }> = {
    edit: { method: 'PUT', path: '', body: { comment: 'Geändert' } },
    delete: { method: 'DELETE', path: '' },
    resolve: { method: 'PUT', path: '/resolve' },
    unresolve: { method: 'PUT', path: '/unresolve' },
    toggle: { method: 'PUT', path: '/toggle-requires-answer' },
  };
  /** The row after a successful call, from the row before. */
  const AFTER: Record<Action, (before: Record<string, unknown>) => Record<string, unknown>> = {
    edit: (b) => ({ ...b, comment: 'Geändert' }),
    delete: (b) => ({ ...b, deleted: 1 }),
    resolve: (b) => ({ ...b, is_resolved: 1 }),
    unresolve: (b) => ({ ...b, is_resolved: 0 }),
    toggle: (b) => ({ ...b, requires_answer: 1 - (b.requires_answer as number) }),
  };

  const cases = (Object.keys(EXPECTED) as Action[]).flatMap((action) =>
    (['author', 'other', 'admin'] as Who[]).flatMap((who) =>
      (Object.keys(STATES) as State[]).map((state) => [action, who, state, EXPECTED[action][who][state]] as const),
    ),
  );

  it.each(cases)('%s by %s on a %s comment → %i', async (action, who, state, status) => {
    const id = await authorsComment(STATES[state]);
    const before = await commentRow(id);
    const token = { author: author.token, other: other.token, admin: admin.token }[who];
    const call = CALL[action];
    const res = await t.call(call.method, `/api/comments/${id}${call.path}`, { token, body: call.body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const after = await commentRow(id);
    if (status !== 200) {
      expect(res.body.success).toBe(false);
      const code = status === 403 ? 'commentNotAllowed' : action === 'unresolve' ? 'commentNotReopenable' : 'commentIsResolved';
      expect(res.body).toMatchObject({ code, message: MESSAGES[code] });
      expect(after).toEqual(before);
      return;
    }
    expect(res.body.success).toBe(true);
    const expected = AFTER[action](before);
    const unchanged = (['comment', 'requires_answer', 'is_resolved', 'deleted'] as const).every(
      (key) => expected[key] === before[key],
    );
    expect(after).toMatchObject({
      comment: expected.comment,
      requires_answer: expected.requires_answer,
      is_resolved: expected.is_resolved,
      deleted: expected.deleted,
      user_id: author.id,
    });
    // A call that changes nothing (resolving a resolved comment) writes nothing.
    if (unchanged) expect(after.seq).toBe(before.seq);
    else expect(Number(after.seq)).toBeGreaterThan(Number(before.seq));
    if (action !== 'delete') {
      expect(res.body.comment).toMatchObject({
        id,
        user_id: author.id,
        username: 'cm-author',
        is_resolved: after.is_resolved === 1,
        requires_answer: after.requires_answer === 1,
        comment: after.comment,
      });
    }
  });

  it('lets the author reopen and then edit again', async () => {
    const id = await authorsComment({ requires_answer: true, is_resolved: true });
    expect((await t.call('PUT', `/api/comments/${id}/unresolve`, { token: author.token })).status).toBe(200);
    const edited = await t.call('PUT', `/api/comments/${id}`, { token: author.token, body: { comment: 'Doch noch eine Frage' } });
    expect(edited.status).toBe(200);
    expect(edited.body.comment).toMatchObject({ comment: 'Doch noch eine Frage', is_resolved: false });
  });
});

describe('bad input', () => {
  let writer: { id: string; token: string };
  let commentId: string;

  beforeAll(async () => {
    writer = await t.member('cm-bad');
    const res = await t.call('POST', `/api/comments/event/${eventId}`, { token: writer.token, body: { comment: 'Original' } });
    commentId = res.body.comment.id;
  });

  async function snapshot() {
    return Promise.all([
      t.db.selectFrom('comments').selectAll().orderBy('id').execute(),
      t.db.selectFrom('mentions').selectAll().orderBy('id').execute(),
      t.db.selectFrom('counters').selectAll().execute(),
    ]);
  }

  const tooLong = 'x'.repeat(COMMENT_MAX_LENGTH + 1);
  const textCases: BodyRoute['bad'] = [
    ['an empty comment', { comment: '' }, MESSAGES.commentEmpty],
    ['a blank comment', { comment: '   \n\t ' }, MESSAGES.commentEmpty],
    ['no comment', {}, MESSAGES.commentEmpty],
    ['a null comment', { comment: null }, MESSAGES.commentEmpty],
    ['a comment that is a number', { comment: 42 }, MESSAGES.commentEmpty],
    ['a comment that is an array', { comment: ['a'] }, MESSAGES.commentEmpty],
    ['a comment that is an object', { comment: { text: 'a' } }, MESSAGES.commentEmpty],
    ['a comment that is too long', { comment: tooLong }, MESSAGES.commentTooLong],
    ['a comment too long after trimming too', { comment: ` ${tooLong} ` }, MESSAGES.commentTooLong],
  ];

  const ROUTES: BodyRoute[] = [
    {
      name: 'POST /api/comments/event/{eventId}',
      method: 'POST',
      url: () => `/api/comments/event/${eventId}`,
      token: () => writer.token,
      valid: () => ({ comment: 'Hallo', requires_answer: false }),
      bad: [
        ...textCases,
        ['requires_answer as text', { comment: 'Hallo', requires_answer: 'yes' }, MESSAGES.invalidInput],
        ['requires_answer as a number', { comment: 'Hallo', requires_answer: 1 }, MESSAGES.invalidInput],
        ['requires_answer null', { comment: 'Hallo', requires_answer: null }, MESSAGES.invalidInput],
      ],
    },
    {
      name: 'PUT /api/comments/{id}',
      method: 'PUT',
      url: () => `/api/comments/${commentId}`,
      token: () => writer.token,
      valid: () => ({ comment: 'Neu' }),
      bad: textCases,
    },
  ];

  describe.each(ROUTES)('$name', (route) => {
    it.each(route.bad)('refuses %s', async (_label, body, message) => {
      const before = await snapshot();
      const res = await t.call(route.method, route.url(), { token: route.token(), body });
      expectRefusal(res, 400, message);
      expect(await snapshot()).toEqual(before);
    });

    it.each(GENERIC)('refuses %s', async (_label, send, status, message) => {
      const before = await snapshot();
      const { raw, headers } = send(route);
      const res = await t.call(route.method, route.url(), { token: route.token(), raw, headers });
      expectRefusal(res, status, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  it.each([
    ['POST', () => `/api/comments/event/${'x'.repeat(65)}`, { comment: 'x' }],
    ['GET', () => `/api/comments/event/${'x'.repeat(65)}`, undefined],
    ['PUT', () => `/api/comments/${'x'.repeat(65)}`, { comment: 'x' }],
    ['DELETE', () => `/api/comments/${'x'.repeat(65)}`, undefined],
    ['PUT', () => `/api/comments/${'x'.repeat(65)}/resolve`, undefined],
    ['PUT', () => `/api/comments/${'x'.repeat(65)}/unresolve`, undefined],
    ['PUT', () => `/api/comments/${'x'.repeat(65)}/toggle-requires-answer`, undefined],
    ['PUT', () => `/api/comments/mentions/${'x'.repeat(65)}/read`, undefined],
  ] as const)('%s with an over-long id answers 400', async (method, url, body) => {
    const before = await snapshot();
    const res = await t.call(method, url(), { token: admin.token, body });
    expectRefusal(res, 400, null);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses anonymous calls with 401 before looking at the body', async () => {
    const res = await t.call('POST', `/api/comments/event/${eventId}`, { raw: '{bad' });
    expect(res.status).toBe(401);
  });
});

describe('pace of new comments', () => {
  it(`lets a member write ${COMMENTS_PER_MINUTE} comments a minute, then answers 429 commentsTooFast`, async () => {
    const fast = await t.member('cm-fast');
    // Refused comments do not count.
    for (let i = 0; i < 3; i++) {
      expect((await t.call('POST', `/api/comments/event/${eventId}`, { token: fast.token, body: { comment: ' ' } })).status).toBe(
        400,
      );
    }
    for (let i = 0; i < COMMENTS_PER_MINUTE; i++) {
      const res = await t.call('POST', `/api/comments/event/${eventId}`, { token: fast.token, body: { comment: `Nr. ${i}` } });
      expect(res.status).toBe(201);
    }
    const countBefore = await t.db.selectFrom('comments').select('id').where('user_id', '=', fast.id).execute();
    const counters = await t.db.selectFrom('counters').selectAll().execute();
    const response = await t.app.request(`/api/comments/event/${eventId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fast.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ comment: 'Noch einer' }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ success: false, code: 'commentsTooFast', message: MESSAGES.commentsTooFast });
    expect(await t.db.selectFrom('comments').select('id').where('user_id', '=', fast.id).execute()).toEqual(countBefore);
    expect(await t.db.selectFrom('counters').selectAll().execute()).toEqual(counters);
    // Other members are not held up; edits are not paced.
    expect(
      (await t.call('POST', `/api/comments/event/${eventId}`, { token: other.token, body: { comment: 'Ich' } })).status,
    ).toBe(201);
    const own = countBefore[0]!.id;
    expect((await t.call('PUT', `/api/comments/${own}`, { token: fast.token, body: { comment: 'Korrigiert' } })).status).toBe(
      200,
    );
  });
});

describe("the admin's pending comments", () => {
  it('lists unresolved comments that require an answer on live events, counts them as tasks, and drops resolved ones', async () => {
    const event = (await createEventVia(t, admin.token, { title: 'Pending (A)', date: '2030-05-04 18:30' })).id;
    const count = async () => (await t.call('GET', '/api/admin/pending-tasks-count', { token: admin.token })).body;
    const before = await count();
    const asking = await t.call('POST', `/api/comments/event/${event}`, {
      token: author.token,
      body: { comment: 'Gibt es noch Karten?', requires_answer: true },
    });
    await t.call('POST', `/api/comments/event/${event}`, { token: author.token, body: { comment: 'Nur eine Info' } });
    const after = await count();
    expect(after.pendingComments).toBe(before.pendingComments + 1);
    expect(after.totalCount).toBe(before.totalCount + 1);

    const list = await t.call('GET', '/api/comments/pending', { token: admin.token });
    expect(list.status).toBe(200);
    const mine = list.body.comments.filter((c: { event_id: string }) => c.event_id === event);
    expect(mine).toEqual([
      {
        id: asking.body.comment.id,
        username: 'cm-author',
        event_id: event,
        event_title: 'Pending (A)',
        event_date: expect.stringMatching(/^2030-05-04/),
        comment: 'Gibt es noch Karten?',
        created_at: asking.body.comment.created_at,
      },
    ]);

    for (const token of [author.token, other.token]) {
      const refused = await t.call('GET', '/api/comments/pending', { token });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MESSAGES.adminRequired);
    }

    expect((await t.call('PUT', `/api/comments/${asking.body.comment.id}/resolve`, { token: admin.token })).status).toBe(200);
    expect((await count()).pendingComments).toBe(before.pendingComments);
    const again = await t.call('GET', '/api/comments/pending', { token: admin.token });
    expect(again.body.comments.some((c: { id: string }) => c.id === asking.body.comment.id)).toBe(false);

    // Reopened it is pending again; once its event is deleted it is not.
    expect((await t.call('PUT', `/api/comments/${asking.body.comment.id}/unresolve`, { token: author.token })).status).toBe(200);
    expect((await count()).pendingComments).toBe(before.pendingComments + 1);
    expect((await t.call('DELETE', `/api/events/${event}`, { token: admin.token })).status).toBe(200);
    expect((await count()).pendingComments).toBe(before.pendingComments);
  });
});

describe('domain events', () => {
  it('records comment.added, comment.changed (with the fields), mention.created and comment.deleted', async () => {
    const named = await t.member('cm-named');
    const commits: Commit[] = [];
    const stop = t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
    try {
      const created = await t.call('POST', `/api/comments/event/${eventId}`, {
        token: author.token,
        body: { comment: 'Hallo @cm-named', requires_answer: true },
      });
      const id = created.body.comment.id as string;
      await t.call('PUT', `/api/comments/${id}`, { token: author.token, body: { comment: 'Hallo @cm-named, kommst du?' } });
      await t.call('PUT', `/api/comments/${id}/toggle-requires-answer`, { token: admin.token });
      await t.call('PUT', `/api/comments/${id}/resolve`, { token: admin.token });
      await t.call('DELETE', `/api/comments/${id}`, { token: admin.token });
      const events = commits.flatMap((commit) => commit.events);
      expect(events).toEqual([
        { type: 'comment.added', commentId: id, eventId, requiresAnswer: true, actorId: author.id },
        { type: 'mention.created', mentionId: expect.any(String), commentId: id, eventId, userId: named.id, actorId: author.id },
        { type: 'comment.changed', commentId: id, eventId, authorId: author.id, fields: ['comment'], actorId: author.id },
        { type: 'comment.changed', commentId: id, eventId, authorId: author.id, fields: ['requires_answer'], actorId: admin.id },
        { type: 'comment.changed', commentId: id, eventId, authorId: author.id, fields: ['is_resolved'], actorId: admin.id },
        { type: 'comment.deleted', commentId: id, eventId, authorId: author.id, actorId: admin.id },
      ]);
      expect(commits[0]!.collections).toEqual(new Set(['comments', 'mentions']));
    } finally {
      stop();
    }
  });

  it('records nothing for a refused change or one that changes nothing', async () => {
    const id = await authorsComment({ is_resolved: true, requires_answer: true });
    const commits: Commit[] = [];
    const stop = t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
    try {
      await t.call('PUT', `/api/comments/${id}`, { token: author.token, body: { comment: 'Zu spät' } });
      await t.call('PUT', `/api/comments/${id}/resolve`, { token: admin.token });
      await t.call('PUT', `/api/comments/${id}/resolve`, { token: other.token });
      expect(commits.flatMap((commit) => commit.events)).toEqual([]);
    } finally {
      stop();
    }
  });
});

describe('deleting an event', () => {
  async function eventWithComment() {
    const named = await t.member(`cm-del-${newId().slice(-8)}`);
    const username = (await t.call('GET', '/api/auth/profile', { token: named.token })).body.user.username as string;
    const event = (await createEventVia(t, admin.token, { title: 'Gone (A)' })).id;
    const comment = await t.call('POST', `/api/comments/event/${event}`, {
      token: other.token,
      body: { comment: `Bis dann @${username}` },
    });
    expect(comment.status).toBe(201);
    expect((await t.call('GET', '/api/comments/mentions/count', { token: named.token })).body.count).toBe(1);
    return { event, named, commentId: comment.body.comment.id as string };
  }

  const tombstoned = async (event: string) => ({
    comments: (await t.db.selectFrom('comments').select('deleted').where('event_id', '=', event).execute()).map((r) => r.deleted),
    mentions: (await t.db.selectFrom('mentions').select('deleted').where('event_id', '=', event).execute()).map((r) => r.deleted),
  });

  it('tombstones its comments and their mentions', async () => {
    const { event, named, commentId } = await eventWithComment();
    expect((await t.call('DELETE', `/api/events/${event}`, { token: admin.token })).status).toBe(200);
    expect(await tombstoned(event)).toEqual({ comments: [1], mentions: [1] });
    expect((await t.call('GET', '/api/comments/mentions/count', { token: named.token })).body.count).toBe(0);
    expect((await t.call('GET', '/api/comments/mentions', { token: named.token })).body.mentions).toEqual([]);
    expect((await t.call('PUT', `/api/comments/${commentId}/resolve`, { token: admin.token })).status).toBe(404);
  });

  it('tombstones them too when the event is archived for its bought tickets', async () => {
    const { event, named } = await eventWithComment();
    await t.call('POST', `/api/attendance/${event}`, { token: named.token, body: { status: 'going' } });
    await t.call('PUT', `/api/tickets/event/${event}/user/${named.id}/status`, { token: admin.token, body: { bought: true } });
    expect((await t.call('DELETE', `/api/events/${event}`, { token: admin.token })).status).toBe(200);
    expect((await t.db.selectFrom('events').select('archived').where('id', '=', event).executeTakeFirstOrThrow()).archived).toBe(
      1,
    );
    expect(await tombstoned(event)).toEqual({ comments: [1], mentions: [1] });
    expect((await t.call('GET', '/api/comments/mentions/by-event', { token: named.token })).body.counts).toEqual({});
  });
});

describe('created_at of a comment written offline', () => {
  const now = '2026-07-05T12:00:00.000Z';
  it.each([
    ['a time two hours ago', '2026-07-05T10:00:00.000Z', '2026-07-05T10:00:00.000Z'],
    ['a time without milliseconds', '2026-07-05T10:00:00Z', '2026-07-05T10:00:00.000Z'],
    ['a time six days ago, in another zone', '2026-06-29T14:00:00+02:00', '2026-06-29T12:00:00.000Z'],
    ['a time 30 s ahead (clock skew) as now', '2026-07-05T12:00:30.000Z', now],
    ['a time 5 minutes ahead', '2026-07-05T12:05:00.000Z', now],
    ['a time eight days ago', '2026-06-27T11:59:00.000Z', now],
    ['no ISO time', 'July 5, 2026', now],
    ['a date without a time', '2026-07-05', now],
    ['an impossible date (31 June)', '2026-06-31T10:00:00Z', now],
    ['an impossible hour', '2026-07-04T25:00:00Z', now],
    ['not a string', 1_780_000_000_000, now],
  ])('keeps or replaces %s', (_label, claimed, expected) => {
    expect(acceptedCreatedAt(claimed, now)).toBe(expected);
  });
});
