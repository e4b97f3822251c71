import type { Context } from 'hono';
import type { AppEnv } from './context.js';

/**
 * The bytes of one file field of a multipart body, or null when the request carries none (not
 * multipart, unreadable, the field missing, not a file, or empty). The body limit of app.ts has
 * already refused bodies far above 5 MB; the domain checks size and type.
 */
export async function readUploadedFile(c: Context<AppEnv>, field: string): Promise<Uint8Array | null> {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) return null;
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    return null;
  }
  const value = form.get(field);
  if (typeof value === 'string' || value === null || value.size === 0) return null;
  return new Uint8Array(await value.arrayBuffer());
}

/** The text of one plain field of a multipart body, or null when there is none (read from the same parsed form). */
export async function readFormText(c: Context<AppEnv>, field: string): Promise<string | null> {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) return null;
  try {
    const value = (await c.req.formData()).get(field);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
