/**
 * GET /api/events under load (autocannon): the app side by side with a raw node:http server that
 * answers the very bytes and content headers the app answered, and one pass revalidating with the
 * app's ETag when it sends one.
 */
import autocannon from 'autocannon';
import { request } from './http.js';
import { startRawServer } from './server.js';

export interface LoadFigures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
}

export interface RestFigures {
  path: string;
  requestHeaders: Record<string, string>;
  encoding: string;
  wireBytes: number;
  bodyBytes: number;
  etag: string | null;
  app: LoadFigures;
  raw: LoadFigures;
  /** app requests/s ÷ raw requests/s */
  ratio: number;
  conditional: (LoadFigures & { rate304: number }) | null;
}

export interface RestOptions {
  connections: number;
  durationS: number;
  warmupS: number;
}

async function load(url: string, headers: Record<string, string>, connections: number, durationS: number): Promise<LoadFigures> {
  const result = await autocannon({ url, headers, connections, duration: durationS, pipelining: 1 });
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    statusCounts,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** Headers the raw server repeats: everything but the per-connection and per-response ones. */
function contentHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const skip = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name, value]) => !skip.has(name) && value !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value!]),
  );
}

export async function benchRest(baseUrl: string, token: string, workDir: string, options: RestOptions): Promise<RestFigures> {
  const path = '/api/events';
  const headers = { accept: 'application/json', authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br' };
  const sample = await request(`${baseUrl}${path}`, { headers });
  if (sample.status !== 200) throw new Error(`GET ${path} answered ${sample.status}`);
  const etag = typeof sample.headers.etag === 'string' ? sample.headers.etag : null;

  await load(`${baseUrl}${path}`, headers, options.connections, options.warmupS);
  const app = await load(`${baseUrl}${path}`, headers, options.connections, options.durationS);

  const raw = await startRawServer(sample.wire, contentHeaders(sample.headers), workDir);
  let rawFigures: LoadFigures;
  try {
    await load(`${raw.baseUrl}${path}`, headers, options.connections, Math.min(1, options.warmupS));
    rawFigures = await load(`${raw.baseUrl}${path}`, headers, options.connections, options.durationS);
  } finally {
    await raw.stop();
  }

  let conditional: RestFigures['conditional'] = null;
  if (etag) {
    const figures = await load(
      `${baseUrl}${path}`,
      { ...headers, 'if-none-match': etag },
      options.connections,
      Math.ceil(options.durationS / 2),
    );
    const total = Object.values(figures.statusCounts).reduce((a, b) => a + b, 0);
    conditional = { ...figures, rate304: total ? (figures.statusCounts['304'] ?? 0) / total : 0 };
  }

  return {
    path,
    requestHeaders: { ...headers, authorization: 'Bearer …' },
    encoding: sample.encoding,
    wireBytes: sample.wire.length,
    bodyBytes: sample.body.length,
    etag,
    app,
    raw: rawFigures,
    ratio: app.requestsPerSec / rawFigures.requestsPerSec,
    conditional,
  };
}
