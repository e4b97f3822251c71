import type { NoticeDoc, PollVoteDoc } from '@fankurve/shared';
import { firstValueFrom } from 'rxjs';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { polls$ } from '../src/data/collections/polls.js';
import { castVote } from '../src/data/collections/pollVotes.js';
import { LocalRuleError } from '../src/data/device.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';
import { kindOf } from '../src/data/pushedGroup.js';

/*
 * Polls on members' devices (docs/architecture.md, "Polls"): a vote made offline lands when the
 * device is back online and the poll's counts follow; two devices of one member end with one vote,
 * the change that arrives last winning; a vote that arrives after the close is refused with a
 * notice and undone on the device.
 */
describe('sync: polls', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let members = 0;
  let open: TestClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
  });

  // The open-source RxDB allows 13 collections per process: each test's devices go when it ends.
  afterEach(async () => {
    for (const device of open) await device.close();
    open = [];
  });

  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const device = async (token: string) => {
    const client = await TestClient.connect(server.url, token, ['polls', 'poll_votes', 'notices']);
    open.push(client);
    return client;
  };
  const ask = async (body: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/polls', {
      token: admin,
      body: { question: `Umfrage ${++members}?`, options: ['Hamburg', 'München', 'Köln'], ...body },
    });
    expect(res.status).toBe(201);
    return { id: res.body.poll.id as string, options: (res.body.options as { id: string }[]).map((o) => o.id) };
  };
  const shown = async (client: TestClient, userId: string, pollId: string) =>
    (await firstValueFrom(polls$(client.db, client.docs, userId))).find((poll) => poll.id === pollId);
  const serverVotes = (pollId: string) =>
    t.db.selectFrom('poll_votes').selectAll().where('poll_id', '=', pollId).where('deleted', '=', 0).execute();
  const vote = (client: TestClient, userId: string, pollId: string, optionIds: string[]) =>
    castVote({ db: client.db, docs: client.docs, outbox: client.outbox }, userId, pollId, optionIds);

  it('a vote made offline lands after reconnecting; the counts reach the device', async () => {
    const fan = await t.member(`poll-fan-${members}`);
    const poll = await ask();
    const phone = await device(fan.token);
    await eventually(async () =>
      expect(await shown(phone, fan.id, poll.id)).toMatchObject({ open: true, voters: null, my_votes: [] }),
    );

    await phone.goOffline();
    const failed = phone.nextPushFailure('poll_votes');
    await vote(phone, fan.id, poll.id, [poll.options[1]!]);
    await failed;
    // On the device the vote is made and waits; the counts stay hidden until the server has it.
    expect(await shown(phone, fan.id, poll.id)).toMatchObject({ my_votes: [poll.options[1]], voters: null });
    expect(phone.outbox.size).toBeGreaterThan(0);
    expect(await serverVotes(poll.id)).toEqual([]);

    phone.goOnline();
    await eventually(async () =>
      expect(await shown(phone, fan.id, poll.id)).toMatchObject({
        my_votes: [poll.options[1]],
        voters: 1,
        options: [{ votes: 0 }, { votes: 1 }, { votes: 0 }],
      }),
    );
    expect(await serverVotes(poll.id)).toEqual([
      expect.objectContaining({ user_id: fan.id, option_ids: JSON.stringify([poll.options[1]]) }),
    ]);
    await phone.inSync();
    expect(phone.outbox.size).toBe(0);
  });

  it('two devices of one member: votes made offline on both end as one vote; the change that arrives last wins', async () => {
    const fan = await t.member(`poll-twice-${members}`);
    const poll = await ask({ multiple: true });
    const [a, b, c] = poll.options as [string, string, string];
    const phone = await device(fan.token);
    const laptop = await device(fan.token);
    for (const client of [phone, laptop])
      await eventually(async () => expect(await shown(client, fan.id, poll.id)).toBeDefined());

    // Both vote offline, neither knowing the other's vote.
    await phone.goOffline();
    await laptop.goOffline();
    const phoneFailed = phone.nextPushFailure('poll_votes');
    const laptopFailed = laptop.nextPushFailure('poll_votes');
    await vote(phone, fan.id, poll.id, [a]);
    await vote(laptop, fan.id, poll.id, [b, c]);
    await Promise.all([phoneFailed, laptopFailed]);

    phone.goOnline();
    await eventually(async () => expect((await serverVotes(poll.id)).map((v) => v.option_ids)).toEqual([JSON.stringify([a])]));
    laptop.goOnline();
    // The laptop's vote changes the member's one vote; the laptop drops its own copy and takes the phone's.
    await eventually(async () => expect((await serverVotes(poll.id)).map((v) => v.option_ids)).toEqual([JSON.stringify([b, c])]));
    const [stored] = await serverVotes(poll.id);
    for (const client of [phone, laptop]) {
      await eventually(async () => {
        const docs = (await kindOf(client.db, 'poll_votes').find().exec()).map((doc) => doc.toJSON() as PollVoteDoc);
        expect(docs).toEqual([expect.objectContaining({ id: stored!.id, option_ids: [b, c] })]);
        expect(await shown(client, fan.id, poll.id)).toMatchObject({ my_votes: [b, c], voters: 1 });
      });
    }

    // Both change the same vote: the phone offline, the laptop online; the phone's arrives last and wins.
    await phone.goOffline();
    const failed = phone.nextPushFailure('poll_votes');
    await vote(phone, fan.id, poll.id, [c]);
    await failed;
    await vote(laptop, fan.id, poll.id, [a, b]);
    await eventually(async () => expect((await serverVotes(poll.id)).map((v) => v.option_ids)).toEqual([JSON.stringify([a, b])]));
    phone.goOnline();
    await eventually(async () => expect((await serverVotes(poll.id)).map((v) => v.option_ids)).toEqual([JSON.stringify([c])]));
    for (const client of [phone, laptop]) {
      await eventually(async () => expect(await shown(client, fan.id, poll.id)).toMatchObject({ my_votes: [c], voters: 1 }));
    }
  });

  it('a vote that arrives after the close is refused with a notice and undone on the device', async () => {
    const fan = await t.member(`poll-late-${members}`);
    const poll = await ask();
    const [a, b] = poll.options as [string, string];
    const phone = await device(fan.token);
    await eventually(async () => expect(await shown(phone, fan.id, poll.id)).toBeDefined());
    // One vote lands; a change made offline and a new vote in a second poll wait.
    await vote(phone, fan.id, poll.id, [a]);
    await eventually(async () => expect(await serverVotes(poll.id)).toHaveLength(1));
    await eventually(async () => expect(await shown(phone, fan.id, poll.id)).toMatchObject({ voters: 1 }));
    const second = await ask();
    await eventually(async () => expect(await shown(phone, fan.id, second.id)).toBeDefined());

    await phone.goOffline();
    const failed = phone.nextPushFailure('poll_votes');
    await vote(phone, fan.id, poll.id, [b]);
    await vote(phone, fan.id, second.id, [second.options[2]!]);
    await failed;
    expect(await shown(phone, fan.id, poll.id)).toMatchObject({ my_votes: [b] });
    // While the phone is offline, the admin closes both polls.
    const past = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'short' }).format(
      new Date(Date.now() - 120_000),
    );
    for (const id of [poll.id, second.id]) {
      const closed = await t.call('PUT', `/api/polls/${id}`, { token: admin, body: { closes_at: past } });
      expect(closed.body.poll.closed).toBe(true);
    }

    phone.goOnline();
    await eventually(async () => {
      const notices = (await kindOf(phone.db, 'notices').find().exec()).map((doc) => doc.toJSON() as NoticeDoc);
      // Both refusals say the same (code, action, no event): they fold into one notice
      // (docs/architecture.md, Sync: Refusals).
      expect(notices).toEqual([expect.objectContaining({ code: 'pollClosed', action: 'poll.vote', is_read: false })]);
    });
    // Undone: the changed vote is the server's again, the new one is gone; both polls show closed with their counts.
    await eventually(async () => {
      expect(await shown(phone, fan.id, poll.id)).toMatchObject({ open: false, closed: true, my_votes: [a], voters: 1 });
      expect(await shown(phone, fan.id, second.id)).toMatchObject({ open: false, closed: true, my_votes: [], voters: 0 });
    });
    expect((await serverVotes(poll.id)).map((v) => v.option_ids)).toEqual([JSON.stringify([a])]);
    expect(await serverVotes(second.id)).toEqual([]);

    // Now closed on the device too: a vote is refused there at once.
    await expect(vote(phone, fan.id, poll.id, [b])).rejects.toEqual(new LocalRuleError('pollClosed'));
  });
});
