import type { i18n as I18n } from 'i18next';

type FixedT = (key: unknown, ...rest: unknown[]) => unknown;

/**
 * Remembers the texts of keys asked for without options (docs/architecture.md, Loading). i18next
 * resolves a key anew on every call, copying its options and looking it up through the fallbacks;
 * a long table asks for its column and cell texts again for every row in every slice, a third of a
 * second of script on a phone for an event's attendees. A key without options gives the same text
 * for the same language, namespace and loaded texts, so the text is kept until the language or the
 * texts change. Calls with options (counts, names) go to i18next as before.
 */
export function rememberPlainTexts(i18n: I18n): void {
  const texts = new Map<string, unknown>();
  const forget = () => texts.clear();
  i18n.on('languageChanged', forget);
  i18n.store.on('added', forget);
  i18n.store.on('removed', forget);

  const getFixedT = i18n.getFixedT.bind(i18n) as unknown as (...args: unknown[]) => FixedT & Record<string, unknown>;
  (i18n as { getFixedT: unknown }).getFixedT = (lng: unknown, ns: unknown, keyPrefix: unknown, ...more: unknown[]) => {
    const fixedT = getFixedT(lng, ns, keyPrefix, ...more);
    // Only the form react-i18next's hook asks for here: one language, one namespace, no prefix.
    if (typeof lng !== 'string' || typeof ns !== 'string' || keyPrefix !== undefined) return fixedT;
    const rememberingT: FixedT = (key, ...rest) => {
      if (rest.length > 0 || typeof key !== 'string') return fixedT(key, ...rest);
      const id = `${lng}\n${ns}\n${key}`;
      if (texts.has(id)) return texts.get(id);
      const text = fixedT(key);
      texts.set(id, text);
      return text;
    };
    return Object.assign(rememberingT, { lng: fixedT.lng, lngs: fixedT.lngs, ns: fixedT.ns, keyPrefix: fixedT.keyPrefix });
  };
}
