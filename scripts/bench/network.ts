/** What a browser context moved over the wire: encoded response sizes, and when the pulls were in flight. */
import type { BrowserContext } from '@playwright/test';

export interface WireBytes {
  total: number;
  /** POST /api/sync/{collection}/{version}/pull */
  sync: number;
  /** Other /api requests (sign-in, version, config). */
  api: number;
  /** The app: HTML, scripts, styles, icons, manifest, fetched by the page. */
  appPage: number;
  /** What the service worker fetched itself (precache). */
  serviceWorker: number;
  requests: number;
  pullRequests: number;
}

export interface PullActivity {
  /** Epoch ms of the first pull's request and the last pull's response end. */
  first: number | null;
  last: number | null;
  /** Time with at least one pull in flight (the union of their request → response-end spans). */
  busyMs: number;
}

interface NetworkEntry {
  url: string;
  finishedAt: number;
  fromServiceWorker: boolean;
  byServiceWorker: boolean;
  size: Promise<number>;
  /** Epoch ms request sent → response end. */
  span: [number, number];
}

const PULL_PATH = /^\/api\/sync\/[^/]+\/\d+\/pull$/;

/** Every finished response of a context with its encoded size (body as transferred + headers). */
export function recordNetwork(context: BrowserContext): NetworkEntry[] {
  const entries: NetworkEntry[] = [];
  context.on('requestfinished', (request) => {
    const timing = request.timing();
    const entry: NetworkEntry = {
      url: request.url(),
      finishedAt: Date.now(),
      fromServiceWorker: false,
      byServiceWorker: request.serviceWorker() !== null,
      size: request.sizes().then(
        (sizes) => Math.max(0, sizes.responseBodySize) + Math.max(0, sizes.responseHeadersSize),
        () => 0,
      ),
      span: [timing.startTime + Math.max(0, timing.requestStart), timing.startTime + Math.max(0, timing.responseEnd)],
    };
    void request.response().then((response) => {
      entry.fromServiceWorker = response?.fromServiceWorker() ?? false;
    });
    entries.push(entry);
  });
  return entries;
}

const inWindow = (entry: NetworkEntry, from: number, to: number) =>
  entry.finishedAt >= from && entry.finishedAt <= to && !entry.fromServiceWorker;

export async function sumBytes(entries: NetworkEntry[], from: number, to: number): Promise<WireBytes> {
  const bytes: WireBytes = { total: 0, sync: 0, api: 0, appPage: 0, serviceWorker: 0, requests: 0, pullRequests: 0 };
  // Answers the service worker gave the page from its cache did not cross the wire.
  for (const entry of entries.filter((e) => inWindow(e, from, to))) {
    const size = await entry.size;
    const path = new URL(entry.url).pathname;
    bytes.total += size;
    bytes.requests++;
    if (PULL_PATH.test(path)) {
      bytes.sync += size;
      bytes.pullRequests++;
    } else if (path.startsWith('/api/')) bytes.api += size;
    else if (entry.byServiceWorker) bytes.serviceWorker += size;
    else bytes.appPage += size;
  }
  return bytes;
}

export function pullActivity(entries: NetworkEntry[], from: number, to: number): PullActivity {
  const spans = entries
    .filter((e) => inWindow(e, from, to) && PULL_PATH.test(new URL(e.url).pathname))
    .map((e) => e.span)
    .sort((a, b) => a[0] - b[0]);
  let busyMs = 0;
  let end = -Infinity;
  for (const [start, stop] of spans) {
    busyMs += Math.max(0, stop - Math.max(start, end));
    end = Math.max(end, stop);
  }
  return { first: spans[0]?.[0] ?? null, last: spans.length ? end : null, busyMs };
}
