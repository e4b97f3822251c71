import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { STREAMS_PER_USER } from '@fankurve/shared';
import type { Commit } from '../db/store.js';
import { endsSession } from '../domain/domainEvents.js';
import type { AppDeps, AppEnv } from '../http/context.js';

/** The open streams of each user, oldest first: a user gets at most STREAMS_PER_USER. */
const openStreams = new Map<string, Array<{ supersede: () => void }>>();

/**
 * One multiplexed server-sent-events stream per client. The stream is a subscriber of committed
 * writes (docs/architecture.md, domain events): after every commit it names the changed
 * collections, and a commit that ends its session (sign-out, other devices signed out, password
 * changed, account deleted or declined) ends the stream at once with an `unauthorized` event — no
 * database query per stream per change. A user has at most STREAMS_PER_USER streams: a further one
 * ends the oldest with `superseded` (the client then waits before it connects again). A comment
 * line every beat keeps proxies open and counts as use of the session.
 */
export function openChangeStream(c: Context<AppEnv>, deps: AppDeps, heartbeatMs: number) {
  const user = c.get('user')!;
  const sessionId = c.get('sessionId')!;
  return streamSSE(c, async (stream) => {
    let closed = false;
    let release: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const close = () => {
      closed = true;
      release();
    };

    let queue = Promise.resolve();
    const send = (task: () => Promise<void>) => {
      queue = queue
        .then(async () => {
          if (!closed) await task();
        })
        .catch(close);
    };
    const endWith = (event: 'unauthorized' | 'superseded') =>
      send(async () => {
        await stream.writeSSE({ event, data: '{}' });
        close();
      });

    const unsubscribe = deps.store.commits.subscribe((commit: Commit) => {
      if (commit.events.some((event) => endsSession(event, sessionId, user.id))) return endWith('unauthorized');
      if (commit.collections.size > 0) {
        send(() => stream.writeSSE({ event: 'change', data: JSON.stringify({ collections: [...commit.collections] }) }));
      }
    });
    const unClose = deps.store.commits.onClose(close);
    const unregister = register(user.id, () => endWith('superseded'));
    const beat = setInterval(
      () =>
        send(async () => {
          const session = await deps.sessions.find(sessionId, user.id);
          if (!session) return endWith('unauthorized');
          deps.sessions.touch(session);
          await stream.write(': ping\n\n');
        }),
      heartbeatMs,
    );
    stream.onAbort(close);

    await stream.writeSSE({ event: 'ready', data: '{}' });
    await done;
    clearInterval(beat);
    unsubscribe();
    unClose();
    unregister();
  });
}

function register(userId: string, supersede: () => void): () => void {
  const entry = { supersede };
  const streams = openStreams.get(userId) ?? [];
  streams.push(entry);
  openStreams.set(userId, streams);
  while (streams.length > STREAMS_PER_USER) streams.shift()!.supersede();
  return () => {
    const index = streams.indexOf(entry);
    if (index >= 0) streams.splice(index, 1);
    if (streams.length === 0 && openStreams.get(userId) === streams) openStreams.delete(userId);
  };
}

/** How many change streams a user has open (tests). */
export function openStreamCount(userId: string): number {
  return openStreams.get(userId)?.length ?? 0;
}
