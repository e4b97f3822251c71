import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@fankurve/shared/constants';
import { MESSAGES, type MessageCode } from '@fankurve/shared/registry';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isApiError } from '../api/client.js';
import { englishAreas, GERMAN_AREAS, withAreas, type AreaTexts, type RefusalActionKey } from './areas.js';
import de from './de.json';
import { rememberPlainTexts } from './plainTexts.js';

/** The last language used on this device (before sign-in, the user's profile language wins after). */
export const LANGUAGE_STORAGE_KEY = 'language';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // Every server message has its text (client/test/i18n.test.ts), and every refusal action
    // (client/test/refusal-actions.test.ts), in de.json or in its collection's folder.
    resources: {
      translation: typeof de &
        AreaTexts & {
          serverMessages: Record<MessageCode, string>;
          refusals: { actions: Record<RefusalActionKey, string> };
        };
    };
  }
}

/** German is bundled (default); English is loaded on demand (precached for offline use). */
const german = withAreas(de, GERMAN_AREAS);
const loaders: Record<Language, () => Promise<Record<string, unknown>>> = {
  de: async () => german,
  en: async () => withAreas((await import('./en.json')).default, await englishAreas()),
};

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

export function deviceLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // storage blocked: default
  }
  return DEFAULT_LANGUAGE;
}

async function ensureLoaded(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  i18next.addResourceBundle(language, 'translation', await loaders[language](), true, true);
}

export async function initI18n(): Promise<void> {
  const language = deviceLanguage();
  await i18next.use(initReactI18next).init({
    resources: { de: { translation: german } },
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  rememberPlainTexts(i18next);
  await applyLanguage(language);
}

/** Switches the interface language and remembers it on the device. */
export async function applyLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage blocked: the choice lasts for this page only
  }
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  if (i18next.resolvedLanguage === language && i18next.hasResourceBundle(language, 'translation')) return;
  try {
    await ensureLoaded(language);
  } catch (error) {
    console.warn('Could not load the translations for', language, error);
    return;
  }
  await i18next.changeLanguage(language);
}

export const currentLanguage = (): Language =>
  isLanguage(i18next.resolvedLanguage) ? i18next.resolvedLanguage : DEFAULT_LANGUAGE;

export const isMessageCode = (code: unknown): code is MessageCode => typeof code === 'string' && Object.hasOwn(MESSAGES, code);

/** A server message by code (`serverMessages.<code>`), else its text as sent. */
export function messageText(code: string | null | undefined, message?: string | null): string {
  if (isMessageCode(code)) {
    const text = i18next.t(`serverMessages.${code}`);
    // Validation failures name the field after the text: keep that part.
    const prefix = `${MESSAGES[code]}: `;
    return message && message.startsWith(prefix) ? `${text}: ${message.slice(prefix.length)}` : text;
  }
  return message ?? '';
}

/** Keys of the `errors` section: the fallback texts of every screen for failed calls (docs/product.md, Error texts), and the app's error texts. */
export type ErrorKey = `errors.${keyof typeof de.errors}`;

/**
 * The text to show for a failed call: the server's message translated by its code, else the server's
 * text, else the fallback key. A network failure says that the server cannot be reached.
 */
export function errorText(error: unknown, fallbackKey: ErrorKey = 'errors.generic'): string {
  if (isApiError(error)) {
    if (error.offline) return i18next.t('errors.offline');
    const text = messageText(error.code, error.message);
    if (text) return text;
  } else if (error && typeof error === 'object') {
    // A server failure body `{ success: false, message, code }` or an error carrying a message code.
    const failure = error as { success?: unknown; code?: unknown; message?: unknown };
    if (isMessageCode(failure.code))
      return messageText(failure.code, typeof failure.message === 'string' ? failure.message : null);
    if (failure.success === false && typeof failure.message === 'string' && failure.message) return failure.message;
  }
  return i18next.t(fallbackKey);
}

export { i18next };
