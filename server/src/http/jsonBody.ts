import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';

/*
 * The size limit of a JSON body, and its reading straight from Node's request (docs/architecture.md,
 * "The match-day rush on one server"). @hono/node-server builds a full web Request, with a
 * ReadableStream over the socket, as soon as anything looks at the body: on match day that is
 * thousands of sync pulls a second, each a few hundred bytes of JSON. Here the bytes are read from
 * Node's IncomingMessage and handed to Hono's body cache, so `c.req.json()` and the validators read
 * them without a web stream. Elsewhere (tests through `app.request`, other bodies) the Request's own
 * body is read under the same limit.
 */

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

type Fallback = (c: Context, next: () => Promise<void>) => Promise<Response | void>;

export function jsonBody(options: { maxSize: number; tooLarge(c: Context): Response; fallback: Fallback }): MiddlewareHandler {
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming || !JSON_TYPE.test(c.req.header('Content-Type') ?? '') || incoming.readableEnded) {
      return options.fallback(c, next);
    }
    const declared = c.req.header('Content-Length');
    if (declared !== undefined && Number(declared) > options.maxSize) return options.tooLarge(c);
    const text = await readAtMost(incoming, options.maxSize);
    if (text === null) return options.tooLarge(c);
    // Hono keeps the promise of each body reading there (its type says the value); json() parses this text.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    await next();
  };
}

/** The request's body as text, or null once it grows past `maxSize` (the rest is left unread). */
function readAtMost(incoming: IncomingMessage, maxSize: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxSize) {
        done();
        incoming.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
