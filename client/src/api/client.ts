import { TOKEN_STORAGE_KEY } from '@fankurve/shared/constants';

/**
 * A failed API call. `status` 0 with `offline` true means the server was not reached (no network,
 * DNS, connection refused): the caller must not treat that as a refusal. Otherwise the server answered
 * `{ success: false, message, code }` (or something unreadable) with `status`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly offline: boolean;
  /** The refusal's whole answer, for the few that carry more than a message (null without one). */
  readonly answer: Record<string, unknown> | null;

  constructor(options: {
    status: number;
    code: string | null;
    message: string;
    offline?: boolean;
    answer?: Record<string, unknown> | null;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.offline = options.offline ?? false;
    this.answer = options.answer ?? null;
  }

  /** The server refused the token (it is void: deleted user, new password, expired). */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

export function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

type Listener = (error: ApiError, token: string | null) => void;
const unauthorizedListeners = new Set<Listener>();
const mustChangePasswordListeners = new Set<Listener>();

/** Called when a request that carried a token is answered 401. */
export function onApiUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Called when a request is refused because the password must be changed first. */
export function onApiMustChangePassword(listener: Listener): () => void {
  mustChangePasswordListeners.add(listener);
  return () => mustChangePasswordListeners.delete(listener);
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON; a FormData (file uploads) goes as multipart, as it is. */
  body?: unknown;
  /** Overrides the stored token (null: send none). */
  token?: string | null;
  signal?: AbortSignal;
  /** Further request headers (e.g. an `Idempotency-Key`). */
  headers?: Record<string, string>;
}

/** The JSON answer of a successful call (`success: true` plus the route's fields). */
export type ApiAnswer<T> = T & { success: true; message?: string };

/** Calls an API path (`/api/...`) with JSON in and out and the bearer token; throws ApiError on any failure. */
export async function api<T extends object = Record<string, unknown>>(
  path: string,
  options: ApiOptions = {},
): Promise<ApiAnswer<T>> {
  const token = options.token === undefined ? readToken() : options.token;
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  const multipart = options.body instanceof FormData;
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
      signal: options.signal,
      cache: 'no-store',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: null, message: 'Network request failed', offline: true });
  }

  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  const record = payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;

  if (response.ok && record && record.success !== false) return record as ApiAnswer<T>;

  const error = new ApiError({
    status: response.ok ? 500 : response.status,
    code: typeof record?.code === 'string' ? record.code : null,
    message: typeof record?.message === 'string' ? record.message : response.statusText || `HTTP ${response.status}`,
    // A gateway that cannot reach the app server (dev proxy, reverse proxy) is as good as offline.
    offline: record === null && (response.status === 502 || response.status === 503 || response.status === 504),
    answer: record,
  });
  if (error.status === 401 && token) for (const listener of unauthorizedListeners) listener(error, token);
  if (error.status === 403 && error.code === 'mustChangePassword')
    for (const listener of mustChangePasswordListeners) listener(error, token ?? null);
  throw error;
}
