/*
 * The imprint's and the privacy notice's links (docs/architecture.md, Team configuration and theme):
 * plain text, never HTML; what looks like an http or https address, a mailto: link or an e-mail
 * address becomes a link, everything else stays text.
 */

export type TextPart = { text: string } | { text: string; href: string };

const CANDIDATE = /\b(?:https?:\/\/|mailto:)[^\s<>"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/giu;
/** Punctuation that ends a sentence after an address rather than belonging to it. */
const TRAILING = /[.,;:!?'"»“”’)\]}]+$/u;

/** The part of a match that is the address: trailing punctuation left out, a closing bracket kept when the address opened one. */
function addressOf(match: string): string {
  let address = match.replace(TRAILING, '');
  const rest = match.slice(address.length);
  // "(https://example.org/a_(b))": keep the brackets the address itself opened.
  for (const char of rest) {
    if (char !== ')' || address.split('(').length <= address.split(')').length) break;
    address += char;
  }
  return address;
}

/** The link target of an address, or null when it is none the page may open (only http, https and mailto). */
export function hrefOf(address: string): string | null {
  const candidate = /^(?:https?:|mailto:)/i.test(address) ? address : `mailto:${address}`;
  try {
    const url = new URL(candidate);
    if (url.protocol === 'mailto:') return url.pathname.includes('@') ? candidate : null;
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/** The text in parts: plain text and links, in order; joined, the parts' texts are the text. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const address = addressOf(match[0]);
    const href = hrefOf(address);
    if (!href) continue;
    const start = match.index;
    if (start > at) parts.push({ text: text.slice(at, start) });
    parts.push({ text: address, href });
    at = start + address.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}
