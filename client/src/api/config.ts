import type {
  LogoUploadedAnswer,
  SiteConfigAnswer,
  SiteConfigSavedAnswer,
  SiteConfigView,
  VersionAnswer,
} from '@fankurve/shared';
import type { SiteConfigInput } from '@fankurve/shared/schemas/config';
import { api } from './client.js';

/** GET /api/config (public): what the navigation bar and every device show. */
export type SiteConfig = Omit<
  SiteConfigView,
  'auto_import_matches' | 'reminder_days_before' | 'deadline_reminder_hours' | 'payment_reminder_days' | 'retention_years'
>;
/** GET /api/config as an admin: with the daily import switch, the reminder times and the retention. */
export type AdminSiteConfig = Required<SiteConfigView>;

/** The admin's answers carry `auto_import_matches` (the token says who asks). */
type AdminAnswer<Answer extends { config: SiteConfigView }> = Omit<Answer, 'config'> & { config: AdminSiteConfig };

/**
 * With the token when signed in: a member's answer carries the club's bank account (the GiroCode,
 * drawn offline from the cached copy); anonymous callers get it as null.
 */
export const fetchSiteConfig = () => api<SiteConfigAnswer>('/api/config');

/** The admin's form: the same call with the token, so the answer carries `auto_import_matches`. */
export const fetchAdminSiteConfig = () => api<AdminAnswer<SiteConfigAnswer>>('/api/config');

/**
 * PUT /api/config (admin): team id, team name, site title, theme colour, the daily import switch, the
 * club's account, the loyalty seasons, the reminder times, the retention after an erasure.
 */
export type SiteConfigUpdate = Required<SiteConfigInput>;

export const saveSiteConfig = (body: SiteConfigUpdate) =>
  api<AdminAnswer<SiteConfigSavedAnswer>>('/api/config', { method: 'PUT', body });

export const deleteLogo = () => api<AdminAnswer<SiteConfigSavedAnswer>>('/api/config/logo', { method: 'DELETE' });

/** GET /api/version: the running version string. */
export const fetchVersion = () => api<VersionAnswer>('/api/version', { token: null });

/** POST /api/config/logo as multipart (field `logo`). */
export function uploadLogo(file: File) {
  const form = new FormData();
  form.append('logo', file);
  return api<AdminAnswer<LogoUploadedAnswer>>('/api/config/logo', { method: 'POST', body: form });
}
