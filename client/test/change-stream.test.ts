import { describe, expect, it } from 'vitest';
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

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    await wait(150);
    stream.stop();
    expect(calls.length).toBeGreaterThanOrEqual(3);
  });

  it('waits long after giving way to a newer stream of the same user (no two devices ending each other)', async () => {
    const { fetch, calls } = scriptedFetch([
      'event: ready\ndata: {}\n\nevent: superseded\ndata: {}\n\n',
      'event: ready\ndata: {}\n\n',
    ]);
    let unauthorized = false;
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
    await wait(150);
    expect(calls).toHaveLength(1);
    expect(unauthorized).toBe(false);
    // Asked to (the browser came online again), it takes a place at once.
    stream.reconnect();
    await wait(50);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    stream.stop();
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
    await wait(100);
    expect(calls).toHaveLength(1);
    expect(unauthorized).toBe(1);
  });
});
