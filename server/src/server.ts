import type { ServerResponse } from 'node:http';
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

/** How long the stop waits for running requests, the running job and mails under way. */
const DEFAULT_GRACE_MS = 10_000;

/** Serves the app on the node server and keeps what a graceful stop needs: the open requests. */
export function startServer(
  runtime: Runtime,
  fetch: Fetch,
  options: { port: number; hostname: string; graceMs?: number },
): RunningServer {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  let draining = false;
  const open = new Set<ServerResponse>();
  let settle: (() => void) | null = null;

  const guarded: Fetch = (request, env) => {
    // A request on a kept-alive connection after the stop began: try again (elsewhere).
    if (draining) {
      return Response.json(
        { success: false, message: MESSAGES.serverBusy, code: 'serverBusy' },
        { status: 503, headers: { 'retry-after': '1', connection: 'close' } },
      );
    }
    return fetch(request, env);
  };

  let resolveListening!: (info: AddressInfo) => void;
  const listening = new Promise<AddressInfo>((resolve) => (resolveListening = resolve));
  const server = createAdaptorServer({ fetch: guarded, hostname: options.hostname });
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
