import type { Language } from '@fankurve/shared/constants';
import { formerMemberNumber, shownMemberName } from '@fankurve/shared/rules/erasure';
import { currentLanguage } from './index.js';

/*
 * Members' names as the interface shows them (docs/product.md, Data protection): an erased account
 * keeps its stored pseudonym ("Ehemaliges Mitglied 7"), which the shared rule shows in the reader's
 * language ("Former member 7"); any other name is shown as it is.
 */

/** A member's name as shown, in the app's language unless another is given; null stays null. */
export function shownName(username: string, language?: Language): string;
export function shownName(username: string | null | undefined, language?: Language): string | null;
export function shownName(username: string | null | undefined, language: Language = currentLanguage()): string | null {
  return username == null ? null : shownMemberName(username, language);
}

/** Whether the name is an erased account's: it is shown where the books name it, never offered in a picker. */
export const isFormerMember = (username: string | null | undefined): boolean =>
  username != null && formerMemberNumber(username) !== null;
