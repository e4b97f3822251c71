import type { Scope } from '../constants.js';
import { checkFreeText } from './freeText.js';
import type { RuleResult } from './result.js';
import { usernameKey } from './usernames.js';

/*
 * Comments and mentions (docs/architecture.md, Comments and mentions). The server's domain and the client's
 * comment section and data layer call these and keep no copy.
 */

export const COMMENT_MAX_LENGTH = 2000;

export type CommentAction = 'edit' | 'delete' | 'resolve' | 'unresolve' | 'toggleRequiresAnswer';

export interface CommentActor {
  id: string;
  scope: Scope;
}

export interface CommentState {
  user_id: string;
  requires_answer: boolean;
  is_resolved: boolean;
  /** The text, where the caller has it: an erased member's comment allows nothing but an admin's delete. */
  comment?: string;
}

/**
 * An erased member's comment keeps its place in the conversation with its text emptied
 * (docs/product.md, Data protection): the only empty comment there is, since a blank text is refused.
 */
export const isErasedComment = (comment: { comment?: string }): boolean => comment.comment === '';

/**
 * While unresolved the author edits, deletes, resolves and toggles the answer request;
 * admins resolve and toggle anyone's and may delete any comment (moderation); a resolved comment
 * that requires an answer is reopened by its author or an admin.
 */
export function mayChangeComment(actor: CommentActor, comment: CommentState, action: CommentAction): boolean {
  const author = actor.id === comment.user_id;
  const admin = actor.scope === 'admin';
  if (isErasedComment(comment)) return action === 'delete' && admin;
  switch (action) {
    case 'edit':
      return author && !comment.is_resolved;
    case 'delete':
      return admin || (author && !comment.is_resolved);
    case 'resolve':
    case 'toggleRequiresAnswer':
      return !comment.is_resolved && (author || admin);
    case 'unresolve':
      return comment.is_resolved && comment.requires_answer && (author || admin);
  }
}

/** Whether the actor may do this to the comment in the state most favourable to it (its own, say, while open). */
export function mayEverChangeComment(actor: CommentActor, comment: { user_id: string }, action: CommentAction): boolean {
  const favourable: CommentState = { user_id: comment.user_id, requires_answer: true, is_resolved: action === 'unresolve' };
  return mayChangeComment(actor, favourable, action);
}

/** Why a change of a comment is refused; the server answers 403 for the first, 409 for the others. */
export type CommentRefusal = 'commentNotAllowed' | 'commentIsResolved' | 'commentNotReopenable';

/**
 * The refusal both sides give when `mayChangeComment` says no: 'commentNotAllowed' when the actor may
 * never do this to that comment (another member's; an admin editing someone's text), else the state
 * it is in ('commentNotReopenable' to reopen, 'commentIsResolved' otherwise). Null when allowed.
 */
export function commentRefusal(actor: CommentActor, comment: CommentState, action: CommentAction): CommentRefusal | null {
  if (mayChangeComment(actor, comment, action)) return null;
  if (isErasedComment(comment) || !mayEverChangeComment(actor, comment, action)) return 'commentNotAllowed';
  return action === 'unresolve' ? 'commentNotReopenable' : 'commentIsResolved';
}

/**
 * A comment text as typed: trimmed, not blank, at most COMMENT_MAX_LENGTH characters, multi-line
 * free text (line breaks and tabs kept, \r\n stored as \n, no control or direction characters).
 */
export function checkCommentText(input: string): RuleResult<string> {
  const text = input.trim();
  if (text === '') return { ok: false, code: 'commentEmpty' };
  if (text.length > COMMENT_MAX_LENGTH) return { ok: false, code: 'commentTooLong' };
  return checkFreeText(text, 'multiline');
}

export interface MentionCandidate {
  id: string;
  username: string;
}

/** After a name, a mention ends at the end of the text or at a character that cannot continue a word. */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * The users named with @ in a text. Usernames may contain spaces, so each @ is matched against the
 * candidates' names (folded like usernames, longest first: "@Max Mustermann" names Max Mustermann,
 * not Max); the name must not run on into a word ("@Maxi" does not name Max). Each user once.
 */
export function findMentions(text: string, candidates: readonly MentionCandidate[]): string[] {
  const byLength = [...candidates]
    .map((candidate) => ({ ...candidate, key: usernameKey(candidate.username) }))
    .filter((candidate) => candidate.key !== '')
    .sort((a, b) => b.username.length - a.username.length);
  const found = new Set<string>();
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    for (const candidate of byLength) {
      const end = at + 1 + candidate.username.length;
      if (end > text.length) continue;
      if (usernameKey(text.slice(at + 1, end)) !== candidate.key) continue;
      if (end < text.length && WORD_CHAR.test(text[end]!)) continue;
      found.add(candidate.id);
      break;
    }
  }
  return [...found];
}

/**
 * The mention being typed at the caret, for the autocomplete: an @ at the start or after a space,
 * followed by no space up to the caret. `query` is what was typed after the @.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at === -1) return null;
  if (at > 0 && !/\s/u.test(before[at - 1]!)) return null;
  const query = before.slice(at + 1);
  if (/\s/u.test(query)) return null;
  return { start: at, query };
}

/** Usernames matching a typed query, case-insensitively, names starting with it first. */
export function filterMentionNames(names: readonly string[], query: string, limit = 8): string[] {
  const key = query.toLocaleLowerCase();
  const matches = names.filter((name) => name.toLocaleLowerCase().includes(key));
  const starts = matches.filter((name) => name.toLocaleLowerCase().startsWith(key));
  const rest = matches.filter((name) => !name.toLocaleLowerCase().startsWith(key));
  return [...starts, ...rest].slice(0, limit);
}
