import { describe, expect, it, vi } from 'vitest';
import { connectChangeStream } from '../src/data/stream.js';

/** A fetch that answers each stream request with the given server-sent-events text, then ends it. */
function scriptedFetch(answers: string[]) {
  const calls: number[] = [];
  const fetch = (async () => {
    calls.push(Date.now());
    const text = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return new Response(new Blob([text]).stream(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

describe('the change stream on the device', () => {
  it('connects again after a dropped stream with a short back-off', async () => {
    const { fetch, calls } = scriptedFetch(['event: ready\ndata: {}\n\n']);
    const stream = connectChangeStream({
      url: '/s',
      token: 't',
      fetch,
      onConnect: () => undefined,
      onChange: () => undefined,
      onUnauthorized: () => undefined,
      minDelayMs: 10,
      maxDelayMs: 20,
    });
    await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(3), { timeout: 1000 });
    stream.stop();
  });

  it('waits long after giving way to a newer stream of the same user (no two devices ending each other)', async () => {
    const { fetch, calls } = scriptedFetch([
      'event: ready\ndata: {}\n\nevent: superseded\ndata: {}\n\n',
      'event: ready\ndata: {}\n\n',
    ]);
    let unauthorized = false;
    // The stream's waits run on fake timers: the test sees when it sleeps, and lets minutes pass at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stream = connectChangeStream({
      url: '/s',
      token: 't',
      fetch,
      onConnect: () => undefined,
      onChange: () => undefined,
      onUnauthorized: () => {
        unauthorized = true;
      },
      minDelayMs: 10,
      maxDelayMs: 20,
    });
    try {
      // It read both events and went to sleep: its one timer is the wait before it connects again.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
      await vi.advanceTimersByTimeAsync(4 * 60_000);
      expect(calls).toHaveLength(1);
      expect(unauthorized).toBe(false);
      // Asked to (the browser came online again), it takes a place at once.
      stream.reconnect();
      await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2));
      stream.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops for good on unauthorized', async () => {
    const { fetch, calls } = scriptedFetch(['event: unauthorized\ndata: {}\n\n']);
    let unauthorized = 0;
    connectChangeStream({
      url: '/s',
      token: 't',
      fetch,
      onConnect: () => undefined,
      onChange: () => undefined,
      onUnauthorized: () => {
        unauthorized += 1;
      },
      minDelayMs: 10,
      maxDelayMs: 20,
    });
    // The stream calls onUnauthorized as it stops for good: no connect can follow.
    await vi.waitFor(() => expect(unauthorized).toBe(1));
    expect(calls).toHaveLength(1);
  });
});
