import { ApiError, readToken } from './client.js';

/** A CSV file as the server wrote it: its bytes (BOM included) and the name it suggests. */
export interface CsvDownload {
  blob: Blob;
  filename: string;
}

/** The file name of a Content-Disposition header, else the fallback. */
function fileNameOf(disposition: string | null, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(disposition ?? '');
  return match?.[1] ?? fallback;
}

/**
 * GET /api/events/{id}/export/tickets.csv or transport.csv (admin): the lists for the day as files.
 * Not JSON, so not through `api()`; a refusal still answers the JSON error, read here as an ApiError.
 */
export async function fetchEventCsv(eventId: string, kind: 'tickets' | 'transport'): Promise<CsvDownload> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(`/api/events/${encodeURIComponent(eventId)}/export/${kind}.csv`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      cache: 'no-store',
    });
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
  return { blob: await response.blob(), filename: fileNameOf(response.headers.get('content-disposition'), `${kind}.csv`) };
}
