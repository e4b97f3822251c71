import {
  checkUsername,
  DEFAULT_LANGUAGE,
  emailSchema,
  normaliseUsername,
  usernameKey,
  type Language,
  type MessageCode,
} from '@fankurve/shared';
import { looksLikeFormula } from '@fankurve/shared/rules/csv';
import { checkLoyaltyAdjustment } from '@fankurve/shared/rules/loyalty';
import { MEMBER_IMPORT_LINK_DAYS, MEMBER_IMPORT_MAX_ROWS } from '@fankurve/shared/rules/memberImport';
import { parse } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { usernameSkeleton } from '../../db/usernameSkeleton.js';
import { requireAdmin, type Actor } from '../actor.js';
import { badInput } from '../errors.js';
import { storeImportedAdjustment } from '../tickets/loyalty.js';
import { newUserRow } from './accounts.js';
import { issuePasswordResetFor, type IssuedReset } from './passwordResets.js';
import { audit } from '../club/auditLog.js';

/*
 * Members from a spreadsheet (docs/architecture.md, Member import; docs/product.md, Users): an admin
 * sends a CSV list, every row is checked against the rules an admin's creation follows (the username
 * rule, a free name and e-mail address, no look-alike, the loyalty adjustment's rule) and against the
 * rows before it; nothing is written for a preview, and a confirmed import creates exactly the rows
 * without a problem, in one transaction that checks them all again. A created member is active, has
 * no password yet, and gets a link to set one (the password reset's, valid MEMBER_IMPORT_LINK_DAYS).
 * Importing the same list again creates nothing: its rows now name existing accounts.
 */

/** One row of the list as the admin sees it in the preview. */
export interface ImportRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  username: string;
  email: string;
  problem: MessageCode | null;
}

/** An account the import created, with the token of its link to set a password. */
export type ImportedMember = IssuedReset;

/** The validity of the link an imported member gets. */
export const IMPORT_LINK_TTL_MS = MEMBER_IMPORT_LINK_DAYS * 24 * 60 * 60 * 1000;

/**
 * What an imported account has instead of a password hash: no argon2 hash, so no password matches it
 * (verifyPassword answers false) until the member sets one with the link.
 */
const NO_PASSWORD_YET = '!imported: no password set yet';

const FIELDS = ['username', 'email', 'language', 'role', 'points', 'note'] as const;
type Field = (typeof FIELDS)[number];

/**
 * The header names the import understands, German and English, compared without case, spaces,
 * hyphens and other punctuation ("E-Mail" = "email", "Loyalty adjustment" = "loyaltyadjustment").
 */
const HEADER_NAMES: Record<Field, readonly string[]> = {
  username: ['benutzername', 'username', 'benutzer', 'user', 'name', 'nutzername', 'mitglied', 'member'],
  email: ['email', 'emailadresse', 'mail', 'mailadresse', 'emailaddress'],
  language: ['sprache', 'language', 'lang'],
  role: ['rolle', 'role', 'scope'],
  points: ['treuepunkte', 'loyalty', 'loyaltyadjustment', 'loyaltypoints', 'punkte', 'points', 'adjustment', 'anpassung'],
  note: ['notiz', 'note', 'bemerkung', 'loyaltynote', 'treuepunktenotiz'],
};

const headerKey = (name: string) =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

const LANGUAGE_WORDS: Record<string, Language> = {
  de: 'de',
  deutsch: 'de',
  german: 'de',
  en: 'en',
  englisch: 'en',
  english: 'en',
};
const ROLE_WORDS: Record<string, 'user' | 'admin'> = {
  member: 'user',
  mitglied: 'user',
  user: 'user',
  admin: 'admin',
  administrator: 'admin',
};

/** The e-mail rule of every other account (shared/src/schemas/auth.ts), made once. */
const emailRule = emailSchema();

/** A row read from the list, its cells checked on their own (no database yet). */
interface ReadRow {
  line: number;
  /** The cells as written (trimmed), for the preview. */
  username: string;
  email: string;
  problem: MessageCode | null;
  /** The account to create when the row keeps no problem. */
  account: {
    name: string;
    key: string;
    skeleton: string;
    email: string;
    emailKey: string;
    language: Language;
    scope: 'user' | 'admin';
    adjustment: { points: number; note: string } | null;
  } | null;
  /** What the row names, for the comparison with later rows (also when its own cells have a problem). */
  key: string | null;
  skeleton: string | null;
  emailKey: string | null;
}

/** The list's delimiter: the one its header line uses most of `;`, `,` and tab (a comma when none). */
function delimiterOf(text: string): string {
  const end = text.search(/\r?\n/);
  const header = end === -1 ? text : text.slice(0, end);
  const count = (c: string) => header.split(c).length - 1;
  return [';', '\t'].reduce((best, candidate) => (count(candidate) > count(best) ? candidate : best), ',');
}

/** The list's records with their lines; 400 when it is no CSV, names no username and e-mail column, has no rows or too many. */
function recordsOf(csv: string): { columns: Partial<Record<Field, number>>; records: { line: number; cells: string[] }[] } {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with the line it ends on (the parser's types do not say so).
    parsed = parse(csv, {
      delimiter: delimiterOf(csv),
      bom: true,
      relax_column_count: true,
      // A quote inside an unquoted cell (`=HYPERLINK("x")` typed by hand) is text, as a spreadsheet reads it.
      relax_quotes: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as typeof parsed;
  } catch {
    throw badInput('memberImportUnreadable');
  }
  const [header, ...body] = parsed;
  if (!header) throw badInput('memberImportEmpty');
  const columns: Partial<Record<Field, number>> = {};
  header.record.forEach((name, index) => {
    const key = headerKey(name);
    const field = FIELDS.find((candidate) => HEADER_NAMES[candidate].includes(key));
    if (field && columns[field] === undefined) columns[field] = index;
  });
  if (columns.username === undefined || columns.email === undefined) throw badInput('memberImportHeaderInvalid');
  // A row of empty cells (";;;" from a spreadsheet) is no row.
  const records = body
    .filter(({ record }) => record.some((cell) => cell.trim() !== ''))
    .map(({ record, info }) => ({ line: info.lines, cells: record }));
  if (records.length === 0) throw badInput('memberImportEmpty');
  if (records.length > MEMBER_IMPORT_MAX_ROWS) throw badInput('memberImportTooManyRows');
  return { columns, records };
}

/** A row's own cells checked: the first problem, or the account it asks for. */
function readRow(line: number, cell: (field: Field) => string): ReadRow {
  const raw = Object.fromEntries(FIELDS.map((field) => [field, cell(field)])) as Record<Field, string>;
  const username = raw.username.trim();
  const email = raw.email.trim();
  const name = normaliseUsername(raw.username);
  const row: ReadRow = {
    line,
    username,
    email,
    problem: null,
    account: null,
    key: name === '' ? null : usernameKey(name),
    skeleton: name === '' ? null : usernameSkeleton(name),
    emailKey: email === '' ? null : email.toLowerCase(),
  };
  const points = raw.points.trim();
  const isWholeNumber = /^[+-]?\d+$/.test(points);
  // A cell a spreadsheet would run (docs/architecture.md, Data model: CSV exports) is refused, not
  // guarded: the list came from outside. A signed whole number of points is a number, not a formula.
  const cells: Field[] = ['username', 'email', 'language', 'role', 'note', ...(isWholeNumber ? [] : (['points'] as const))];
  if (cells.some((field) => looksLikeFormula(raw[field]))) return { ...row, problem: 'memberImportFormula' };
  if (name === '') return { ...row, problem: 'memberImportUsernameMissing' };
  const checkedName = checkUsername(name);
  if (!checkedName.ok) return { ...row, problem: checkedName.code };
  const checkedEmail = emailRule.safeParse(email);
  if (!checkedEmail.success) {
    const code = checkedEmail.error.issues[0]?.message;
    return { ...row, problem: code === 'emailTooLong' ? 'emailTooLong' : 'memberImportEmailInvalid' };
  }
  const languageWord = raw.language.trim().toLowerCase();
  const language = languageWord === '' ? DEFAULT_LANGUAGE : LANGUAGE_WORDS[languageWord];
  if (!language) return { ...row, problem: 'memberImportLanguageInvalid' };
  const roleWord = raw.role.trim().toLowerCase();
  const scope = roleWord === '' ? 'user' : ROLE_WORDS[roleWord];
  if (!scope) return { ...row, problem: 'memberImportRoleInvalid' };
  let adjustment: { points: number; note: string } | null = null;
  if (points !== '' || raw.note.trim() !== '') {
    // The admin's adjustment rule (rules/loyalty.ts): a note needs points beside it.
    const checked = checkLoyaltyAdjustment({ points: isWholeNumber ? Number(points) : undefined, note: raw.note });
    if (!checked.ok) return { ...row, problem: checked.code };
    adjustment = checked.value;
  }
  return {
    ...row,
    account: {
      name: checkedName.value,
      key: row.key!,
      skeleton: row.skeleton!,
      email: checkedEmail.data,
      emailKey: checkedEmail.data.toLowerCase(),
      language,
      scope,
      adjustment,
    },
  };
}

/**
 * The names and addresses of the live accounts, as assertNamesFree (accounts.ts) compares them: a
 * name is taken by its key (and by a `<key>#<id>` key migration 003 gave the later of two accounts
 * whose names folded together), looks taken by its skeleton; an address is taken regardless of case.
 */
async function takenNames(db: Kysely<Database>) {
  const users = await db
    .selectFrom('users')
    .select(['username_key', 'username_skeleton', 'email'])
    .where('deleted', '=', 0)
    .execute();
  const keys = new Set<string>();
  const skeletons = new Set<string>();
  const emails = new Set<string>();
  for (const user of users) {
    keys.add(user.username_key);
    for (let at = user.username_key.indexOf('#'); at !== -1; at = user.username_key.indexOf('#', at + 1))
      keys.add(user.username_key.slice(0, at));
    skeletons.add(user.username_skeleton);
    emails.add(user.email.toLowerCase());
  }
  return { keys, skeletons, emails };
}

/** Every row of the list with its problem: its own cells, then the live accounts, then the rows before it. */
async function checkList(db: Kysely<Database>, csv: string): Promise<ReadRow[]> {
  const { columns, records } = recordsOf(csv);
  const taken = await takenNames(db);
  const earlier = { keys: new Set<string>(), skeletons: new Set<string>(), emails: new Set<string>() };
  return records.map(({ line, cells }) => {
    const row = readRow(line, (field) => {
      const index = columns[field];
      return index === undefined ? '' : (cells[index] ?? '');
    });
    let problem = row.problem;
    if (problem === null && row.account) {
      const { key, skeleton, emailKey } = row.account;
      if (taken.keys.has(key) || taken.emails.has(emailKey)) problem = 'memberImportExisting';
      else if (taken.skeletons.has(skeleton)) problem = 'memberImportLooksLike';
      else if (earlier.keys.has(key) || earlier.skeletons.has(skeleton) || earlier.emails.has(emailKey))
        problem = 'memberImportDuplicate';
    }
    if (row.key) earlier.keys.add(row.key);
    if (row.skeleton) earlier.skeletons.add(row.skeleton);
    if (row.emailKey) earlier.emails.add(row.emailKey);
    return { ...row, problem, account: problem === null ? row.account : null };
  });
}

const shown = (rows: ReadRow[]): ImportRow[] =>
  rows.map(({ line, username, email, problem }) => ({ line, username, email, problem }));

/** The preview (admin): every row of the list with its problem; nothing is written. */
export async function previewMemberImport(db: Kysely<Database>, actor: Actor, csv: string): Promise<ImportRow[]> {
  requireAdmin(actor);
  return shown(await checkList(db, csv));
}

/**
 * The confirmed import (admin): checks the list again inside the transaction and creates each row
 * without a problem: an active account without a password, its loyalty adjustment when the row has
 * one, and its link to set a password. The caller mails the links after the commit.
 */
export async function importMembers(
  w: WriteContext,
  actor: Actor,
  csv: string,
): Promise<{ rows: ImportRow[]; created: ImportedMember[] }> {
  requireAdmin(actor);
  const rows = await checkList(w.db, csv);
  const created: ImportedMember[] = [];
  for (const { account } of rows) {
    if (!account) continue;
    const user = await newUserRow(w, {
      username: account.name,
      email: account.email,
      password: { hash: NO_PASSWORD_YET },
      scope: account.scope,
      status: 'active',
      language: account.language,
      mustChangePassword: false,
    });
    await w.db.insertInto('users').values(user).execute();
    w.record({ type: 'user.approved', userId: user.id, actorId: actor.id });
    await audit(w, actor, {
      kind: 'people',
      action: 'user.import',
      userId: user.id,
      after: { username: user.username, email: user.email, scope: user.scope, loyalty: account.adjustment ?? null },
    });
    if (account.adjustment) await storeImportedAdjustment(w, actor, user.id, account.adjustment);
    created.push(await issuePasswordResetFor(w, user, IMPORT_LINK_TTL_MS));
  }
  return { rows: shown(rows), created };
}
