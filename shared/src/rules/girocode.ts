import { paymentCodeOf, toSepaText } from './paymentCode.js';

/*
 * The GiroCode (docs/architecture.md, Club account and GiroCode): the EPC QR code that banking apps
 * read to fill in a SEPA credit transfer. The payload is the European Payments Council's
 * "Quick Response Code" format: one element per line, lines joined by LF, character set 1 (UTF-8).
 * The server (GET /api/ledger/my/payment) and the device (which draws the code offline) build it
 * with these rules, so both give the same bytes.
 */

/** Lines 1–4: service tag, version, character set (1 = UTF-8), identification (SEPA credit transfer). */
const SERVICE_TAG = 'BCD';
const CHARACTER_SET_UTF8 = '1';
const IDENTIFICATION = 'SCT';

/** The longest beneficiary name and unstructured remittance text the format allows (in characters). */
export const EPC_NAME_MAX_LENGTH = 70;
export const EPC_REMITTANCE_MAX_LENGTH = 140;
/** The whole payload at most 331 bytes (QR version 13 at error correction level M). */
export const EPC_PAYLOAD_MAX_BYTES = 331;
/** Amounts from 0.01 to 999999999.99 euros. */
export const EPC_AMOUNT_MIN_CENTS = 1;
export const EPC_AMOUNT_MAX_CENTS = 99_999_999_999;

/** Every element of the format, for the general builder; empty elements stay empty lines. */
export interface EpcFields {
  /** '002' lets the BIC be empty within the EEA; '001' requires it. */
  version: '001' | '002';
  bic: string;
  name: string;
  iban: string;
  amountCents: number;
  purpose: string;
  structuredReference: string;
  remittance: string;
  information: string;
}

/** A text without line breaks (they would shift every following element), spaces collapsed at the ends. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

/** At most `max` characters, cut between characters (never inside one: a surrogate pair stays whole). */
export function cutToCharacters(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max ? text : characters.slice(0, max).join('');
}

/**
 * Whether a GiroCode can carry this amount: whole cents from 0.01 to 999,999,999.99 euros. The server
 * answers 409 `ledgerAmountTooLarge` above it and the device says so instead of drawing a code.
 */
export function isPayableByGiroCode(cents: number): boolean {
  return Number.isInteger(cents) && cents >= EPC_AMOUNT_MIN_CENTS && cents <= EPC_AMOUNT_MAX_CENTS;
}

/** `EUR12.3`, `EUR1`, `EUR0.05`: euros with a dot and without trailing zeros, as the format's own example writes them. */
export function epcAmount(cents: number): string {
  if (!Number.isInteger(cents) || cents < EPC_AMOUNT_MIN_CENTS || cents > EPC_AMOUNT_MAX_CENTS) {
    throw new RangeError(`EPC amount out of range: ${cents}`);
  }
  const euros = Math.floor(cents / 100);
  const fraction = String(cents % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `EUR${euros}${fraction ? `.${fraction}` : ''}`;
}

/** The length of a text in UTF-8 bytes. */
function byteLength(text: string): number {
  let bytes = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * The payload from all its elements: twelve lines at most, and nothing after the last element that
 * holds something (no trailing line feed, no empty lines at the end).
 */
export function epcPayloadOf(fields: EpcFields): string {
  const lines = [
    SERVICE_TAG,
    fields.version,
    CHARACTER_SET_UTF8,
    IDENTIFICATION,
    oneLine(fields.bic).toUpperCase(),
    cutToCharacters(oneLine(fields.name), EPC_NAME_MAX_LENGTH),
    oneLine(fields.iban).replace(/\s+/g, '').toUpperCase(),
    epcAmount(fields.amountCents),
    oneLine(fields.purpose),
    oneLine(fields.structuredReference),
    cutToCharacters(oneLine(fields.remittance), EPC_REMITTANCE_MAX_LENGTH),
    oneLine(fields.information),
  ];
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/**
 * The club's payload (version 002, UTF-8, SEPA credit transfer): the club's account, the amount,
 * no purpose and no structured reference, and the reference as unstructured remittance text.
 * The name is cut to 70 characters and the reference to 140; when umlauts and the like would take
 * the whole payload over 331 bytes, the reference is cut further (the name and IBAN must stay whole).
 */
export function epcPayload(input: {
  bic: string | null;
  name: string;
  iban: string;
  amountCents: number;
  reference: string;
}): string {
  const fields: EpcFields = {
    version: '002',
    bic: input.bic ?? '',
    name: input.name,
    iban: input.iban,
    amountCents: input.amountCents,
    purpose: '',
    structuredReference: '',
    remittance: input.reference,
    information: '',
  };
  let payload = epcPayloadOf(fields);
  let remittance = [...cutToCharacters(oneLine(input.reference), EPC_REMITTANCE_MAX_LENGTH)];
  while (byteLength(payload) > EPC_PAYLOAD_MAX_BYTES && remittance.length > 0) {
    remittance = remittance.slice(0, -1);
    payload = epcPayloadOf({ ...fields, remittance: remittance.join('') });
  }
  return payload;
}

/** `2025-03-14` → `14.03.` (the day and month, as a fan names a match day). */
function dayAndMonth(date: string): string {
  const match = /^\d{4}-(\d{2})-(\d{2})/.exec(date);
  return match ? `${match[2]}.${match[1]}.` : date;
}

const ELLIPSIS = '...';
/** `, ...` closes a list that was cut. */
const SEPARATOR_AND_ELLIPSIS = 5;

/**
 * The transfer's reference, all in the SEPA character set (rules/paymentCode.ts): the member's payment
 * code, their name and the tickets they pay, e.g. `FK7Q3MK2W coco: Union - Bayern 14.03., 2x Hertha -
 * Union 02.04.` (several tickets of one event, e.g. for guests, are counted once with their number).
 * The code comes first, so that a bank that cuts the text keeps it. At most 140 characters: when the
 * tickets do not fit, the list ends with `...` after the last one that does.
 */
export function paymentReference(
  member: { id: string; username: string },
  tickets: { event_title: string; event_date: string }[],
): string {
  const head = `${paymentCodeOf(member.id)} ${toSepaText(oneLine(member.username))}`.trim();
  const counted = new Map<string, number>();
  for (const ticket of tickets) {
    const label = toSepaText(`${oneLine(ticket.event_title)} ${dayAndMonth(ticket.event_date)}`);
    counted.set(label, (counted.get(label) ?? 0) + 1);
  }
  const parts = [...counted].map(([label, count]) => (count > 1 ? `${count}x ${label}` : label));
  if (parts.length === 0) return head.slice(0, EPC_REMITTANCE_MAX_LENGTH);
  const full = `${head}: ${parts.join(', ')}`;
  if (full.length <= EPC_REMITTANCE_MAX_LENGTH) return full;
  let text = '';
  for (const part of parts) {
    const next = text ? `${text}, ${part}` : `${head}: ${part}`;
    if (next.length + SEPARATOR_AND_ELLIPSIS > EPC_REMITTANCE_MAX_LENGTH) break;
    text = next;
  }
  // Not even the first ticket fits (a very long name or title): the text itself is cut.
  if (!text) return `${full.slice(0, EPC_REMITTANCE_MAX_LENGTH - ELLIPSIS.length)}${ELLIPSIS}`;
  return `${text}, ${ELLIPSIS}`;
}
