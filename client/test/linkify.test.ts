import { describe, expect, it } from 'vitest';
import { linkify } from '../src/features/legal/linkify.js';

/* The imprint's and the privacy notice's links (docs/architecture.md, Team configuration and theme): text, never HTML. */

const links = (text: string) => linkify(text).filter((part) => 'href' in part);

describe('linkify', () => {
  it('keeps the text whole, in order, with its line breaks', () => {
    const text = 'Fanclub e.V.\nhttps://example.org/verein, mailto:vorstand@example.org\n\nE-Mail: kasse@example.org.';
    expect(
      linkify(text)
        .map((part) => part.text)
        .join(''),
    ).toBe(text);
    expect(links(text)).toEqual([
      { text: 'https://example.org/verein', href: 'https://example.org/verein' },
      { text: 'mailto:vorstand@example.org', href: 'mailto:vorstand@example.org' },
      { text: 'kasse@example.org', href: 'mailto:kasse@example.org' },
    ]);
  });

  it('leaves sentence punctuation out of an address, keeps brackets the address opened', () => {
    expect(links('Siehe (https://example.org/a).')).toEqual([{ text: 'https://example.org/a', href: 'https://example.org/a' }]);
    expect(links('https://de.wikipedia.org/wiki/Union_(Berlin)!')[0]!.text).toBe('https://de.wikipedia.org/wiki/Union_(Berlin)');
  });

  it('links nothing but http, https and mailto', () => {
    for (const text of [
      'javascript:alert(1)',
      'ftp://example.org',
      '<a href="https://x.org">x</a>',
      'data:text/html,hi',
      'www.example.org',
    ])
      expect(
        links(text).every((part) => /^(https?:|mailto:)/.test((part as { href: string }).href)),
        text,
      ).toBe(true);
    expect(links('javascript:alert(1)')).toEqual([]);
    expect(links('<a href="https://x.org">x</a>')).toEqual([{ text: 'https://x.org', href: 'https://x.org/' }]);
  });
});
