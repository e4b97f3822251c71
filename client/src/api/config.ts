import { api } from './client.js';

/** GET /api/config (public): what the navigation bar shows. */
export interface SiteConfig {
  site_title: string;
  theme_color: string;
  logo_filename: string | null;
  /** The club's time zone: its calendar day decides which events are past. */
  time_zone: string;
}

export const fetchSiteConfig = () => api<{ config: SiteConfig }>('/api/config', { token: null });
