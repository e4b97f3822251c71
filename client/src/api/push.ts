import type {
  PushStatusAnswer,
  PushStatusChangedAnswer,
  PushTopicsAnswer,
  PushTopicsSavedAnswer,
  PushTopicSetting,
} from '@fankurve/shared';
import type { PushTopic } from '@fankurve/shared/push';
import { api } from './client.js';

/* This device's push subscription and the member's topics (docs/architecture.md, "Web Push"). */

export type { PushTopicSetting };

/** What the server knows of this device's subscription. */
export const fetchPushStatus = async () => (await api<PushStatusAnswer>('/api/fcm/token/status')).data;

/** Registers (or renews) this device's subscription under a name for the device. */
export const sendPushSubscription = (token: PushSubscriptionJSON, deviceName: string) =>
  api<PushStatusChangedAnswer>('/api/fcm/token', { method: 'POST', body: { token, deviceName } });

export const removePushSubscription = () => api<PushStatusChangedAnswer>('/api/fcm/token', { method: 'DELETE' });

export const fetchPushTopics = async () => (await api<PushTopicsAnswer>('/api/fcm/topics')).data.topics;

export const savePushTopics = async (topics: Partial<Record<PushTopic, boolean>>) =>
  (await api<PushTopicsSavedAnswer>('/api/fcm/topics', { method: 'PUT', body: { topics } })).data.topics;
