import type { RuleResult } from './result.js';

/*
 * Invites (docs/architecture.md, Invites; docs/product.md, Input rules): an admin's link for a number
 * of registrations until a time, optionally approving them at once. The server's domain and the
 * admin's form check with these rules, so both refuse the same input with the same message code.
 */

/** The most registrations one invite allows (and the fewest: 1). */
export const INVITE_MAX_USES = 1000;
/** An invite runs at most this many days from its creation (a year, a leap year's too). */
export const INVITE_VALID_MAX_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An ISO 8601 date and time with its zone (`2026-03-14T18:00:00Z`, `2026-03-14T18:00+01:00`): the
 * end of an invite is one instant for everybody, wherever the admin's device stands.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Whether the text is an ISO date and time with a zone that names a real day and time (no 30 February, no 25:00). */
export function isIsoDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const parts = ISO_DATE_TIME.exec(value);
  if (!parts) return false;
  const [year, month, day, hour, minute, second = '0', zoneHours = '0', zoneMinutes = '0'] = parts
    .slice(1)
    .map((part) => part ?? '0');
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const realDay =
    date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  const realTime = Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59;
  const realZone = Number(zoneHours) <= 14 && Number(zoneMinutes) <= 59;
  return realDay && realTime && realZone && Number.isFinite(Date.parse(value));
}

export type InviteExpiryCode = 'inviteExpiryInvalid' | 'inviteExpiryPast' | 'inviteExpiryTooFar';

/** The end of an invite: an ISO date and time after `nowMs`, at most INVITE_VALID_MAX_DAYS ahead; kept as UTC ISO text. */
export function checkInviteExpiry(value: unknown, nowMs: number): RuleResult<string, InviteExpiryCode> {
  if (!isIsoDateTime(value)) return { ok: false, code: 'inviteExpiryInvalid' };
  const at = Date.parse(value);
  if (at <= nowMs) return { ok: false, code: 'inviteExpiryPast' };
  if (at - nowMs > INVITE_VALID_MAX_DAYS * DAY_MS) return { ok: false, code: 'inviteExpiryTooFar' };
  return { ok: true, value: new Date(at).toISOString() };
}

/** How many registrations: a whole number from 1 to INVITE_MAX_USES, also as typed text ('25'). */
export function checkInviteMaxUses(value: unknown): RuleResult<number, 'inviteMaxUsesInvalid'> {
  const number = typeof value === 'string' && /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > INVITE_MAX_USES) {
    return { ok: false, code: 'inviteMaxUsesInvalid' };
  }
  return { ok: true, value: number };
}

/** What an invite's link does now: registers (open) or is refused, and why. */
export type InviteState = 'open' | 'revoked' | 'expired' | 'usedUp';

/** The message code of each refused state (docs/product.md, Error texts). */
export const INVITE_REFUSALS = {
  revoked: 'inviteRevoked',
  expired: 'inviteExpired',
  usedUp: 'inviteUsedUp',
} as const satisfies Record<Exclude<InviteState, 'open'>, string>;

/** The state of an invite at `nowIso` (UTC ISO text, compared as text like the stored end): revoked before expired before used up. */
export function inviteState(
  invite: { expires_at: string; max_uses: number; uses: number; revoked_at: string | null },
  nowIso: string,
): InviteState {
  if (invite.revoked_at !== null) return 'revoked';
  if (invite.expires_at <= nowIso) return 'expired';
  if (invite.uses >= invite.max_uses) return 'usedUp';
  return 'open';
}
