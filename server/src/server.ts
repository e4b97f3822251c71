import type { Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { MESSAGES } from '@fankurve/shared';
import type { Runtime } from './deps.js';

type Fetch = (request: Request, env: unknown) => Response | Promise<Response>;

export interface RunningServer {
  server: ServerType;
  /** The bound address, once listening. */
  listening: Promise<AddressInfo>;
  /**
   * The graceful stop (docs/architecture.md, "Health and shutdown"): takes no new requests, ends the
   * change streams with a reconnect hint, lets running requests (and so their writes) finish, stops
   * the job runner (releasing its claims), then closes the database. Calling it again answers the same stop.
   */
  stop(): Promise<void>;
}

/** Connections the kernel holds until the server accepts them (Linux caps it at net.core.somaxconn). */
const LISTEN_BACKLOG = 4096;

/**
 * Reads (GET, and the sync pulls) answered at once: beyond it a read gets 503 `serverBusy` with a
 * Retry-After and the device asks again. On PostgreSQL, reads waiting for a pooled connection piled
 * up until the heap ran out (2,000 devices an instance on match day); a write always goes through.
 */
export const READS_IN_FLIGHT_MAX = 256;
/** Seconds a shed read waits before it asks again. */
const SHED_RETRY_AFTER_S = 1;

const SYNC_PULL = /^\/api\/sync\/[^/]+\/[^/]+\/pull$/;

/** A request that reads only and may be asked again: GET and HEAD (but the long-lived change stream), and the sync pulls. */
function isRead(request: Request): boolean {
  const path = new URL(request.url).pathname;
  if (request.method === 'GET' || request.method === 'HEAD') return path !== '/api/sync/stream';
  return request.method === 'POST' && SYNC_PULL.test(path);
}

/**
 * How long an idle kept-alive connection stays open. Node's own default (5 s) equals the idle timeout
 * of Node's default client agent and of many proxies, so both ends closed the same socket at once and
 * a request sent in that instant was reset (ECONNRESET). Longer than the clients' and proxies' (60 s
 * is the common one), the client always closes first.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** How long the stop waits for running requests, the running job and mails under way. */
const DEFAULT_GRACE_MS = 10_000;

/** Serves the app on the node server and keeps what a graceful stop needs: the open requests. */
export function startServer(
  runtime: Runtime,
  fetch: Fetch,
  options: { port: number; hostname: string; graceMs?: number; readsInFlightMax?: number },
): RunningServer {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const readsMax = options.readsInFlightMax ?? READS_IN_FLIGHT_MAX;
  let readsInFlight = 0;
  let draining = false;
  const open = new Set<ServerResponse>();
  let settle: (() => void) | null = null;

  const guarded: Fetch = async (request, env) => {
    // A request on a kept-alive connection after the stop began: try again (elsewhere).
    if (draining) {
      return Response.json(
        { success: false, message: MESSAGES.serverBusy, code: 'serverBusy' },
        { status: 503, headers: { 'retry-after': '1', connection: 'close' } },
      );
    }
    if (!isRead(request)) return fetch(request, env);
    if (readsInFlight >= readsMax) {
      return Response.json(
        { success: false, message: MESSAGES.serverBusy, code: 'serverBusy' },
        { status: 503, headers: { 'retry-after': String(SHED_RETRY_AFTER_S) } },
      );
    }
    readsInFlight += 1;
    try {
      return await fetch(request, env);
    } finally {
      readsInFlight -= 1;
    }
  };

  let resolveListening!: (info: AddressInfo) => void;
  const listening = new Promise<AddressInfo>((resolve) => (resolveListening = resolve));
  const server = createAdaptorServer({ fetch: guarded, hostname: options.hostname });
  // An HTTP/1.1 server: no `createServer` option is given.
  const http1 = server as HttpServer;
  http1.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // A kept-alive connection's next request must get its headers in before the server gives up on it.
  http1.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  // Node's default backlog (511) overflows when a club's phones connect at once on match day: the
  // kernel then resets connections (ECONNRESET) before the server could accept them.
  server.listen({ port: options.port, host: options.hostname, backlog: LISTEN_BACKLOG }, () =>
    resolveListening(server.address() as AddressInfo),
  );
  server.on('request', (_request, response: ServerResponse) => {
    open.add(response);
    response.on('close', () => {
      open.delete(response);
      if (open.size === 0) settle?.();
    });
  });
  const closed = new Promise<void>((resolve) => server.on('close', () => resolve()));

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      draining = true;
      // No new connections; idle kept-alive ones close now.
      server.close();
      runtime.deps.changeStreams.close();
      if (open.size > 0) await within(new Promise<void>((resolve) => (settle = resolve)), graceMs);
      await runtime.jobs.stop();
      await within(runtime.deps.mailer.idle(), graceMs);
      runtime.deps.store.commits.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await within(closed, graceMs);
      await runtime.connection.close();
    })());
  return { server, listening, stop };
}

function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work.then(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(
    () => clearTimeout(timer),
  );
}
