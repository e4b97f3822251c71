import { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import type { CoreMessageCode } from '../messages.js';
import type { RuleResult } from './result.js';
import { checkAccountHolder, isBlank, type ClubAccountFields } from './siteConfig.js';

/*
 * The club's bank account (docs/architecture.md, Club account and GiroCode): the server's domain and
 * the admin's form check it with these rules. An IBAN is checked by its country's format and check
 * digits (the ibantools library) and must be of a SEPA country (a GiroCode is a SEPA credit
 * transfer); it is stored in electronic format (no spaces, capitals). A value left empty clears the field.
 */

/** An IBAN as typed (`de89 3704 0044 0532 0130 00`), in electronic format; null when empty. */
export function checkIban(value: unknown): RuleResult<string | null> {
  if (isBlank(value)) return { ok: true, value: null };
  if (typeof value !== 'string' || value.length > 64) return { ok: false, code: 'ibanInvalid' };
  const iban = electronicFormatIBAN(value);
  if (!iban || !isValidIBAN(iban) || !isSEPACountry(iban.slice(0, 2))) return { ok: false, code: 'ibanInvalid' };
  return { ok: true, value: iban };
}

/** A BIC (8 or 11 characters, spaces ignored), in capitals; null when empty (optional within SEPA). */
export function checkBic(value: unknown): RuleResult<string | null> {
  if (isBlank(value)) return { ok: true, value: null };
  if (typeof value !== 'string' || value.length > 64) return { ok: false, code: 'bicInvalid' };
  const bic = value.replace(/\s+/g, '').toUpperCase();
  if (!isValidBIC(bic)) return { ok: false, code: 'bicInvalid' };
  return { ok: true, value: bic };
}

/**
 * The account as it will be stored: each field checked, and a holder required whenever an IBAN is
 * set (the GiroCode needs the beneficiary's name). The first problem's code, with the field it is about.
 */
export function checkClubAccount(
  input: Record<keyof ClubAccountFields, unknown>,
): { ok: true; value: ClubAccountFields } | { ok: false; field: keyof ClubAccountFields; code: CoreMessageCode } {
  const holder = checkAccountHolder(input.account_holder);
  if (!holder.ok) return { ok: false, field: 'account_holder', code: holder.code };
  const iban = checkIban(input.iban);
  if (!iban.ok) return { ok: false, field: 'iban', code: iban.code };
  const bic = checkBic(input.bic);
  if (!bic.ok) return { ok: false, field: 'bic', code: bic.code };
  if (iban.value && !holder.value) return { ok: false, field: 'account_holder', code: 'accountHolderRequired' };
  return { ok: true, value: { account_holder: holder.value, iban: iban.value, bic: bic.value } };
}
