import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ChangedCollection } from '../db/store.js';
import { findLiveUser } from '../domain/users.js';
import type { AppDeps, AppEnv } from '../http/context.js';

/**
 * One multiplexed server-sent-events stream per client: after every committed change an event
 * names the changed collections; a comment line keeps proxies open; the token is re-checked on
 * every beat and change, and an `unauthorized` event ends the stream once it is no longer valid.
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

    const stillValid = async () => {
      const current = await findLiveUser(deps.store.db, user.id);
      return current !== undefined && current.status === 'active' && current.token_version === user.token_version;
    };
    let queue = Promise.resolve();
    const send = (task: () => Promise<void>) => {
      queue = queue
        .then(async () => {
          if (closed) return;
          if (!(await stillValid())) {
            await stream.writeSSE({ event: 'unauthorized', data: '{}' });
            close();
            return;
          }
          await task();
        })
        .catch(close);
    };

    const unsubscribe = deps.store.changes.subscribe((collections: ReadonlySet<ChangedCollection>) =>
      send(() => stream.writeSSE({ event: 'change', data: JSON.stringify({ collections: [...collections] }) })),
    );
    const unClose = deps.store.changes.onClose(close);
    const beat = setInterval(() => send(() => stream.write(': ping\n\n').then(() => undefined)), heartbeatMs);
    stream.onAbort(close);

    await stream.writeSSE({ event: 'ready', data: '{}' });
    await done;
    clearInterval(beat);
    unsubscribe();
    unClose();
  });
}
