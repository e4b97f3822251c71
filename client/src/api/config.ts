import type { SiteConfigView } from '@fankurve/shared/schemas/config';
import { api, ApiError, readToken, type ApiAnswer } from './client.js';

/** GET /api/config (public): what the navigation bar and every device show. */
export type SiteConfig = Omit<SiteConfigView, 'auto_import_matches'>;
/** GET /api/config as an admin: with the daily import switch. */
export type AdminSiteConfig = SiteConfig & { auto_import_matches: boolean };

export const fetchSiteConfig = () => api<{ config: SiteConfig }>('/api/config', { token: null });

/** The admin's form: the same call with the token, so the answer carries `auto_import_matches`. */
export const fetchAdminSiteConfig = () => api<{ config: AdminSiteConfig }>('/api/config');

/** PUT /api/config (admin): team id, team name, site title, theme colour, the daily import switch. */
export interface SiteConfigUpdate {
  team_id: number | string;
  team_name: string;
  site_title: string;
  theme_color: string;
  auto_import_matches: boolean;
}

export const saveSiteConfig = (body: SiteConfigUpdate) =>
  api<{ config: AdminSiteConfig }>('/api/config', { method: 'PUT', body });

export const deleteLogo = () => api<{ config: AdminSiteConfig }>('/api/config/logo', { method: 'DELETE' });

/** GET /api/version: the running version string. */
export const fetchVersion = () => api<{ version: string }>('/api/version', { token: null });

/** POST /api/config/logo as multipart (field `logo`); the JSON client cannot send files. */
export async function uploadLogo(file: File): Promise<ApiAnswer<{ filename: string; config: AdminSiteConfig }>> {
  const form = new FormData();
  form.append('logo', file);
  const token = readToken();
  let response: Response;
  try {
    response = await fetch('/api/config/logo', {
      method: 'POST',
      headers: token ? { Authorization: `Bearer ${token}`, Accept: 'application/json' } : { Accept: 'application/json' },
      body: form,
      cache: 'no-store',
    });
  } catch {
    throw new ApiError({ status: 0, code: null, message: 'Network request failed', offline: true });
  }
  let record: Record<string, unknown> | null = null;
  try {
    const payload: unknown = await response.json();
    record = payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;
  } catch {
    record = null;
  }
  if (response.ok && record && record.success !== false)
    return record as ApiAnswer<{ filename: string; config: AdminSiteConfig }>;
  throw new ApiError({
    status: response.ok ? 500 : response.status,
    code: typeof record?.code === 'string' ? record.code : null,
    message: typeof record?.message === 'string' ? record.message : response.statusText,
  });
}
