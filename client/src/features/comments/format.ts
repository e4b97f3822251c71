import type { Language } from '@fankurve/shared';
import { formatInstant } from '../../i18n/dates.js';
import { errorText, i18next } from '../../i18n/index.js';

/** When a comment was written, in the device's time zone: `12.03.2026, 14:05` (de), `12 Mar 2026, 14:05` (en). */
export const formatCommentDate = (iso: string, language: Language): string => formatInstant(iso, language);

/** The failures of comment calls (docs/product.md, Error texts): the refusal's own text (a rule's code, the server's message), else the screen's fallback. */
export function failureText(error: unknown, fallback: string): string {
  const text = errorText(error);
  return text === i18next.t('errors.generic') ? fallback : text;
}

/** The mention's anchor on its event page. */
export const commentPath = (eventId: string, commentId: string) =>
  `/events/${encodeURIComponent(eventId)}#comment-${encodeURIComponent(commentId)}`;

/** How much of a pending comment the task list shows. */
const EXCERPT_LENGTH = 120;

/** The comment's text shortened to a word boundary, with an ellipsis. */
export function excerpt(text: string, length = EXCERPT_LENGTH): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length);
  const space = cut.lastIndexOf(' ');
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).trimEnd()} …`;
}
