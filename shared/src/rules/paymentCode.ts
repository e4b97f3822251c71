/*
 * The member's payment code and the SEPA character set (docs/product.md, "Paying by GiroCode"):
 * the transfer's reference starts with a code that names the member, in characters every bank
 * keeps, with a check character so that a mistyped code matches nobody. The device (drawing the
 * GiroCode offline), the server (GET /api/ledger/my/payment) and the statement matcher use these
 * rules, so all of them agree on the code.
 */

/** What every payment code begins with. */
const CODE_PREFIX = 'FK';
/** Crockford's base 32: digits and letters without I, L, O and U, which are misread or misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Characters of the code after the prefix, without the check character: 30 bits, a billion codes. */
const CODE_BODY_LENGTH = 6;
/** FK, the body and the check character. */
export const PAYMENT_CODE_LENGTH = CODE_PREFIX.length + CODE_BODY_LENGTH + 1;

/** 32-bit FNV-1a of a text's UTF-16 code units: spreads ids evenly, the same on every device. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The check character by Luhn mod N over the alphabet: it catches every single mistyped character
 * and every swap of two neighbours but one (0 and Z, the alphabet's first and last).
 */
export function checkCharacter(body: string): string {
  const n = ALPHABET.length;
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    const value = ALPHABET.indexOf(body[i]!);
    if (value < 0) throw new RangeError(`not a payment code character: ${body[i]}`);
    const product = factor * value;
    sum += Math.floor(product / n) + (product % n);
    factor = factor === 2 ? 1 : 2;
  }
  return ALPHABET[(n - (sum % n)) % n]!;
}

/** The member's payment code, e.g. `FK7Q3MK2W`: the same for a member's id on every device and server. */
export function paymentCodeOf(userId: string): string {
  let bits = fnv1a(userId);
  let body = '';
  for (let i = 0; i < CODE_BODY_LENGTH; i++) {
    body = ALPHABET[bits & 31]! + body;
    bits >>>= 5;
  }
  return `${CODE_PREFIX}${body}${checkCharacter(body)}`;
}

/** Whether a code (upper case, no spaces) has the right form and check character. */
export function isValidPaymentCode(code: string): boolean {
  if (code.length !== PAYMENT_CODE_LENGTH || !code.startsWith(CODE_PREFIX)) return false;
  const body = code.slice(CODE_PREFIX.length, -1);
  if (![...body].every((character) => ALPHABET.includes(character))) return false;
  return checkCharacter(body) === code.slice(-1);
}

/**
 * The valid payment codes in a transfer's purpose, wherever the bank put them: in any case, with
 * spaces or line breaks inside (banks wrap purposes at 27 or 35 characters), and with the letters
 * Crockford reads as digits (O → 0, I and L → 1) typed by hand. In the order found, each once.
 */
export function paymentCodesIn(purpose: string): string[] {
  const squeezed = purpose
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/[^0-9A-Z]/g, '.');
  const found: string[] = [];
  for (let at = squeezed.indexOf(CODE_PREFIX); at >= 0; at = squeezed.indexOf(CODE_PREFIX, at + 1)) {
    const candidate = squeezed.slice(at, at + PAYMENT_CODE_LENGTH);
    const read = CODE_PREFIX + candidate.slice(CODE_PREFIX.length).replace(/O/g, '0').replace(/[IL]/g, '1');
    if (isValidPaymentCode(read) && !found.includes(read)) found.push(read);
  }
  return found;
}

/** What banks may replace or drop, spelled in the SEPA character set instead. */
const SEPA_SPELLING: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  '–': '-',
  '—': '-',
  '‐': '-',
  '−': '-',
  '×': 'x',
  '…': '...',
  '„': "'",
  '“': "'",
  '”': "'",
  '‚': "'",
  '‘': "'",
  '’': "'",
  '"': "'",
  '«': "'",
  '»': "'",
  '&': '+',
  _: '-',
  ';': ',',
  '!': '.',
  '€': 'EUR',
};

/** The SEPA basic character set: Latin letters, digits, space and / - ? : ( ) . , ' +. */
const SEPA_CHARACTER = /[A-Za-z0-9/\-?:().,'+ ]/;

/**
 * A text in the SEPA character set: umlauts and ß spelled out (ä → ae), dashes as `-`, `×` as `x`,
 * other accents dropped (é → e), anything else left out; spaces collapsed.
 */
export function toSepaText(text: string): string {
  let out = '';
  for (const character of text) {
    const spelled = SEPA_SPELLING[character];
    if (spelled !== undefined) {
      out += spelled;
      continue;
    }
    if (SEPA_CHARACTER.test(character)) {
      out += character;
      continue;
    }
    // A letter with an accent: its base letter (NFD puts the accent in a character of its own).
    const base = character.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    if (base.length > 0 && [...base].every((part) => SEPA_CHARACTER.test(part))) out += base;
    else if (/\s/.test(character)) out += ' ';
  }
  return out.replace(/\s+/g, ' ').trim();
}
