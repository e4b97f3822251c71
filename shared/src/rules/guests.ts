import { GUEST_NAME_MAX_LENGTH } from '../constants.js';
import { checkFreeText } from './freeText.js';
import type { RuleResult } from './result.js';

/**
 * A guest's name: trimmed, required ('Guest name is required'), at most GUEST_NAME_MAX_LENGTH
 * characters, one line without control or direction characters (rules/freeText.ts).
 */
export function checkGuestName(name: unknown): RuleResult<string> {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed) return { ok: false, code: 'guestNameRequired' };
  if (trimmed.length > GUEST_NAME_MAX_LENGTH) return { ok: false, code: 'invalidInput' };
  return checkFreeText(trimmed, 'line');
}
