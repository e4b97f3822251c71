import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';

/** A content coding this server sends: brotli, gzip or none. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Bodies below this size go out as they are: the framing would eat most of the gain. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Types worth compressing: text (but never text/event-stream, the live sync stream), JSON,
 * JavaScript, XML and their `+json`/`+xml` relatives (the web manifest, SVG), plain fonts, icons.
 */
const COMPRESSIBLE_TYPE =
  /^(?:text\/(?!event-stream$)[-+.\w]+|application\/(?:json|javascript|x-javascript|ecmascript|xml|wasm|[-.\w]+\+(?:json|xml))|image\/(?:svg\+xml|x-icon|vnd\.microsoft\.icon|bmp)|font\/(?:otf|ttf))$/;

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i;

export function isCompressibleType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  return COMPRESSIBLE_TYPE.test(contentType.split(';', 1)[0]!.trim().toLowerCase());
}

/**
 * Picks the coding from Accept-Encoding: brotli when acceptable and not ranked below gzip, else gzip,
 * else identity. q-values are honoured (q=0 means not acceptable; `*` covers codings not named).
 * No header at all means identity.
 */
export function negotiateEncoding(header: string | null | undefined): ContentCoding {
  if (!header) return 'identity';
  const q: Record<'br' | 'gzip' | '*', number | undefined> = { br: undefined, gzip: undefined, '*': undefined };
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    let coding = name.trim().toLowerCase();
    if (coding === 'x-gzip') coding = 'gzip';
    if (coding !== 'br' && coding !== 'gzip' && coding !== '*') continue;
    let weight = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) weight = Number(match[1]) || 0;
    }
    q[coding] = Math.max(q[coding] ?? 0, weight);
  }
  const br = q.br ?? q['*'] ?? 0;
  const gzip = q.gzip ?? q['*'] ?? 0;
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

const brotliCompress = promisify(zlib.brotliCompress);
const gzipCompress = promisify(zlib.gzip);

/**
 * Compresses on the libuv thread pool (never blocking the event loop). `dynamic` is for answers
 * compressed per response or per data change: cheap settings (brotli 5, gzip 6). `static` is for
 * immutable assets compressed once per process: denser, still well under 100 ms for a 300 KB bundle
 * (brotli 11 would take about half a second each).
 */
export function compressBytes(
  bytes: Uint8Array,
  coding: 'br' | 'gzip',
  effort: 'dynamic' | 'static' = 'dynamic',
): Promise<Buffer> {
  if (coding === 'gzip') return gzipCompress(bytes, { level: effort === 'static' ? 9 : 6 });
  return brotliCompress(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: effort === 'static' ? 9 : 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  });
}

/** Adds Accept-Encoding to a Vary header value (unless it is there already or Vary is `*`). */
export function varyOnAcceptEncoding(current: string | null | undefined): string {
  if (!current) return 'Accept-Encoding';
  return VARY_ACCEPT_ENCODING.test(current) ? current : `${current}, Accept-Encoding`;
}

/**
 * Compressed variants of immutable assets, each made once: keyed by path, coding, size and
 * modification time, least recently used dropped beyond `maxBytes`. `null` remembers that a file
 * does not get smaller. Concurrent misses share one compression.
 */
class AssetVariants {
  private entries = new Map<string, Buffer | null>();
  private pending = new Map<string, Promise<Buffer | null>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  async get(key: string, produce: () => Promise<Buffer | null>): Promise<Buffer | null> {
    if (this.entries.has(key)) {
      const value = this.entries.get(key)!;
      this.entries.delete(key);
      this.entries.set(key, value);
      return value;
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = produce().then(
        (value) => {
          this.pending.delete(key);
          this.store(key, value);
          return value;
        },
        (error: unknown) => {
          this.pending.delete(key);
          throw error;
        },
      );
      this.pending.set(key, pending);
    }
    return pending;
  }

  private store(key: string, value: Buffer | null): void {
    const size = value?.byteLength ?? 0;
    if (size > this.maxBytes) return;
    this.entries.set(key, value);
    this.bytes += size;
    for (const [oldKey, oldValue] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= oldValue?.byteLength ?? 0;
    }
  }
}

/**
 * A JSON answer made whole here, on a hot path (the sync pulls): a small one goes with its
 * Content-Length, which the middleware below leaves alone at a glance, and a large one compressed by
 * the request's Accept-Encoding. Either way the middleware need not turn @hono/node-server's light
 * response into a full one and read its body back as a stream.
 */
export async function jsonAnswer(c: Context, value: unknown): Promise<Response> {
  const bytes = Buffer.from(JSON.stringify(value));
  const coding = bytes.byteLength < COMPRESS_MIN_BYTES ? 'identity' : negotiateEncoding(c.req.header('Accept-Encoding'));
  if (coding !== 'identity') {
    const compressed = await compressBytes(bytes, coding);
    if (compressed.byteLength < bytes.byteLength)
      return c.body(compressed as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/json',
        'Content-Encoding': coding,
        Vary: 'Accept-Encoding',
      });
  }
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'application/json',
    'Content-Length': String(bytes.byteLength),
  });
}

/** Replaces the answer with the given bytes, keeping status and headers (Content-Length fixed). */
function answerWith(c: Context, res: Response, body: Uint8Array, coding: 'br' | 'gzip' | null): void {
  const headers = new Headers(res.headers);
  headers.set('Content-Length', String(body.byteLength));
  if (coding) {
    headers.set('Content-Encoding', coding);
    // Byte ranges would address the compressed bytes; and a strong tag names the uncompressed ones.
    headers.delete('Accept-Ranges');
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
  }
  c.res = undefined; // or the setter would copy the old headers (the old Content-Length) back
  c.res = new Response(body as Uint8Array<ArrayBuffer>, { status: res.status, statusText: res.statusText, headers });
}

const readBody = async (res: Response) => new Uint8Array(await res.arrayBuffer());

/**
 * Compresses answers by Accept-Encoding (brotli preferred, else gzip): JSON, HTML, CSS, JavaScript,
 * SVG, the manifest and other text of 1 KB or more. Left alone: HEAD, 204/206/304, anything that
 * already has a Content-Encoding (precompressed files, the events list that compresses itself),
 * text/event-stream (the sync stream must stay live) and `Cache-Control: no-transform` (the way
 * for any other live stream to opt out, since an answer without Content-Length is read whole).
 * Files under /assets/ have hashed, immutable names: their compressed variants are cached.
 */
export function compression(options: { threshold?: number; assetCacheBytes?: number } = {}): MiddlewareHandler {
  const threshold = options.threshold ?? COMPRESS_MIN_BYTES;
  const assets = new AssetVariants(options.assetCacheBytes ?? 32 * 1024 * 1024);

  return async (c, next) => {
    await next();
    if (c.req.method === 'HEAD') return;
    const first = c.res;
    const { status } = first;
    if (status < 200 || status === 204 || status === 206 || status === 304) return;
    // Status and headers first: reading `body` turns @hono/node-server's light response into a full one.
    const headers = first.headers;
    if (headers.has('Content-Encoding') || headers.has('Content-Range') || headers.has('Transfer-Encoding')) return;
    if (!isCompressibleType(headers.get('Content-Type')) || NO_TRANSFORM.test(headers.get('Cache-Control') ?? '')) return;
    const declared = headers.get('Content-Length');
    const length = declared === null ? null : Number(declared);
    if ((length !== null && length < threshold) || !first.body) return;

    c.header('Vary', varyOnAcceptEncoding(headers.get('Vary')));
    const coding = negotiateEncoding(c.req.header('Accept-Encoding'));
    if (coding === 'identity') return;
    const res = c.res;

    if (c.req.path.startsWith('/assets/') && status === 200 && length !== null) {
      const key = [c.req.path, coding, length, headers.get('Last-Modified') ?? '', headers.get('ETag') ?? ''].join('\n');
      let original: Uint8Array | undefined;
      const variant = await assets.get(key, async () => {
        original = await readBody(res);
        const compressed = await compressBytes(original, coding, 'static');
        return compressed.byteLength < original.byteLength ? compressed : null;
      });
      if (variant) {
        if (original === undefined) await res.body?.cancel(); // a cache hit: the file need not be read
        answerWith(c, res, variant, coding);
      } else if (original !== undefined) {
        answerWith(c, res, original, null);
      }
      return;
    }

    const bytes = await readBody(res);
    if (bytes.byteLength < threshold) return answerWith(c, res, bytes, null);
    const compressed = await compressBytes(bytes, coding, 'dynamic');
    if (compressed.byteLength >= bytes.byteLength) return answerWith(c, res, bytes, null);
    answerWith(c, res, compressed, coding);
  };
}
