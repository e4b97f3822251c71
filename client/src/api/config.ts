import type { SiteConfigView } from '@fankurve/shared/schemas/config';
import { api } from './client.js';

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

/** POST /api/config/logo as multipart (field `logo`). */
export function uploadLogo(file: File) {
  const form = new FormData();
  form.append('logo', file);
  return api<{ filename: string; config: AdminSiteConfig }>('/api/config/logo', { method: 'POST', body: form });
}
