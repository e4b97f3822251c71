import { z } from 'zod';
import { LOYALTY_ADJUSTMENT_MAX, LOYALTY_ADJUSTMENT_MIN, LOYALTY_NOTE_MAX_LENGTH } from '../rules/loyalty.js';
import { lineText, msg } from './common.js';

/** The path of PUT /api/loyalty/{userId}/adjustment. */
export const loyaltyUserParams = z.object({ userId: z.string().min(1).max(64) });

/**
 * PUT /api/loyalty/{userId}/adjustment (docs/product.md, Input rules): points a whole number from
 * LOYALTY_ADJUSTMENT_MIN to LOYALTY_ADJUSTMENT_MAX (negative takes points away), the note one line
 * of free text, at most LOYALTY_NOTE_MAX_LENGTH characters, optional (rules/loyalty.ts checks again).
 */
export const loyaltyAdjustmentInput = z.object({
  points: z
    .number(msg('loyaltyPointsInvalid'))
    .int(msg('loyaltyPointsInvalid'))
    .min(LOYALTY_ADJUSTMENT_MIN, msg('loyaltyPointsInvalid'))
    .max(LOYALTY_ADJUSTMENT_MAX, msg('loyaltyPointsInvalid')),
  note: lineText(z.string(msg('invalidInput')).trim().max(LOYALTY_NOTE_MAX_LENGTH, msg('loyaltyNoteTooLong'))).optional(),
});
export type LoyaltyAdjustmentInput = z.input<typeof loyaltyAdjustmentInput>;
