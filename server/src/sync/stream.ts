import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Commit, Store } from '../db/store.js';
import { endsSessionsOf } from '../domain/domainEvents.js';
import { findLiveUser } from '../domain/users.js';
import type { AppDeps, AppEnv } from '../http/context.js';

/**
 * One multiplexed server-sent-events stream per client. The stream is a subscriber of committed
 * writes (docs/architecture.md, domain events): after every commit it names the changed
 * collections, and a commit that ends the user's sessions (password changed, account deleted or
 * declined) ends the stream at once with an `unauthorized` event. A comment line every beat keeps
 * proxies open; the token is checked again on each beat as a safety net.
 */
export function openChangeStream(c: Context<AppEnv>, deps: AppDeps, heartbeatMs: number) {
  const user = c.get('user')!;
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
    const refuse = () =>
      send(async () => {
        await stream.writeSSE({ event: 'unauthorized', data: '{}' });
        close();
      });

    const unsubscribe = deps.store.commits.subscribe((commit: Commit) => {
      if (commit.events.some((event) => endsSessionsOf(event) === user.id)) return refuse();
      if (commit.collections.size > 0) {
        send(() => stream.writeSSE({ event: 'change', data: JSON.stringify({ collections: [...commit.collections] }) }));
      }
    });
    const unClose = deps.store.commits.onClose(close);
    const beat = setInterval(
      () =>
        send(async () => {
          if (await stillValid(deps.store, user.id, user.token_version)) await stream.write(': ping\n\n');
          else refuse();
        }),
      heartbeatMs,
    );
    stream.onAbort(close);

    await stream.writeSSE({ event: 'ready', data: '{}' });
    await done;
    clearInterval(beat);
    unsubscribe();
    unClose();
  });
}

async function stillValid(store: Store, userId: string, tokenVersion: number): Promise<boolean> {
  const current = await findLiveUser(store.db, userId);
  return current !== undefined && current.status === 'active' && current.token_version === tokenVersion;
}
