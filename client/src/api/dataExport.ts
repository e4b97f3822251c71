import { ApiError, readToken } from './client.js';

/** A member's data as the server packed it: the ZIP's bytes and the name it suggests. */
export interface DataDownload {
  blob: Blob;
  filename: string;
}

/**
 * GET /api/me/export (the member's own) or /api/users/{id}/export (admin): everything the app keeps
 * about a member, as a ZIP (docs/architecture.md, Data export). Not JSON, so not through `api()`;
 * a refusal still answers the JSON error, read here as an ApiError.
 */
export async function fetchMemberData(userId?: string): Promise<DataDownload> {
  const token = readToken();
  const path = userId === undefined ? '/api/me/export' : `/api/users/${encodeURIComponent(userId)}/export`;
  let response: Response;
  try {
    response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {}, cache: 'no-store' });
  } catch {
    throw new ApiError({ status: 0, code: null, message: 'Network request failed', offline: true });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
    throw new ApiError({
      status: response.status,
      code: typeof body?.code === 'string' ? body.code : null,
      message: typeof body?.message === 'string' ? body.message : `HTTP ${response.status}`,
    });
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'fankurve-data.zip';
  return { blob: await response.blob(), filename };
}
