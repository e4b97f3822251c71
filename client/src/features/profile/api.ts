import type { Language } from '@fankurve/shared/constants';
import type { Profile } from '../../api/auth.js';
import { api } from '../../api/client.js';

/** One signed-in device of the user (GET /api/auth/sessions). */
export interface DeviceSession {
  id: string;
  device_name: string;
  created_at: string;
  last_seen_at: string;
  /** The session of this device. */
  current: boolean;
}

/** SPEC 7: "updating own language sends {language} to the user update". */
export const updateOwnLanguage = (userId: string, language: Language) =>
  api<{ user: Profile }>(`/api/auth/users/${encodeURIComponent(userId)}`, { method: 'PUT', body: { language } });

export const fetchSessions = async () => (await api<{ sessions: DeviceSession[] }>('/api/auth/sessions')).sessions;

export const endDeviceSession = (id: string) => api(`/api/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const endOtherSessions = () => api<{ ended: number }>('/api/auth/sessions/end-others', { method: 'POST' });
