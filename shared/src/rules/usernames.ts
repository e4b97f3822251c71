import type { CoreMessageCode } from '../messages.js';
import type { RuleResult } from './result.js';

/*
 * Usernames (docs/product.md, Accounts and security): one normal form, one comparison key, and the characters a name may not have.
 * The server's schemas and domain and the client's forms call these and keep no copy.
 */

export const USERNAME_MAX_LENGTH = 50;

/** Unicode White_Space only: String.prototype.trim() would also drop U+FEFF, which must be refused instead. */
const EDGE_SPACE = /^\p{White_Space}+|\p{White_Space}+$/gu;
/** Runs of space separators inside a name (after NFKC nearly all of them are U+0020) become one space. */
const INNER_SPACES = /\p{Zs}+/gu;

/**
 * The stored form of a username: Unicode NFKC (so compatibility forms such as full-width letters,
 * ligatures or a no-break space become their plain form), trimmed, inner runs of spaces collapsed.
 * Case is kept as the member typed it.
 */
export function normaliseUsername(input: string): string {
  return input.normalize('NFKC').replace(EDGE_SPACE, '').replace(INNER_SPACES, ' ');
}

/**
 * The key two usernames are compared by (stored as users.username_key, unique among live users).
 * Folded here and never in SQL: SQLite's lower() folds ASCII only, and PostgreSQL's depends on the
 * collation. NFKC, then lower → upper → lower: the upper step maps ß to SS (so ß, ẞ, SS and ss fold
 * together), and the first lower step lets the capital ẞ (whose upper case is itself) reach it; Ö
 * and ö, Σ, σ and ς fold together likewise. NFKC again at the end, since a case mapping may leave a
 * decomposed sequence. Locale-independent (a Turkish İ stays apart from I).
 */
export function usernameKey(username: string): string {
  return normaliseUsername(username).toLowerCase().toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * Control (Cc, e.g. NUL or a tab inside the name), format (Cf: zero-width characters, bidi
 * controls such as U+202E, U+200F, U+2066–2069, the soft hyphen, U+FEFF), surrogate, private-use
 * and unassigned characters, and line or paragraph separators.
 */
const FORBIDDEN = /[\p{C}\p{Zl}\p{Zp}]/u;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;

/*
 * An erased account keeps a pseudonym instead of its name (docs/product.md, Data protection):
 * "Ehemaliges Mitglied 7", shown as "Former member 7" in English. Nobody may take a name of either
 * form, so a name of that form always is an erased account.
 */
export const FORMER_MEMBER_PREFIX = { de: 'Ehemaliges Mitglied', en: 'Former member' } as const;
const FORMER_MEMBER_FORMS = Object.values(FORMER_MEMBER_PREFIX).map(
  (prefix) => new RegExp(`^${usernameKey(prefix)}\\s*\\p{Nd}+$`, 'u'),
);

/** Whether a normalised username has the form of an erased account's pseudonym (in any case or language). */
export const isFormerMemberForm = (name: string): boolean => FORMER_MEMBER_FORMS.some((form) => form.test(usernameKey(name)));

/**
 * What is wrong with a normalised username, or null. A name may use one of Latin, Cyrillic and
 * Greek letters but not two of them (a Cyrillic 'а' in 'аdmin' looks like the Latin one); digits,
 * spaces and punctuation belong to no script and go with any.
 */
export function usernameProblem(name: string): CoreMessageCode | null {
  if (name.length === 0) return 'invalidInput';
  if (name.length > USERNAME_MAX_LENGTH) return 'usernameTooLong';
  if (FORBIDDEN.test(name)) return 'usernameInvalidCharacters';
  const scripts = [LATIN, CYRILLIC, GREEK].filter((script) => script.test(name)).length;
  if (scripts > 1) return 'usernameMixedScripts';
  if (isFormerMemberForm(name)) return 'usernameReserved';
  return null;
}

/** A username as typed: its normalised form, or the message code of why it is refused. */
export function checkUsername(input: string): RuleResult<string> {
  const name = normaliseUsername(input);
  const problem = usernameProblem(name);
  return problem ? { ok: false, code: problem } : { ok: true, value: name };
}
