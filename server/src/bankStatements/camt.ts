import { XMLParser } from 'fast-xml-parser';
import { centsOf, ibanOf, isoDateOf, oneLine } from './amounts.js';
import { StatementUnreadable, type ParsedStatement, type StatementLine } from './types.js';

/*
 * CAMT.053 (BankToCustomerStatement) and CAMT.052 (BankToCustomerAccountReport), ISO 20022 XML in
 * versions 001.02 to 001.08 as German banks deliver them. The elements this import reads have the
 * same names and places in all of them but one: the payer's name moved from `Dbtr/Nm` to
 * `Dbtr/Pty/Nm` in version 08. An entry (`Ntry`) may hold several transactions (`TxDtls`, a batch):
 * each becomes a line of its own.
 */

type Node = Record<string, unknown>;

/** Elements that may repeat, read as arrays even when a file has one. */
const REPEATING = new Set(['Stmt', 'Rpt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => REPEATING.has(name),
  // A statement names no entities of its own: nothing to expand (and no way to blow up).
  processEntities: false,
});

const child = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Node)[key] : undefined), node);
const text = (node: unknown, ...path: string[]): string => {
  const value = child(node, ...path);
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as Node)['#text'] === 'string')
    return (value as Node)['#text'] as string;
  return '';
};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** `camt.053` or `camt.052` when the XML is one of them, else null. */
export function camtFormatOf(xml: string): 'camt.053' | 'camt.052' | null {
  const head = xml.slice(0, 2000);
  if (/urn:iso:std:iso:20022:tech:xsd:camt\.053/.test(head) || /<(\w+:)?BkToCstmrStmt[\s>]/.test(xml)) return 'camt.053';
  if (/urn:iso:std:iso:20022:tech:xsd:camt\.052/.test(head) || /<(\w+:)?BkToCstmrAcctRpt[\s>]/.test(xml)) return 'camt.052';
  return null;
}

export function parseCamt(xml: string): ParsedStatement {
  const format = camtFormatOf(xml);
  if (!format) throw new StatementUnreadable('no CAMT.052 or CAMT.053 document');
  let document: unknown;
  try {
    document = child(parser.parse(xml, true), 'Document');
  } catch (error) {
    throw new StatementUnreadable(`broken XML: ${(error as Error).message.split('\n')[0]}`);
  }
  const root = format === 'camt.053' ? child(document, 'BkToCstmrStmt') : child(document, 'BkToCstmrAcctRpt');
  if (!root) throw new StatementUnreadable('no statement in the document');
  const reports = list(child(root, format === 'camt.053' ? 'Stmt' : 'Rpt'));
  const lines = reports.flatMap((report) => list(child(report, 'Ntry')).flatMap(linesOfEntry));
  return { format, lines };
}

/** The credits of one entry: one line per transaction of a batch, or the entry itself. */
function linesOfEntry(entry: unknown): StatementLine[] {
  if (text(entry, 'CdtDbtInd') !== 'CRDT' || text(entry, 'RvslInd') === 'true') return [];
  // Booked entries only: a report (052) also lists pending ones, which may still change.
  const status = text(entry, 'Sts') || text(entry, 'Sts', 'Cd');
  if (status && status !== 'BOOK') return [];
  const bookedOn = isoDateOf(text(entry, 'BookgDt', 'Dt') || text(entry, 'BookgDt', 'DtTm') || text(entry, 'ValDt', 'Dt'));
  const entryRef = text(entry, 'AcctSvcrRef');
  const transactions = list(child(entry, 'NtryDtls')).flatMap((details) => list(child(details, 'TxDtls')));
  const entryAmount = child(entry, 'Amt');
  if (transactions.length <= 1) {
    const transaction = transactions[0];
    return [lineOf(bookedOn, entryAmount, transaction, { entryRef, batchRef: '' })];
  }
  // A batch's transactions without references of their own are told apart by their place in it.
  return transactions.map((transaction, i) => {
    const amount = child(transaction, 'AmtDtls', 'TxAmt', 'Amt') ?? child(transaction, 'Amt') ?? entryAmount;
    return lineOf(bookedOn, amount, transaction, { entryRef: '', batchRef: entryRef ? `${entryRef}/${i + 1}` : '' });
  });
}

/**
 * The bank's reference: the transaction's AcctSvcrRef, else the entry's (a single transaction),
 * else the EndToEndId, else the batch entry's with the transaction's place in it.
 */
function lineOf(
  bookedOn: string,
  amount: unknown,
  transaction: unknown,
  refs: { entryRef: string; batchRef: string },
): StatementLine {
  const currency = (amount && typeof amount === 'object' ? String((amount as Node)['@Ccy'] ?? '') : '') || 'EUR';
  const debtor = child(transaction, 'RltdPties', 'Dbtr');
  const endToEnd = text(transaction, 'Refs', 'EndToEndId');
  return {
    booked_on: bookedOn,
    amount_cents: centsOf(text(amount), '.'),
    currency,
    name: oneLine(text(debtor, 'Nm') || text(debtor, 'Pty', 'Nm') || text(transaction, 'RltdPties', 'UltmtDbtr', 'Nm')),
    iban: ibanOf(text(transaction, 'RltdPties', 'DbtrAcct', 'Id', 'IBAN')),
    purpose: oneLine(
      list(child(transaction, 'RmtInf', 'Ustrd'))
        .map((part) => (typeof part === 'string' ? part : text(part)))
        .join(' '),
    ),
    bank_ref:
      text(transaction, 'Refs', 'AcctSvcrRef') ||
      refs.entryRef ||
      (endToEnd && endToEnd !== 'NOTPROVIDED' ? endToEnd : '') ||
      refs.batchRef,
  };
}
