import type { SyncChangeEvent } from '@fankurve/shared';

/**
 * Reads the server's one multiplexed change stream with fetch (the token goes in the Authorization
 * header, which EventSource cannot send) and reconnects with back-off. Each `change` event names the
 * changed collections and may carry the new documents of shared lists (docs/architecture.md, "The
 * match-day rush on one server"); every (re)connect is reported, so the caller re-syncs what it may
 * have missed.
 */
export interface ChangeStreamOptions {
  url: string;
  token: string;
  fetch: typeof fetch;
  onConnect(): void;
  onChange(change: SyncChangeEvent): void;
  onUnauthorized(): void;
  /** First reconnect delay; doubles up to maxDelayMs. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface ChangeStream {
  stop(): void;
  /** Drops the current connection and reconnects at once (tests use it to simulate a dropped stream). */
  reconnect(): void;
}

type Outcome = 'unauthorized' | 'superseded' | 'ended';

const SUPERSEDED_WAIT_MS = 5 * 60_000;

export function connectChangeStream(options: ChangeStreamOptions): ChangeStream {
  const minDelay = options.minDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  let stopped = false;
  let delay = minDelay;
  let controller: AbortController | null = null;
  let wake: (() => void) | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function readOnce(): Promise<Outcome> {
    controller = new AbortController();
    const response = await options.fetch(options.url, {
      headers: { authorization: `Bearer ${options.token}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (response.status === 401) return 'unauthorized';
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'ended';
      buffer += value;
      let boundary = buffer.indexOf('\n\n');
      while (boundary >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const outcome = handleBlock(block);
        if (outcome) return outcome;
        boundary = buffer.indexOf('\n\n');
      }
    }
  }

  function handleBlock(block: string): Outcome | null {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (event === 'ready') {
      delay = minDelay;
      options.onConnect();
    } else if (event === 'change') {
      const parsed = JSON.parse(data || '{}') as Partial<SyncChangeEvent>;
      options.onChange({ ...parsed, collections: parsed.collections ?? [] });
    } else if (event === 'unauthorized' || event === 'superseded') {
      return event;
    }
    return null;
  }

  void (async () => {
    while (!stopped) {
      try {
        const outcome = await readOnce();
        if (outcome === 'unauthorized') {
          stopped = true;
          options.onUnauthorized();
          return;
        }
        // More devices of this user stream than the server keeps open: this one gave way to a newer
        // one. Wait long before taking a place again (or until asked to reconnect), or two devices
        // would keep ending each other's stream.
        if (outcome === 'superseded') delay = Math.max(delay, SUPERSEDED_WAIT_MS);
      } catch {
        // offline, server restart, aborted: try again after the back-off
      }
      if (stopped) return;
      await sleep(delay);
      // After the long wait of a superseded stream, start the back-off afresh.
      delay = delay > maxDelay ? minDelay : Math.min(delay * 2, maxDelay);
    }
  })();

  return {
    stop() {
      stopped = true;
      controller?.abort();
      wake?.();
    },
    reconnect() {
      delay = minDelay;
      controller?.abort();
      wake?.();
    },
  };
}
