import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { STREAMS_PER_USER } from '@fankurve/shared';
import type { Commit } from '../db/store.js';
import { endsSession } from '../domain/domainEvents.js';
import type { AppDeps, AppEnv } from '../http/context.js';
import type { Actor } from '../domain/actor.js';
import type { ChangeBatcher } from './changeBatch.js';

/** The open streams of each user, oldest first: a user gets at most STREAMS_PER_USER. */
const openStreams = new Map<string, Array<{ supersede: () => void }>>();

/** Where a stream's text goes: the node response itself, or Hono's stream where there is none. */
interface Sink {
  /** Writes text (or its bytes); false once the connection is gone. */
  write(text: string | Uint8Array): boolean;
  onClose(listener: () => void): void;
  end(): void;
}

const sse = (event: string, data: string) => `event: ${event}\ndata: ${data}\n\n`;

/** After a `reconnect` (the instance stops), how soon a client should connect again, to whichever instance answers. */
const RECONNECT_RETRY_MS = 1000;

/**
 * One multiplexed server-sent-events stream per client. The stream is a subscriber of committed
 * writes (docs/architecture.md, domain events): the server's change batches (sync/changeBatch.ts)
 * name the changed collections and carry what is the same for many devices, and a commit that ends its session (sign-out, other devices signed out, password
 * changed, account deleted or declined) ends the stream at once with an `unauthorized` event — no
 * database query per stream per change. A user has at most STREAMS_PER_USER streams: a further one
 * ends the oldest with `superseded` (the client then waits before it connects again). When the
 * instance stops, every stream ends with `reconnect` (and an SSE `retry:`). A comment
 * line every beat keeps proxies open and counts as use of the session.
 *
 * Under the node server the events are written straight to the response (through web streams each
 * write cost ~80 µs), and changes go out in batches (changeBatchMs): with 500 open streams a
 * write took 47 ms instead of 5 before both (`npm run bench`).
 */
export function openChangeStream(c: Context<AppEnv>, deps: AppDeps, batches: ChangeBatcher, actor: Actor, heartbeatMs: number) {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing) {
    outgoing.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    run(c, deps, { batches, actor, heartbeatMs }, nodeSink(outgoing));
    return RESPONSE_ALREADY_SENT;
  }
  return streamSSE(c, async (stream) => {
    let closed = false;
    const listeners: Array<() => void> = [];
    const done = new Promise<void>((resolve) => listeners.push(resolve));
    const sink: Sink = {
      write: (text) => {
        if (closed) return false;
        stream.write(text).catch(() => sink.end());
        return true;
      },
      onClose: (listener) => listeners.push(listener),
      end: () => {
        if (closed) return;
        closed = true;
        for (const listener of listeners) listener();
      },
    };
    stream.onAbort(() => sink.end());
    run(c, deps, { batches, actor, heartbeatMs }, sink);
    await done;
  });
}

function nodeSink(response: ServerResponse): Sink {
  const listeners: Array<() => void> = [];
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    for (const listener of listeners) listener();
  };
  response.on('close', finish);
  response.on('error', finish);
  return {
    write: (text) => {
      if (closed) return false;
      response.write(text);
      return true;
    },
    onClose: (listener) => listeners.push(listener),
    end: () => {
      if (!closed) response.end();
      finish();
    },
  };
}

interface StreamOptions {
  batches: ChangeBatcher;
  actor: Actor;
  heartbeatMs: number;
}

function run(c: Context<AppEnv>, deps: AppDeps, { batches, actor, heartbeatMs }: StreamOptions, sink: Sink): void {
  const user = c.get('user')!;
  const sessionId = c.get('sessionId')!;
  let open = true;
  const endWith = (event: 'unauthorized' | 'superseded' | 'reconnect') => {
    sink.write((event === 'reconnect' ? `retry: ${RECONNECT_RETRY_MS}\n` : '') + sse(event, '{}'));
    sink.end();
  };

  // Changes are told in batches for all streams at once (sync/changeBatch.ts): under a burst of
  // writes each stream is written once per batch, and the writer's answer never waits for the fan-out.
  const unlisten = batches.listen({
    actor,
    tell: (text) => {
      if (open) sink.write(text);
    },
  });
  // Other instances' commits too (docs/architecture.md, "Several instances"); after missed ones the
  // session is checked at once instead of at the next beat.
  const unsubscribe = deps.changeStreams.subscribe(
    (commit: Commit) => {
      if (commit.events.some((event) => endsSession(event, sessionId, user.id))) return endWith('unauthorized');
      if (commit.missed) checkSession();
    },
    { remote: true },
  );
  // The instance stops (docs/architecture.md, "Health and shutdown"): the client reconnects, to another instance if there is one.
  const unClose = deps.store.commits.onClose(() => endWith('reconnect'));
  const unStop = deps.changeStreams.onClose(() => endWith('reconnect'));
  const unregister = register(user.id, () => endWith('superseded'));
  function checkSession(ping = false) {
    void deps.sessions.find(sessionId, user.id).then(
      (session) => {
        if (!open) return;
        if (!session) return endWith('unauthorized');
        if (!ping) return;
        deps.sessions.touch(session);
        sink.write(': ping\n\n');
      },
      () => undefined,
    );
  }
  const beat = setInterval(() => checkSession(true), heartbeatMs);
  sink.onClose(() => {
    open = false;
    clearInterval(beat);
    unlisten();
    unsubscribe();
    unClose();
    unStop();
    unregister();
  });
  sink.write(sse('ready', '{}'));
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
