import { errorText, i18next } from '../../i18n/index.js';

/**
 * The text for a failed call (SPEC 8): the server's message (translated by its code), the offline
 * notice when the server was not reached, else the screen's own fallback text.
 */
export function failureText(error: unknown, fallback: string): string {
  const text = errorText(error, 'errors.generic');
  return text === i18next.t('errors.generic') ? fallback : text;
}
