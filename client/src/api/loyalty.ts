import type {
  LoyaltyAdjustmentAnswer,
  LoyaltyAdjustmentInput,
  LoyaltyAdjustmentsAnswer,
  LoyaltyRankingAnswer,
  MyLoyaltyAnswer,
} from '@fankurve/shared';
import { api } from './client.js';

/*
 * Loyalty points (docs/product.md, Loyalty): the ranking and the member's own figures are read over
 * REST (counted by the server from every member's rows, which no device holds); admins adjust.
 */

export type RankingRow = LoyaltyRankingAnswer['ranking'][number];
export type MyLoyalty = Omit<MyLoyaltyAnswer, 'success'>;
export type LoyaltyAdjustment = LoyaltyAdjustmentsAnswer['adjustments'][number];

export const fetchRanking = (signal?: AbortSignal) => api<LoyaltyRankingAnswer>('/api/loyalty', { signal });

export const fetchMyLoyalty = (signal?: AbortSignal) => api<MyLoyaltyAnswer>('/api/loyalty/my', { signal });

/** Admins: every adjustment set, so the adjust dialog starts from the member's current one. */
export const fetchAdjustments = (signal?: AbortSignal) => api<LoyaltyAdjustmentsAnswer>('/api/loyalty/adjustments', { signal });

export const saveAdjustment = (userId: string, body: LoyaltyAdjustmentInput) =>
  api<LoyaltyAdjustmentAnswer>(`/api/loyalty/${encodeURIComponent(userId)}/adjustment`, { method: 'PUT', body });
