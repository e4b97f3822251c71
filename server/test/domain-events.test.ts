import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write, type Commit } from '../src/db/store.js';
import { SYSTEM_ACTOR } from '../src/domain/actor.js';
import { createEvent } from '../src/domain/events/events.js';
import { DomainError } from '../src/domain/errors.js';
import { createTestApp, listen, type TestApp } from './helpers.js';

/** Domain events: recorded by domain writers, delivered to subscribers only after the commit. */
describe('domain events after commit', () => {
  let t: TestApp;
  let admin: string;
  let commits: Commit[];
  let unsubscribe: () => void;

  const types = () => commits.flatMap((commit) => commit.events.map((event) => event.type));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    commits = [];
    unsubscribe = t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
  });
  afterAll(async () => {
    unsubscribe();
    await t.close();
  });

  it('delivers what REST writes did, once the row is visible to readers', async () => {
    const mia = await t.member('mia');
    const db = t.runtime.deps.store.db;
    let visibleAtDelivery: boolean | null = null;
    const stop = t.runtime.deps.store.commits.subscribe(async (commit) => {
      const set = commit.events.find((event) => event.type === 'attendance.set');
      if (set && set.type === 'attendance.set') {
        visibleAtDelivery =
          (await db.selectFrom('attendees').select('id').where('id', '=', set.attendeeId).executeTakeFirst()) !== undefined;
      }
    });
    commits = [];
    const event = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Bochum (A)', date: '2027-03-01 15:30', location: 'Bochum' },
    });
    const eventId = event.body.event.id as string;
    await t.call('POST', `/api/attendance/${eventId}`, { token: mia.token, body: { status: 'going' } });
    await t.call('PUT', `/api/tickets/event/${eventId}/user/${mia.id}/status`, {
      token: admin,
      body: { bought: true, price: 25 },
    });
    await t.call('PUT', `/api/attendance/${eventId}/user/${mia.id}/transfer-status`, {
      token: admin,
      body: { transfer_status: 'reserved' },
    });
    stop();
    expect(types()).toEqual(['event.created', 'attendance.set', 'ticket.bought', 'transferStatus.changed']);
    expect(visibleAtDelivery).toBe(true);
    const bought = commits[2]!.events[0]!;
    expect(bought).toMatchObject({ type: 'ticket.bought', eventId, userId: mia.id, debtorId: mia.id });
    // The event document carries its going and maybe counts, so an attendance gives the event a new seq.
    expect(commits[1]!.collections).toEqual(new Set(['attendees', 'events']));
  });

  it('delivers nothing for a write that rolls back, and runs its rollback tasks instead of its commit tasks', async () => {
    commits = [];
    const ran: string[] = [];
    await expect(
      write(t.runtime.deps.store, async (w) => {
        await createEvent(w, SYSTEM_ACTOR, { title: 'Never (H)', date: '2027-01-01 15:00', location: 'Nowhere' });
        w.onCommit(() => void ran.push('commit'));
        w.onRollback(() => void ran.push('rollback'));
        throw new DomainError('forbidden', 403);
      }),
    ).rejects.toThrow(DomainError);
    expect(commits).toEqual([]);
    expect(ran).toEqual(['rollback']);
    const events = await t.call('GET', '/api/events', { token: admin });
    expect(events.body.events.map((e: { title: string }) => e.title)).not.toContain('Never (H)');
  });

  it('undoes a refused part (savepoint) with its events, and commits the rest', async () => {
    commits = [];
    await write(t.runtime.deps.store, async (w) => {
      await createEvent(w, SYSTEM_ACTOR, { title: 'Kept (H)', date: '2027-01-02 15:00', location: 'Here' });
      await expect(
        w.attempt(async () => {
          await createEvent(w, SYSTEM_ACTOR, { title: 'Undone (H)', date: '2027-01-03 15:00', location: 'There' });
          throw new DomainError('forbidden', 403);
        }),
      ).rejects.toThrow(DomainError);
    });
    expect(types()).toEqual(['event.created']);
    const titles = (await t.call('GET', '/api/events', { token: admin })).body.events.map((e: { title: string }) => e.title);
    expect(titles).toContain('Kept (H)');
    expect(titles).not.toContain('Undone (H)');
  });

  it('lets the system actor write: no creator, and events that name it', async () => {
    commits = [];
    const view = await write(t.runtime.deps.store, (w) =>
      createEvent(w, SYSTEM_ACTOR, { title: 'Imported (A)', date: '2027-02-01 18:30', location: 'Köln' }),
    );
    expect(view.created_by).toBeNull();
    expect(commits[0]!.events[0]).toMatchObject({ type: 'event.created', eventId: view.id, actorId: 'system' });
  });

  it('records user and password events', async () => {
    commits = [];
    const ben = await t.member('ben', 'ben-pass');
    await t.call('POST', '/api/auth/change-password', {
      token: ben.token,
      body: { currentPassword: 'ben-pass', newPassword: 'ben-pass-2' },
    });
    const reg = await t.call('POST', '/api/auth/register', {
      body: { username: 'declined', email: 'd@example.org', password: 'secret' },
    });
    await t.call('DELETE', `/api/auth/users/${reg.body.user.id}`, { token: admin });
    expect(types()).toEqual([
      'user.registered',
      'user.approved',
      'session.started',
      'session.ended',
      'password.changed',
      'session.started',
      'user.registered',
      'user.declined',
    ]);
  });

  it("ends a user's open change stream at once when their password changes", async () => {
    t.runtime.deps.syncHeartbeatMs = 60_000;
    const server = await listen(t);
    try {
      const carla = await t.member('carla', 'carla-pass');
      const response = await fetch(`${server.url}/api/sync/stream`, { headers: { authorization: `Bearer ${carla.token}` } });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      const readUntil = async (needle: string) => {
        const deadline = Date.now() + 2000;
        while (!text.includes(needle)) {
          if (Date.now() > deadline) throw new Error(`no ${needle} in ${JSON.stringify(text)}`);
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
      };
      await readUntil('event: ready');
      const started = Date.now();
      await t.call('POST', '/api/auth/change-password', {
        token: carla.token,
        body: { currentPassword: 'carla-pass', newPassword: 'carla-pass-2' },
      });
      await readUntil('event: unauthorized');
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await reader.read()).done).toBe(true);
    } finally {
      await server.close();
    }
  });
});
