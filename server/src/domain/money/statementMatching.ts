import { paymentCodeOf, paymentCodesIn, toSepaText } from '@fankurve/shared';

/*
 * Which member a statement's credit is from (docs/architecture.md, "Bank statements"), in this
 * order: the payment code the app's GiroCode wrote (exact: booked on the treasurer's confirm), an
 * IBAN learned from the member's earlier matched payment, or a name and an amount equal to the
 * member's open balance (a suggestion to confirm). A line that could be more than one member's by a
 * rule is left to the next rule, and to the treasurer in the end: never a guess between members.
 */

export type MatchReason = 'reference' | 'iban' | 'name_amount';

export interface MatchMember {
  id: string;
  username: string;
  /** What the member owes now, cents (0 or less: nothing). */
  owedCents: number;
}

/** What the matcher knows: the club's members and the IBANs their earlier payments came from. */
export interface MatchDirectory {
  members: readonly MatchMember[];
  /** IBAN (electronic format) → the members whose booked payments came from it. */
  learnedIbans: ReadonlyMap<string, readonly string[]>;
}

export interface MatchedLine {
  user_id: string;
  username: string;
  reason: MatchReason;
}

interface Index {
  byId: Map<string, MatchMember>;
  byCode: Map<string, string[]>;
}

const indexes = new WeakMap<MatchDirectory, Index>();

function indexOf(directory: MatchDirectory): Index {
  let index = indexes.get(directory);
  if (!index) {
    index = { byId: new Map(), byCode: new Map() };
    for (const member of directory.members) {
      index.byId.set(member.id, member);
      const code = paymentCodeOf(member.id);
      index.byCode.set(code, [...(index.byCode.get(code) ?? []), member.id]);
    }
    indexes.set(directory, index);
  }
  return index;
}

/** The one member a set of candidates names, or null for none or several. */
function single(index: Index, ids: readonly string[]): MatchMember | null {
  const members = [...new Set(ids)].map((id) => index.byId.get(id)).filter((member) => member !== undefined);
  return members.length === 1 ? members[0]! : null;
}

/** Lower-case letters and digits in the SEPA spelling: `Jürgen Müller` → `juergenmueller`. */
const squeezed = (text: string) =>
  toSepaText(text)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** Usernames this short match too much of a name to be taken from it. */
const NAME_MATCH_MIN_LENGTH = 4;

/**
 * Whether a payer's name names the member: their username is the whole name, one of its words, or
 * (at least four characters) within it (`jmueller` in `J. Mueller`, `coco` in `Coco Schmidt`).
 */
export function nameNames(payer: string, username: string): boolean {
  const user = squeezed(username);
  if (user.length === 0) return false;
  const whole = squeezed(payer);
  if (whole === user) return true;
  const words = toSepaText(payer)
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  if (words.includes(user)) return true;
  return user.length >= NAME_MATCH_MIN_LENGTH && whole.includes(user);
}

/** The member a credit is from, with the reason, or null when no rule names exactly one. */
export function matchLine(
  line: { name: string; iban: string; purpose: string; amount_cents: number },
  directory: MatchDirectory,
): MatchedLine | null {
  const index = indexOf(directory);
  const byCode = single(
    index,
    paymentCodesIn(line.purpose).flatMap((code) => index.byCode.get(code) ?? []),
  );
  if (byCode) return { user_id: byCode.id, username: byCode.username, reason: 'reference' };
  const byIban = line.iban ? single(index, directory.learnedIbans.get(line.iban) ?? []) : null;
  if (byIban) return { user_id: byIban.id, username: byIban.username, reason: 'iban' };
  if (line.name) {
    const byName = single(
      index,
      directory.members
        .filter(
          (member) => member.owedCents > 0 && member.owedCents === line.amount_cents && nameNames(line.name, member.username),
        )
        .map((member) => member.id),
    );
    if (byName) return { user_id: byName.id, username: byName.username, reason: 'name_amount' };
  }
  return null;
}
