/** node:http requests that keep the bytes as they came over the wire, plus their decompressed form. */
import http from 'node:http';
import zlib from 'node:zlib';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as received (compressed when the server compressed it). */
  wire: Buffer;
  /** The body after undoing Content-Encoding. */
  body: Buffer;
  encoding: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

export function decode(wire: Buffer, encoding: string): Buffer {
  switch (encoding) {
    case 'identity':
      return wire;
    case 'br':
      return zlib.brotliDecompressSync(wire);
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(wire);
    case 'deflate':
      return zlib.inflateSync(wire);
    default:
      throw new Error(`cannot decode Content-Encoding ${encoding}`);
  }
}

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<RawResponse> {
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const headers = {
    ...options.headers,
    ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        try {
          const wire = Buffer.concat(chunks);
          const encoding = String(res.headers['content-encoding'] ?? 'identity').toLowerCase();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, body: decode(wire, encoding), encoding });
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export async function json<T>(url: string, options: Parameters<typeof request>[1] = {}): Promise<T> {
  const response = await request(url, options);
  if (response.status < 200 || response.status >= 300) {
    throw new Error(
      `${options.method ?? 'GET'} ${url} answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`,
    );
  }
  return JSON.parse(response.body.toString('utf8')) as T;
}

export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const body = await json<{ token: string }>(`${baseUrl}/api/auth/login`, { method: 'POST', body: { username, password } });
  return body.token;
}

export function closeAgent(): void {
  agent.destroy();
}
