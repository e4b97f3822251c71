import {
  MESSAGES,
  newId,
  pollAnswer,
  pollDetailAnswer,
  pollsAnswer,
  SYNC_SCHEMAS,
  type PollDoc,
  type PollVoteDoc,
} from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scheduleJobBy } from '../src/db/jobs.js';
import { POLL_JOB } from '../src/domain/news/polls.js';
import type { Commit } from '../src/db/store.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Polls (docs/product.md, Polls; docs/architecture.md, "Polls"): admins ask, change, close and
 * delete them; every member votes (REST and the poll_votes sync collection); counts show as the
 * poll says; the server decides a vote by its arrival.
 */

type Member = { id: string; token: string };
type Wire<Doc> = Doc & { _deleted: boolean };

let t: TestApp;
let admin: string;
let fan: Member;
let otherFan: Member;
let eventId: string;
let commits: Commit[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('poll-fan');
  otherFan = await t.member('poll-reader');
  eventId = (await createEventVia(t, admin, { title: 'Umfrage-Auswärtsfahrt (A)' })).id;
  commits = [];
  t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
});
afterAll(() => t.close());

const basic = { question: 'Wohin geht die Saisonabschlussfahrt?', options: ['Hamburg', 'München', 'Köln'] };
const create = (body: Record<string, unknown>, token: string | null = admin) => t.call('POST', '/api/polls', { token, body });
const created = async (body: Record<string, unknown> = {}) =>
  t.callTyped(pollAnswer, 'POST', '/api/polls', { token: admin, body: { ...basic, ...body }, status: 201 });
const detail = (id: string, token: string) => t.callTyped(pollDetailAnswer, 'GET', `/api/polls/${id}`, { token });
const vote = (id: string, optionIds: unknown, token: string) =>
  t.call('PUT', `/api/polls/${id}/vote`, { token, body: { option_ids: optionIds } });
const pollRow = (id: string) => t.db.selectFrom('polls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const votesOf = (pollId: string) =>
  t.db.selectFrom('poll_votes').selectAll().where('poll_id', '=', pollId).orderBy('id').execute();
/** What a refused call must leave as it was: every poll, option and vote row and the seq counter. */
const state = async () => ({
  polls: await t.db.selectFrom('polls').selectAll().orderBy('id').execute(),
  options: await t.db.selectFrom('poll_options').selectAll().orderBy('id').execute(),
  votes: await t.db.selectFrom('poll_votes').selectAll().orderBy('id').execute(),
  notices: await t.db.selectFrom('notices').selectAll().orderBy('id').execute(),
  counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
});
const eventTypes = () => commits.flatMap((commit) => commit.events.map((event) => event.type));
const pull = async <Doc>(collection: 'polls' | 'poll_votes', token: string, seq = 0) => {
  const res = await t.call('POST', `/api/sync/${collection}/${SYNC_SCHEMAS[collection].version}/pull`, {
    token,
    body: { checkpoint: seq === 0 ? null : { seq }, limit: 1000 },
  });
  expect(res.status).toBe(200);
  return res.body.documents as Wire<Doc>[];
};
const push = async (token: string, rows: { assumedMasterState: unknown; newDocumentState: unknown }[]) => {
  const res = await t.call('POST', `/api/sync/poll_votes/${SYNC_SCHEMAS.poll_votes.version}/push`, { token, body: rows });
  expect(res.status).toBe(200);
  return res.body as Wire<PollVoteDoc>[];
};
/** A vote as a device makes it, offline: a UUIDv7 id, seq 0. */
const newVoteDoc = (pollId: string, userId: string, optionIds: string[], eventOf: string | null = null): PollVoteDoc => ({
  id: newId(),
  poll_id: pollId,
  user_id: userId,
  event_id: eventOf,
  option_ids: optionIds,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  seq: 0,
});
/** The club's wall-clock time (Europe/Berlin, the default CLUB_TIME_ZONE) `minutes` from now, to the minute. */
const clubTimeIn = (minutes: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'short' }).format(
    new Date(Date.now() + minutes * 60_000),
  );

describe('POST /api/polls', () => {
  it('asks a poll: options in order, one choice and results after the vote by default, open until closed', async () => {
    commits = [];
    const answer = await created({ question: '  Wohin geht die Fahrt?  ', options: [' Hamburg ', 'München', 'Köln'] });
    expect(answer).toEqual({
      success: true,
      message: MESSAGES.pollSaved,
      poll: {
        id: expect.any(String),
        question: 'Wohin geht die Fahrt?',
        multiple: false,
        results: 'after_vote',
        closes_at: null,
        closes_at_utc: null,
        closed: false,
        // Admins see the counts always.
        voters: 0,
        event_id: null,
        created_by: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      options: [
        { id: expect.any(String), text: 'Hamburg', votes: 0 },
        { id: expect.any(String), text: 'München', votes: 0 },
        { id: expect.any(String), text: 'Köln', votes: 0 },
      ],
      my_votes: [],
    });
    expect(eventTypes()).toEqual(['poll.created']);
    expect(commits[0]!.collections).toEqual(new Set(['polls']));
  });

  it('takes several choices, results after the close, a closing time in the club’s time and an event', async () => {
    const answer = await created({
      multiple: true,
      results: 'after_close',
      closes_at: '2030-05-01T18:30',
      event_id: eventId,
      options: ['A'.repeat(100), 'B'],
      question: 'Q'.repeat(200),
    });
    expect(answer.poll).toMatchObject({
      multiple: true,
      results: 'after_close',
      // The club's wall-clock time (Europe/Berlin, summer time: UTC+2) and the instant it names.
      closes_at: '2030-05-01 18:30:00',
      closes_at_utc: '2030-05-01T16:30:00.000Z',
      closed: false,
      event_id: eventId,
    });
    expect(answer.options.map((o) => o.text)).toEqual(['A'.repeat(100), 'B']);
  });

  it.each([
    ['no question', { options: basic.options }, 400, MESSAGES.pollQuestionRequired],
    ['a blank question', { ...basic, question: '   ' }, 400, MESSAGES.pollQuestionRequired],
    ['a question of 201 characters', { ...basic, question: 'Q'.repeat(201) }, 400, `${MESSAGES.invalidInput}: question`],
    ['a tab in the question', { ...basic, question: 'Wohin\tgeht es?' }, 400, MESSAGES.textHasControlCharacters],
    ['a direction override in the question', { ...basic, question: 'gpj.\u202Eexe' }, 400, MESSAGES.textHasControlCharacters],
    ['no options', { question: basic.question }, 400, MESSAGES.pollOptionsCount],
    ['one option', { ...basic, options: ['Nur eine'] }, 400, MESSAGES.pollOptionsCount],
    [
      'eleven options',
      { ...basic, options: Array.from({ length: 11 }, (_, i) => `Option ${i}`) },
      400,
      MESSAGES.pollOptionsCount,
    ],
    ['a blank option', { ...basic, options: ['Hamburg', '  '] }, 400, MESSAGES.pollOptionRequired],
    [
      'an option of 101 characters',
      { ...basic, options: ['Hamburg', 'x'.repeat(101)] },
      400,
      `${MESSAGES.invalidInput}: options.1`,
    ],
    ['a line break in an option', { ...basic, options: ['Hamburg', 'Mün\nchen'] }, 400, MESSAGES.textHasControlCharacters],
    ['an option that is no text', { ...basic, options: ['Hamburg', 7] }, 400, MESSAGES.pollOptionRequired],
    ['two options alike', { ...basic, options: ['Hamburg', 'hamburg '] }, 400, MESSAGES.pollOptionsDuplicate],
    ['multiple as text', { ...basic, multiple: 'yes' }, 400, MESSAGES.invalidInput],
    ['an unknown results rule', { ...basic, results: 'never' }, 400, MESSAGES.invalidInput],
    ['a closing time that is no time', { ...basic, closes_at: 'morgen' }, 400, MESSAGES.pollClosesAtInvalid],
    ['a closing time in 1999', { ...basic, closes_at: '1999-05-01 18:00' }, 400, MESSAGES.pollClosesAtInvalid],
    ['a closing time in the past', { ...basic, closes_at: '2020-05-01 18:00' }, 400, MESSAGES.pollClosesAtPast],
    ['an unknown event', { ...basic, event_id: 'UNKNOWN' }, 404, MESSAGES.eventNotFound],
  ] as [string, Record<string, unknown>, number, string][])(
    'refuses %s and changes nothing',
    async (_label, body, status, message) => {
      const payload = body.event_id === 'UNKNOWN' ? { ...body, event_id: newId() } : body;
      const before = await state();
      const res = await create(payload);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, message });
      expect(await state()).toEqual(before);
    },
  );

  it('refuses a deleted event', async () => {
    const gone = await createEventVia(t, admin, { title: 'Abgesagte Umfrage (H)' });
    expect((await t.call('DELETE', `/api/events/${gone.id}`, { token: admin })).status).toBe(200);
    const before = await state();
    expect(await create({ ...basic, event_id: gone.id })).toMatchObject({ status: 404, body: { code: 'eventNotFound' } });
    expect(await state()).toEqual(before);
  });

  it('is for admins only: members 403, anonymous 401, nothing changed', async () => {
    const before = await state();
    expect(await create(basic, fan.token)).toMatchObject({ status: 403, body: { message: MESSAGES.adminRequired } });
    expect((await create(basic, null)).status).toBe(401);
    expect(await state()).toEqual(before);
  });
});

describe('voting and the counts', () => {
  it('after the vote: a member sees the counts once they voted, another not yet, an admin always', async () => {
    const { poll, options } = await created();
    const [hamburg, muenchen, koeln] = options.map((o) => o.id) as [string, string, string];
    // Before any vote nobody but an admin sees counts.
    expect((await detail(poll.id, fan.token)).options.map((o) => o.votes)).toEqual([null, null, null]);
    commits = [];
    const seqBefore = Number((await pollRow(poll.id)).seq);
    const voted = await vote(poll.id, [muenchen], fan.token);
    expect(voted.status).toBe(200);
    expect(voted.body).toMatchObject({
      message: MESSAGES.pollVoteSaved,
      poll: { id: poll.id, voters: 1 },
      options: [
        { id: hamburg, votes: 0 },
        { id: muenchen, votes: 1 },
        { id: koeln, votes: 0 },
      ],
      my_votes: [muenchen],
    });
    expect(eventTypes()).toEqual(['poll.voted']);
    // The vote gives the poll a new seq: devices pull its new counts.
    expect(Number((await pollRow(poll.id)).seq)).toBeGreaterThan(seqBefore);
    expect(commits[0]!.collections).toEqual(new Set(['polls', 'poll_votes']));

    const other = await detail(poll.id, otherFan.token);
    expect(other).toMatchObject({ poll: { voters: null }, my_votes: [] });
    expect(other.options.map((o) => o.votes)).toEqual([null, null, null]);
    const asAdmin = await detail(poll.id, admin);
    expect(asAdmin).toMatchObject({ poll: { voters: 1 }, my_votes: [] });
    expect(asAdmin.options.map((o) => o.votes)).toEqual([0, 1, 0]);
    // The list has the same poll shape, with the counts hidden in the same way.
    const listed = (await t.callTyped(pollsAnswer, 'GET', '/api/polls', { token: otherFan.token })).polls.find(
      (p) => p.id === poll.id,
    );
    expect(listed).toEqual({ ...other.poll });

    // A new choice replaces the vote; [] withdraws it and hides the counts again.
    expect((await vote(poll.id, [koeln], fan.token)).body.options.map((o: { votes: number }) => o.votes)).toEqual([0, 0, 1]);
    const withdrawn = await vote(poll.id, [], fan.token);
    expect(withdrawn.body).toMatchObject({ my_votes: [], poll: { voters: null } });
    expect((await detail(poll.id, admin)).options.map((o) => o.votes)).toEqual([0, 0, 0]);
    expect(await votesOf(poll.id)).toEqual([expect.objectContaining({ user_id: fan.id, option_ids: '[]', deleted: 0 })]);
  });

  it('several choices: each option counts once per member; voters counts the members', async () => {
    const { poll, options } = await created({ multiple: true });
    const [a, , c] = options.map((o) => o.id) as [string, string, string];
    expect((await vote(poll.id, [c, a, a], fan.token)).body.my_votes).toEqual([a, c]);
    const res = await vote(poll.id, [a], otherFan.token);
    expect(res.body).toMatchObject({ poll: { voters: 2 }, my_votes: [a] });
    expect(res.body.options.map((o: { votes: number }) => o.votes)).toEqual([2, 0, 1]);
  });

  it('after the close: members see no counts until it closes, even after voting; closing now shows them to all', async () => {
    const { poll, options } = await created({ results: 'after_close', closes_at: clubTimeIn(24 * 60) });
    const [first] = options.map((o) => o.id) as [string];
    const res = await vote(poll.id, [first], fan.token);
    expect(res.body).toMatchObject({ poll: { voters: null, closed: false }, my_votes: [first] });
    expect(res.body.options.map((o: { votes: number | null }) => o.votes)).toEqual([null, null, null]);
    expect((await detail(poll.id, admin)).options.map((o) => o.votes)).toEqual([1, 0, 0]);

    // An admin closes it now: a closing time already past closes it at once.
    commits = [];
    const closed = await t.callTyped(pollAnswer, 'PUT', `/api/polls/${poll.id}`, {
      token: admin,
      body: { closes_at: clubTimeIn(-1) },
    });
    expect(closed.poll.closed).toBe(true);
    expect(eventTypes()).toEqual(['poll.changed', 'poll.closed']);
    expect((await pollRow(poll.id)).closed_at).not.toBeNull();
    const seen = await detail(poll.id, otherFan.token);
    expect(seen).toMatchObject({ poll: { closed: true, voters: 1 } });
    expect(seen.options.map((o) => o.votes)).toEqual([1, 0, 0]);

    // Closed: no vote, no new closing time (409, nothing changed); the question may still be corrected.
    const before = await state();
    expect(await vote(poll.id, [first], otherFan.token)).toMatchObject({
      status: 409,
      body: { code: 'pollClosed', message: MESSAGES.pollClosed },
    });
    expect(await vote(poll.id, [], fan.token)).toMatchObject({ status: 409, body: { code: 'pollClosed' } });
    expect(await t.call('PUT', `/api/polls/${poll.id}`, { token: admin, body: { closes_at: clubTimeIn(60) } })).toMatchObject({
      status: 409,
      body: { code: 'pollClosed' },
    });
    expect(await t.call('PUT', `/api/polls/${poll.id}`, { token: admin, body: { closes_at: null } })).toMatchObject({
      status: 409,
    });
    expect(await state()).toEqual(before);
    const renamed = await t.call('PUT', `/api/polls/${poll.id}`, { token: admin, body: { question: 'Wohin ging die Fahrt?' } });
    expect(renamed).toMatchObject({ status: 200, body: { poll: { question: 'Wohin ging die Fahrt?', closed: true } } });
  });

  it('decides by arrival: once the closing time has passed a vote is refused before the job has run; the job then publishes the close', async () => {
    const { poll, options } = await created({ results: 'after_close', closes_at: clubTimeIn(24 * 60) });
    const [first] = options.map((o) => o.id) as [string];
    expect((await vote(poll.id, [first], fan.token)).status).toBe(200);
    // The closing time passes (moved into the past, as a clock would): no write has happened yet.
    const past = new Date(Date.now() - 1000).toISOString();
    await t.db.updateTable('polls').set({ closes_at_utc: past }).where('id', '=', poll.id).execute();
    const before = await state();
    expect(await vote(poll.id, [], fan.token)).toMatchObject({ status: 409, body: { code: 'pollClosed' } });
    expect(await state()).toEqual(before);
    expect((await pollRow(poll.id)).closed_at).toBeNull();
    // Already closed to every reader; the counts show.
    expect(await detail(poll.id, otherFan.token)).toMatchObject({ poll: { closed: true, voters: 1 } });

    // The job publishes the close with a new seq, so devices pull the counts.
    const seq = Number((await pollRow(poll.id)).seq);
    await scheduleJobBy(t.db, POLL_JOB, new Date().toISOString());
    t.runtime.jobs.wake(new Date());
    await vi.waitFor(async () => expect((await pollRow(poll.id)).closed_at).toBe(past), { timeout: 5000 });
    expect(Number((await pollRow(poll.id)).seq)).toBeGreaterThan(seq);
    expect(eventTypes()).toContain('poll.closed');
  });

  it.each([
    ['an option of another poll', 'other', 400, 'pollOptionUnknown'],
    ['an unknown option', 'unknown', 400, 'pollOptionUnknown'],
    ['two options of a single-choice poll', 'two', 400, 'pollSingleChoice'],
    ['an option that is no text', 'number', 400, 'pollOptionUnknown'],
    ['no list', 'text', 400, 'invalidInput'],
    ['eleven options', 'eleven', 400, 'pollOptionUnknown'],
    ['an unknown poll', 'unknownPoll', 404, 'pollNotFound'],
  ] as const)('refuses %s and changes nothing', async (_label, kind, status, code) => {
    const { poll, options } = await created();
    const { options: foreign } = await created({ question: 'Andere Umfrage?' });
    expect((await vote(poll.id, [options[0]!.id], fan.token)).status).toBe(200);
    const choice = {
      other: [foreign[0]!.id],
      unknown: [newId()],
      two: [options[0]!.id, options[1]!.id],
      number: [7],
      text: options[1]!.id,
      eleven: Array.from({ length: 11 }, () => options[1]!.id),
      unknownPoll: [options[1]!.id],
    }[kind];
    const before = await state();
    const res = await vote(kind === 'unknownPoll' ? newId() : poll.id, choice, fan.token);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, code });
    expect(await state()).toEqual(before);
  });

  it('answers pollNotFound for an unknown or deleted poll, and 401 without a session', async () => {
    expect(await t.call('GET', `/api/polls/${newId()}`, { token: fan.token })).toMatchObject({
      status: 404,
      body: { code: 'pollNotFound', message: MESSAGES.pollNotFound },
    });
    const { poll } = await created();
    expect((await t.call('GET', `/api/polls/${poll.id}`)).status).toBe(401);
    expect((await t.call('GET', '/api/polls')).status).toBe(401);
    expect((await vote(poll.id, [], '')).status).toBe(401);
  });
});

describe('PUT and DELETE /api/polls/{id}', () => {
  it('changes the question and the closing time; a new seq only when something changed', async () => {
    const { poll } = await created();
    const seq = Number((await pollRow(poll.id)).seq);
    commits = [];
    const changed = await t.callTyped(pollAnswer, 'PUT', `/api/polls/${poll.id}`, {
      token: admin,
      body: { question: 'Neue Frage?', closes_at: '2031-01-10 20:00' },
    });
    expect(changed.poll).toMatchObject({
      question: 'Neue Frage?',
      closes_at: '2031-01-10 20:00:00',
      closes_at_utc: '2031-01-10T19:00:00.000Z',
    });
    expect(commits.flatMap((c) => c.events)).toEqual([
      expect.objectContaining({ type: 'poll.changed', pollId: poll.id, fields: ['question', 'closes_at'] }),
    ]);
    const after = Number((await pollRow(poll.id)).seq);
    expect(after).toBeGreaterThan(seq);
    expect((await t.call('PUT', `/api/polls/${poll.id}`, { token: admin, body: { question: 'Neue Frage?' } })).status).toBe(200);
    expect(Number((await pollRow(poll.id)).seq)).toBe(after);
    const open = await t.callTyped(pollAnswer, 'PUT', `/api/polls/${poll.id}`, { token: admin, body: { closes_at: null } });
    expect(open.poll).toMatchObject({ closes_at: null, closes_at_utc: null, closed: false });
  });

  it.each([
    ['a blank question', { question: ' ' }, 400, 'pollQuestionRequired'],
    ['a question of 201 characters', { question: 'Q'.repeat(201) }, 400, 'invalidInput'],
    ['an escape in the question', { question: 'Frage\u001B[31m' }, 400, 'textHasControlCharacters'],
    ['a closing time that is no time', { closes_at: '31.12.2030' }, 400, 'pollClosesAtInvalid'],
    ['a closing time as a number', { closes_at: 5 }, 400, 'pollClosesAtInvalid'],
  ] as [string, Record<string, unknown>, number, string][])(
    'refuses %s and changes nothing',
    async (_label, body, status, code) => {
      const { poll } = await created();
      const before = await state();
      const res = await t.call('PUT', `/api/polls/${poll.id}`, { token: admin, body });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, code });
      expect(await state()).toEqual(before);
    },
  );

  it('refuses members and anonymous callers, and answers pollNotFound for an unknown id', async () => {
    const { poll } = await created();
    const before = await state();
    expect((await t.call('PUT', `/api/polls/${poll.id}`, { token: fan.token, body: { question: 'Meine?' } })).status).toBe(403);
    expect((await t.call('DELETE', `/api/polls/${poll.id}`, { token: fan.token })).status).toBe(403);
    expect((await t.call('PUT', `/api/polls/${poll.id}`, { body: { question: 'Meine?' } })).status).toBe(401);
    expect((await t.call('DELETE', `/api/polls/${poll.id}`)).status).toBe(401);
    const unknown = newId();
    expect(await t.call('PUT', `/api/polls/${unknown}`, { token: admin, body: { question: 'X?' } })).toMatchObject({
      status: 404,
      body: { code: 'pollNotFound' },
    });
    expect(await t.call('DELETE', `/api/polls/${unknown}`, { token: admin })).toMatchObject({
      status: 404,
      body: { code: 'pollNotFound' },
    });
    expect(await state()).toEqual(before);
  });

  it('deletes the poll and its votes as tombstones; then it is gone from the list and 404', async () => {
    const { poll, options } = await created();
    expect((await vote(poll.id, [options[0]!.id], fan.token)).status).toBe(200);
    const [voteBefore] = await votesOf(poll.id);
    commits = [];
    expect((await t.call('DELETE', `/api/polls/${poll.id}`, { token: admin })).body).toEqual({
      success: true,
      message: MESSAGES.pollDeleted,
    });
    expect(await pollRow(poll.id)).toMatchObject({ deleted: 1 });
    const [voteAfter] = await votesOf(poll.id);
    expect(voteAfter).toMatchObject({ deleted: 1 });
    expect(Number(voteAfter!.seq)).toBeGreaterThan(Number(voteBefore!.seq));
    expect(eventTypes()).toEqual(['poll.deleted']);
    const { polls } = await t.callTyped(pollsAnswer, 'GET', '/api/polls', { token: fan.token });
    expect(polls.some((p) => p.id === poll.id)).toBe(false);
    expect((await vote(poll.id, [], fan.token)).body.code).toBe('pollNotFound');
    expect((await t.call('DELETE', `/api/polls/${poll.id}`, { token: admin })).status).toBe(404);
  });

  it('deleting the poll’s event tombstones the poll and its votes; other polls stay', async () => {
    const event = await createEventVia(t, admin, { title: 'Pokal-Umfrage (H)' });
    const { poll, options } = await created({ event_id: event.id });
    const { poll: free } = await created();
    expect((await vote(poll.id, [options[1]!.id], fan.token)).status).toBe(200);
    expect((await votesOf(poll.id))[0]).toMatchObject({ event_id: event.id });
    expect((await t.call('DELETE', `/api/events/${event.id}`, { token: admin })).status).toBe(200);
    expect(await pollRow(poll.id)).toMatchObject({ deleted: 1 });
    expect((await votesOf(poll.id))[0]).toMatchObject({ deleted: 1 });
    expect(await pollRow(free.id)).toMatchObject({ deleted: 0 });
  });
});

describe('the polls and poll_votes sync collections', () => {
  it('maps each poll for the member who pulls: counts only where visible; a tombstone of nothing but id and seq after the delete', async () => {
    const { poll, options } = await created({ event_id: eventId });
    expect((await vote(poll.id, [options[2]!.id], fan.token)).status).toBe(200);
    const mine = (await pull<PollDoc>('polls', fan.token)).find((doc) => doc.id === poll.id);
    expect(mine).toEqual({
      id: poll.id,
      question: basic.question,
      options: options.map((o, index) => ({ id: o.id, text: o.text, votes: index === 2 ? 1 : 0 })),
      multiple: false,
      results: 'after_vote',
      closes_at: null,
      closes_at_utc: null,
      closed: false,
      voters: 1,
      event_id: eventId,
      created_by: poll.created_by,
      created_at: poll.created_at,
      updated_at: poll.updated_at,
      seq: expect.any(Number),
      _deleted: false,
    });
    const theirs = (await pull<PollDoc>('polls', otherFan.token)).find((doc) => doc.id === poll.id);
    expect(theirs).toMatchObject({ voters: null, options: options.map((o) => ({ id: o.id, text: o.text, votes: null })) });

    // Another member's vote gives the poll a new seq: the first member's device pulls it again with the new counts.
    const checkpoint = mine!.seq;
    expect((await vote(poll.id, [options[0]!.id], otherFan.token)).status).toBe(200);
    const again = (await pull<PollDoc>('polls', fan.token, checkpoint)).find((doc) => doc.id === poll.id);
    expect(again).toMatchObject({ voters: 2, options: [{ votes: 1 }, { votes: 0 }, { votes: 1 }] });

    expect((await t.call('DELETE', `/api/polls/${poll.id}`, { token: admin })).status).toBe(200);
    expect((await pull<PollDoc>('polls', fan.token)).find((doc) => doc.id === poll.id)).toEqual({
      id: poll.id,
      seq: expect.any(Number),
      _deleted: true,
    });
    expect((await pull<PollVoteDoc>('poll_votes', fan.token)).find((doc) => doc.poll_id === poll.id)).toBeUndefined();
  });

  it('gives each member only their own votes', async () => {
    const { poll, options } = await created();
    expect((await vote(poll.id, [options[0]!.id], fan.token)).status).toBe(200);
    expect((await vote(poll.id, [options[1]!.id], otherFan.token)).status).toBe(200);
    // Tombstones carry nothing but id and seq; every live document is the member's own.
    const fans = (await pull<PollVoteDoc>('poll_votes', fan.token)).filter((doc) => !doc._deleted);
    expect(fans.every((doc) => doc.user_id === fan.id)).toBe(true);
    expect(fans.find((doc) => doc.poll_id === poll.id)).toMatchObject({ option_ids: [options[0]!.id], event_id: null });
    const others = (await pull<PollVoteDoc>('poll_votes', otherFan.token)).filter((doc) => !doc._deleted);
    expect(others.every((doc) => doc.user_id === otherFan.id)).toBe(true);
    expect((await pull<PollVoteDoc>('poll_votes', admin)).some((doc) => doc.poll_id === poll.id)).toBe(false);
  });

  it('takes a vote made offline, a change of it, and a second device’s vote as a change of the one vote', async () => {
    const { poll, options } = await created({ multiple: true });
    const [a, b, c] = options.map((o) => o.id) as [string, string, string];
    const phone = newVoteDoc(poll.id, fan.id, [b]);
    const [answer] = await push(fan.token, [{ assumedMasterState: null, newDocumentState: phone }]);
    // The answer tells the device its seq.
    expect(answer).toMatchObject({ id: phone.id, option_ids: [b], seq: expect.any(Number), _deleted: false });
    expect(await votesOf(poll.id)).toEqual([expect.objectContaining({ id: phone.id, option_ids: JSON.stringify([b]) })]);

    const changed = await push(fan.token, [{ assumedMasterState: answer, newDocumentState: { ...answer, option_ids: [c, a] } }]);
    // Stored in the poll's order of options: answered, so the device takes it.
    expect(changed).toEqual([expect.objectContaining({ id: phone.id, option_ids: [a, c] })]);

    // The laptop voted offline too, before it had the phone's vote: that changes the member's one vote,
    // and the laptop drops its own copy.
    const laptop = newVoteDoc(poll.id, fan.id, [b]);
    const [dropped] = await push(fan.token, [{ assumedMasterState: null, newDocumentState: laptop }]);
    expect(dropped).toMatchObject({ id: laptop.id, _deleted: true });
    expect(await votesOf(poll.id)).toEqual([expect.objectContaining({ id: phone.id, option_ids: JSON.stringify([b]) })]);
    expect((await detail(poll.id, fan.token)).my_votes).toEqual([b]);
  });

  it('refuses a vote that arrives after the close with a notice; the device gets the vote back as the server has it', async () => {
    const { poll, options } = await created({ event_id: eventId });
    const [a, b] = options.map((o) => o.id) as [string, string];
    const [doc] = await push(fan.token, [
      { assumedMasterState: null, newDocumentState: newVoteDoc(poll.id, fan.id, [a], eventId) },
    ]);
    expect(
      (await t.call('PUT', `/api/polls/${poll.id}`, { token: admin, body: { closes_at: clubTimeIn(-1) } })).body.poll.closed,
    ).toBe(true);

    // A change made offline before the close, arriving after it.
    const noticesBefore = (await t.db.selectFrom('notices').selectAll().where('user_id', '=', fan.id).execute()).length;
    const votesBefore = await votesOf(poll.id);
    const [changed] = await push(fan.token, [{ assumedMasterState: doc, newDocumentState: { ...doc, option_ids: [b] } }]);
    expect(changed).toMatchObject({ id: doc!.id, option_ids: [a], _deleted: false });
    expect(await votesOf(poll.id)).toEqual(votesBefore);
    // A vote another member made offline and that arrives after the close: dropped from their device.
    const late = newVoteDoc(poll.id, otherFan.id, [b], eventId);
    const [gone] = await push(otherFan.token, [{ assumedMasterState: null, newDocumentState: late }]);
    expect(gone).toMatchObject({ id: late.id, _deleted: true });
    expect(await votesOf(poll.id)).toEqual(votesBefore);

    const notices = await t.db
      .selectFrom('notices')
      .selectAll()
      .where('user_id', 'in', [fan.id, otherFan.id])
      .orderBy('seq')
      .execute();
    expect(notices.filter((n) => n.user_id === fan.id)).toHaveLength(noticesBefore + 1);
    expect(notices.slice(-2)).toEqual([
      expect.objectContaining({ user_id: fan.id, code: 'pollClosed', action: 'poll.vote', event_id: eventId }),
      expect.objectContaining({ user_id: otherFan.id, code: 'pollClosed', action: 'poll.vote', event_id: eventId }),
    ]);
  });

  it('refuses an option of another poll, two in a single-choice poll and someone else’s vote, each with a notice and nothing changed', async () => {
    const { poll, options } = await created();
    const { options: foreign } = await created({ question: 'Fremde Umfrage?' });
    const [doc] = await push(fan.token, [
      { assumedMasterState: null, newDocumentState: newVoteDoc(poll.id, fan.id, [options[0]!.id]) },
    ]);
    const before = await votesOf(poll.id);
    const answers = await push(fan.token, [
      { assumedMasterState: doc, newDocumentState: { ...doc, option_ids: [foreign[0]!.id] } },
      { assumedMasterState: doc, newDocumentState: { ...doc, option_ids: [options[0]!.id, options[1]!.id] } },
    ]);
    expect(answers).toEqual([
      expect.objectContaining({ id: doc!.id, option_ids: [options[0]!.id] }),
      expect.objectContaining({ id: doc!.id, option_ids: [options[0]!.id] }),
    ]);
    // Pushing a vote in the other member's name creates nothing.
    const [refused] = await push(otherFan.token, [
      { assumedMasterState: null, newDocumentState: newVoteDoc(poll.id, fan.id, [options[1]!.id]) },
    ]);
    expect(refused).toMatchObject({ _deleted: true });
    expect(await votesOf(poll.id)).toEqual(before);
    const codes = (
      await t.db.selectFrom('notices').select(['user_id', 'code', 'action']).orderBy('seq', 'desc').limit(3).execute()
    ).reverse();
    expect(codes).toEqual([
      { user_id: fan.id, code: 'pollOptionUnknown', action: 'poll.vote' },
      { user_id: fan.id, code: 'pollSingleChoice', action: 'poll.vote' },
      { user_id: otherFan.id, code: 'forbidden', action: 'poll.vote' },
    ]);
  });
});
