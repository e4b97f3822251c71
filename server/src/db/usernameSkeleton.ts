import { usernameKey } from '@fankurve/shared';
import unhomoglyph from 'unhomoglyph';

/*
 * The confusable skeleton of a username (Unicode TS #39, docs/architecture.md "Sessions, throttles and
 * limits"): two names with the same skeleton look alike ('coco' and Cyrillic 'сосо'), so a new name
 * whose skeleton belongs to another live user is refused (`usernameLooksTaken`). Stored as
 * users.username_skeleton (migration 009) so the check is one indexed lookup; it lives with the
 * database because it computes that column (the migration and the domain both call it).
 */

/** TS #39 skeleton: NFD, each character replaced by its prototype (confusables.txt, via unhomoglyph), NFD. */
const prototypes = (text: string): string => unhomoglyph(text.normalize('NFD')).normalize('NFD');

/**
 * The skeleton names are compared by. Usernames are caseless (usernameKey), so the prototypes are
 * taken of the name in capitals and again after folding to the key's lower case: confusables.txt
 * maps the Cyrillic palochka 'ӏ' to 'i' but its capital 'Ӏ' to 'l', capital 'I' to 'l', and 'm' to
 * 'rn' only in lower case. As a consequence 'i' and 'l' (and 'rn' and 'm') share a skeleton, which
 * is what a caseless name looks like. Folded like usernameKey (shared/src/rules/usernames.ts).
 */
export function usernameSkeleton(username: string): string {
  const capitals = prototypes(usernameKey(username).toUpperCase());
  return usernameKey(prototypes(usernameKey(capitals)));
}
