import 'fake-indexeddb/auto';
import { SYNC_SCHEMAS, type AttendeeDoc } from '@fankurve/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adoptBackgroundSync } from '../src/data/backgroundSyncRequest.js';
import { setOwnAttendance } from '../src/data/collections/attendees.js';
import {
  BACKGROUND_OUTCOME_KEY,
  BACKGROUND_SYNCED_KEY,
  deleteDeviceValue,
  readDeviceValue,
  WORKER_SESSION_KEY,
  writeDeviceValue,
} from '../src/data/deviceStore.js';
import { Outbox } from '../src/data/outbox.js';
import { mirroredAnswerStore } from '../src/data/rebase.js';
import { BackgroundSyncFailed, runBackgroundSync, type BackgroundSyncOptions } from '../src/pwa/backgroundSync.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, MemoryStorage, TestClient } from './sync-clients.js';

/**
 * The service worker's background sync (docs/architecture.md, Background sync) in Node: a device
 * queues a change offline and the app is closed; the worker's run sends it with the app's own
 * replication on the same database, and the app started again finds nothing left to send.
 */
describe('background sync: the worker sends what the closed app queued', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  const clients: TestClient[] = [];
  let counter = 0;

  const createEvent = async (title: string) => {
    const res = await t.call('POST', '/api/events', {
      token: admin,
      body: { title, date: '2027-04-10 15:30', location: 'Stadion' },
    });
    return res.body.event.id as string;
  };
  const serverRows = async (): Promise<(AttendeeDoc & { _deleted: boolean })[]> =>
    (
      await t.call('POST', `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/pull`, {
        token: admin,
        body: { checkpoint: null, limit: 1000 },
      })
    ).body.documents;
  const serverRow = async (eventId: string) => (await serverRows()).find((row) => row.event_id === eventId && !row._deleted);

  /** Requests the worker made, by path. */
  const counted = () => {
    const requests: string[] = [];
    const fetchImpl: typeof fetch = (input, init) => {
      requests.push(new URL(String(input)).pathname);
      return fetch(input, init);
    };
    return { requests, fetchImpl };
  };
  const worker = (name: string, options: Partial<BackgroundSyncOptions> = {}) =>
    runBackgroundSync({
      origin: server.url,
      databaseName: name,
      multiInstance: false,
      devMode: true,
      windowOpen: async () => false,
      ...options,
    });

  /** A member's device that answered "going" offline and was closed before it could send it. */
  async function closedWithQueuedChange(member: { id: string; token: string }, title: string) {
    const eventId = await createEvent(title);
    const name = `bg-${process.pid}-${counter++}`;
    const storage = new MemoryStorage();
    const device = await TestClient.connect(server.url, member.token, ['attendees', 'notices'], undefined, {
      name,
      answerStore: mirroredAnswerStore(storage)!,
    });
    clients.push(device);
    await device.inSync();
    await device.goOffline();
    const failedPush = device.nextPushFailure('attendees');
    await setOwnAttendance(device, eventId, member.id, 'going');
    await failedPush;
    const [queued] = await device.attendees(eventId);
    await device.quit();
    // The page's outbox, as the closed app left it in localStorage.
    const outbox = new Outbox(null);
    outbox.add(queued!.id);
    return { eventId, name, storage, outbox };
  }

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
  });
  afterEach(async () => {
    await deleteDeviceValue(WORKER_SESSION_KEY);
    await deleteDeviceValue(BACKGROUND_SYNCED_KEY);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await server?.close();
    await t?.close();
  });

  it('sends the queued change, adopts the answer, and the restarted app pushes nothing again', async () => {
    const lena = await t.member('bglena');
    const { eventId, name, outbox } = await closedWithQueuedChange(lena, 'Freiburg (H)');
    expect(await serverRow(eventId)).toBeUndefined();

    await writeDeviceValue(WORKER_SESSION_KEY, { token: lena.token });
    const { requests, fetchImpl } = counted();
    expect(await worker(name, { fetch: fetchImpl })).toBe('synced');
    const row = await serverRow(eventId);
    expect(row).toMatchObject({ status: 'going', user_id: lena.id });
    expect(requests.filter((path) => path.endsWith('/push'))).toEqual([
      `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/push`,
    ]);
    // Then it pulled the pushed collections, and told the app what it did.
    expect(requests.some((path) => path.startsWith('/api/sync/attendees/') && path.endsWith('/pull'))).toBe(true);
    expect(await readDeviceValue(BACKGROUND_OUTCOME_KEY)).toMatchObject({ outcome: 'synced' });

    // The app starts again: the outbox it kept is emptied, and the replication finds nothing to send.
    await adoptBackgroundSync(outbox);
    expect(outbox.size).toBe(0);
    const pushes: string[] = [];
    const again = await TestClient.connect(
      server.url,
      lena.token,
      ['attendees', 'notices'],
      async (url, init, next) => {
        if (url.endsWith('/push')) pushes.push(url);
        return next();
      },
      { name },
    );
    clients.push(again);
    await eventually(async () => expect((await again.attendees(eventId))[0]).toMatchObject({ status: 'going', seq: row!.seq }));
    await again.inSync();
    expect(pushes).toEqual([]);
    expect((await serverRow(eventId))?.seq).toBe(row!.seq);
  });

  it('keeps an outbox that changed after the background sync began', async () => {
    const outbox = new Outbox(null);
    outbox.add('a-row');
    await writeDeviceValue(BACKGROUND_SYNCED_KEY, { startedAt: Date.now() - 60_000 });
    await adoptBackgroundSync(outbox);
    expect(outbox.size).toBe(1);
    // Taken once: the next start finds nothing.
    expect(await readDeviceValue(BACKGROUND_SYNCED_KEY)).toBeUndefined();
  });

  it('compares with the answer the app stored before it was closed (the dropped answers reach the worker)', async () => {
    const nele = await t.member('bgnele');
    const eventId = await createEvent('Kiel (A)');
    const storage = new MemoryStorage();
    const name = `bg-${process.pid}-${counter++}`;
    let held: { release: () => void; answered: Promise<void> } | null = null;
    let holdNextPush = false;
    const intercept = async (url: string, init: RequestInit | undefined, next: () => Promise<Response>) => {
      if (!(holdNextPush && url.includes('/attendees/') && url.endsWith('/push'))) return next();
      holdNextPush = false;
      let release!: () => void;
      let answered!: () => void;
      held = { release: () => release(), answered: new Promise((resolve) => (answered = resolve)) };
      await new Promise<void>((resolve) => (release = resolve));
      const response = await next();
      phone.offline = true; // closed straight after this answer
      answered();
      return response;
    };
    const phone = await TestClient.connect(server.url, nele.token, ['attendees', 'notices'], intercept, {
      name,
      answerStore: mirroredAnswerStore(storage)!,
    });
    clients.push(phone);
    await setOwnAttendance(phone, eventId, nele.id, 'maybe');
    await eventually(async () => expect((await phone.attendees(eventId))[0]?.seq).toBeGreaterThan(0));
    await phone.inSync();
    // "going" travels; meanwhile the member taps back to "maybe": RxDB drops the answer, the rebaser keeps it.
    holdNextPush = true;
    await setOwnAttendance(phone, eventId, nele.id, 'going');
    await vi.waitFor(() => expect(held).not.toBeNull());
    await setOwnAttendance(phone, eventId, nele.id, 'maybe');
    held!.release();
    await held!.answered;
    expect((await serverRow(eventId))?.status).toBe('going');
    await phone.quit();

    // Last received "going", final value "maybe": the worker sends "maybe" and its pull does not undo it.
    await writeDeviceValue(WORKER_SESSION_KEY, { token: nele.token });
    expect(await worker(name)).toBe('synced');
    expect((await serverRow(eventId))?.status).toBe('maybe');
    const again = await TestClient.connect(server.url, nele.token, ['attendees', 'notices'], undefined, { name });
    clients.push(again);
    await again.inSync();
    expect((await again.attendees(eventId))[0]?.status).toBe('maybe');
    expect((await serverRow(eventId))?.status).toBe('maybe');
  });

  it('does nothing while a window of the app is open, or when nobody is signed in', async () => {
    const mia = await t.member('bgmia');
    const { eventId, name } = await closedWithQueuedChange(mia, 'Mainz (A)');
    await writeDeviceValue(WORKER_SESSION_KEY, { token: mia.token });
    const { requests, fetchImpl } = counted();
    expect(await worker(name, { fetch: fetchImpl, windowOpen: async () => true })).toBe('windowOpen');
    expect(await readDeviceValue(BACKGROUND_OUTCOME_KEY)).toMatchObject({ outcome: 'windowOpen' });

    await deleteDeviceValue(WORKER_SESSION_KEY);
    expect(await worker(name, { fetch: fetchImpl })).toBe('noSession');
    expect(requests).toEqual([]);
    expect(await serverRow(eventId)).toBeUndefined();
    expect(await readDeviceValue(BACKGROUND_SYNCED_KEY)).toBeUndefined();
  });

  it('changes nothing when the server refuses the session', async () => {
    const ole = await t.member('bgole');
    const { eventId, name } = await closedWithQueuedChange(ole, 'Bremen (H)');
    expect((await t.call('POST', '/api/auth/logout', { token: ole.token })).status).toBe(200);
    await writeDeviceValue(WORKER_SESSION_KEY, { token: ole.token });
    expect(await worker(name)).toBe('unauthorized');
    expect(await serverRow(eventId)).toBeUndefined();
    expect(await readDeviceValue(BACKGROUND_SYNCED_KEY)).toBeUndefined();
  });

  it('fails without a network (the browser tries again), and the next try sends the change', async () => {
    const kai = await t.member('bgkai');
    const { eventId, name } = await closedWithQueuedChange(kai, 'Augsburg (A)');
    await writeDeviceValue(WORKER_SESSION_KEY, { token: kai.token });
    const offline: typeof fetch = () => Promise.reject(new TypeError('fetch failed (offline)'));
    await expect(worker(name, { fetch: offline })).rejects.toBeInstanceOf(BackgroundSyncFailed);
    expect(await readDeviceValue(BACKGROUND_OUTCOME_KEY)).toMatchObject({ outcome: 'failed' });
    expect(await serverRow(eventId)).toBeUndefined();

    expect(await worker(name)).toBe('synced');
    expect(await serverRow(eventId)).toMatchObject({ status: 'going' });
  });
});
