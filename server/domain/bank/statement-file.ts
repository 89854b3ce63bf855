import { createHash } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';

/** One entry of a statement as the file gives it, money in minor units (every portal currency has 2 decimals). */
export interface StatementEntry {
  credit: boolean;
  amount: number;
  currency: string;
  /** YYYY-MM-DD */
  bookedOn: string;
  /** The remittance text (where the payer's reference should be). */
  text: string;
  payer: string | null;
  /** The bank's own reference of the entry, when the file gives one. */
  bankReference: string | null;
  /** The statement's account (IBAN), when the file gives it. */
  account: string | null;
}

export interface ParsedStatement {
  format: 'camt053' | 'csv';
  entries: StatementEntry[];
}

/** A file that is not a statement this reads; its message is the 422's. */
export class StatementFormatError extends Error {}

export const MAX_STATEMENT_LINES = 5000;
const UNREADABLE =
  'This file is not a bank statement we can read: upload an ISO 20022 CAMT.053 statement (XML) or a CSV with a ' +
  'header row naming a date, an amount and a reference or description column.';

/** Reads a statement: CAMT.053 when it is XML, else a bank's CSV. Refuses anything else with a clear message. */
export function parseStatement(text: string): ParsedStatement {
  const body = text.replace(/^\uFEFF/, '').trim();
  const parsed = body.startsWith('<') ? parseCamt053(body) : parseBankCsv(body);
  if (parsed.entries.length > MAX_STATEMENT_LINES) {
    throw new StatementFormatError(
      `The statement has ${parsed.entries.length} entries; at most 5,000 are read at once.`,
    );
  }
  return parsed;
}

const AMOUNT = /^-?\d{1,12}(\.\d{1,2})?$/;

/** '1,250.50', '1250.5', '-20.00' as minor units; a comma as the decimal mark when it is the only mark. */
function minorOf(raw: string): number | null {
  let s = raw.trim().replace(/[\s'£€$]/g, '');
  if (/^-?\d+,\d{1,2}$/.test(s)) s = s.replace(',', '.');
  else s = s.replace(/,(?=\d{3}(\D|$))/g, '');
  if (!AMOUNT.test(s)) return null;
  const negative = s.startsWith('-');
  const [whole, fraction = ''] = s.replace('-', '').split('.');
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return negative ? -minor : minor;
}

type Node = Record<string, unknown>;
const asArray = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const nodes = (v: unknown): Node[] => asArray(v).filter((n): n is Node => typeof n === 'object' && n !== null);
const textOf = (v: unknown): string => {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') return textOf((v as Record<string, unknown>)['#text']);
  return String(v).trim();
};

function parseCamt053(xml: string): ParsedStatement {
  // no document type: its entities are the way to a billion laughs, and no bank statement needs one
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new StatementFormatError(UNREADABLE);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    processEntities: false,
  });
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml, true) as Record<string, unknown>;
  } catch {
    throw new StatementFormatError(UNREADABLE);
  }
  const report = (doc.Document as Record<string, unknown> | undefined)?.BkToCstmrStmt as
    | Record<string, unknown>
    | undefined;
  if (!report) throw new StatementFormatError(UNREADABLE);
  const entries: StatementEntry[] = [];
  for (const stmt of nodes(report.Stmt)) {
    const acct = stmt.Acct as Record<string, Record<string, unknown>> | undefined;
    const account = textOf(acct?.Id?.IBAN) || textOf((acct?.Id?.Othr as Record<string, unknown>)?.Id) || null;
    for (const n of nodes(stmt.Ntry)) {
      const amt = n.Amt as Record<string, unknown> | string | undefined;
      const amount = minorOf(textOf(amt));
      const currency = typeof amt === 'object' ? textOf(amt['@Ccy']) : '';
      const booked = n.BookgDt as Record<string, unknown> | undefined;
      const bookedOn = (textOf(booked?.Dt) || textOf(booked?.DtTm)).slice(0, 10);
      if (amount === null || amount <= 0 || !/^[A-Z]{3}$/.test(currency) || !/^\d{4}-\d{2}-\d{2}$/.test(bookedOn)) {
        throw new StatementFormatError(`${UNREADABLE} An entry has no amount, currency or booking date.`);
      }
      const tx: Node = nodes((n.NtryDtls as Node | undefined)?.TxDtls)[0] ?? {};
      const rmt = tx.RmtInf as Record<string, unknown> | undefined;
      const structured = nodes(rmt?.Strd)
        .map((s) => textOf((s.CdtrRefInf as Record<string, unknown> | undefined)?.Ref))
        .filter(Boolean);
      const text = [...asArray(rmt?.Ustrd).map(textOf), ...structured].filter(Boolean).join(' ');
      const parties = tx.RltdPties as Record<string, Record<string, unknown>> | undefined;
      const debtor = parties?.Dbtr;
      const payer = textOf(debtor?.Nm) || textOf((debtor?.Pty as Record<string, unknown>)?.Nm) || null;
      const refs = tx.Refs as Record<string, unknown> | undefined;
      const bankReference = textOf(n.AcctSvcrRef) || textOf(refs?.AcctSvcrRef) || textOf(n.NtryRef) || null;
      entries.push({
        credit: textOf(n.CdtDbtInd) === 'CRDT',
        amount,
        currency,
        bookedOn,
        text: text.slice(0, 500),
        payer: payer?.slice(0, 200) ?? null,
        bankReference: bankReference?.slice(0, 100) ?? null,
        account,
      });
    }
  }
  return { format: 'camt053', entries };
}

/** Header names banks use, lower case without spaces or punctuation. */
const COLUMNS = {
  date: ['date', 'bookingdate', 'bookeddate', 'transactiondate', 'valuedate', 'postingdate'],
  amount: ['amount', 'value', 'transactionamount'],
  credit: ['credit', 'paidin', 'moneyin', 'creditamount'],
  debit: ['debit', 'paidout', 'moneyout', 'debitamount'],
  currency: ['currency', 'ccy', 'currencycode'],
  text: ['reference', 'description', 'details', 'remittanceinformation', 'narrative', 'paymentreference', 'memo'],
  payer: ['payer', 'name', 'counterparty', 'payername', 'from', 'debtor', 'counterpartyname'],
  bankReference: ['transactionid', 'bankreference', 'entryreference', 'id', 'transactionreference'],
} as const;
const norm = (h: string) => h.toLowerCase().replace(/[^a-z]/g, '');

/** '2026-11-27', '27/11/2026', '27.11.2026' as YYYY-MM-DD. */
function dayOf(raw: string): string | null {
  const s = raw.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const eu = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(s);
  if (eu) return `${eu[3]}-${(eu[2] ?? '').padStart(2, '0')}-${(eu[1] ?? '').padStart(2, '0')}`;
  return null;
}

function parseBankCsv(text: string): ParsedStatement {
  let rows: string[][];
  try {
    const first = text.split(/\r?\n/, 1)[0] ?? '';
    const delimiter = (first.match(/;/g) ?? []).length > (first.match(/,/g) ?? []).length ? ';' : ',';
    rows = parseCsv(text, { delimiter, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch {
    throw new StatementFormatError(UNREADABLE);
  }
  const header = (rows[0] ?? []).map(norm);
  const find = (names: readonly string[]) => header.findIndex((h) => names.includes(h));
  const col = Object.fromEntries(Object.entries(COLUMNS).map(([k, names]) => [k, find(names)])) as Record<
    keyof typeof COLUMNS,
    number
  >;
  const hasMoney = col.amount >= 0 || col.credit >= 0;
  if (col.date < 0 || !hasMoney || col.text < 0) throw new StatementFormatError(UNREADABLE);
  const entries: StatementEntry[] = [];
  for (const [i, row] of rows.slice(1).entries()) {
    const cell = (c: number) => (c >= 0 ? (row[c] ?? '').trim() : '');
    const bookedOn = dayOf(cell(col.date));
    let amount: number | null;
    if (col.amount >= 0) amount = minorOf(cell(col.amount));
    else if (cell(col.credit)) amount = minorOf(cell(col.credit));
    else amount = cell(col.debit) ? -Math.abs(minorOf(cell(col.debit)) ?? Number.NaN) : null;
    if (bookedOn === null || amount === null || Number.isNaN(amount)) {
      throw new StatementFormatError(`Row ${i + 2} of the CSV has no date or amount we can read.`);
    }
    entries.push({
      credit: amount > 0,
      amount: Math.abs(amount),
      currency: (cell(col.currency) || 'GBP').toUpperCase(),
      bookedOn,
      text: cell(col.text).slice(0, 500),
      payer: cell(col.payer).slice(0, 200) || null,
      bankReference: cell(col.bankReference).slice(0, 100) || null,
      account: null,
    });
  }
  return { format: 'csv', entries };
}

/**
 * Each entry's identity: the bank's entry reference on its account, else a hash of everything the line says and
 * its place among the lines that say the same (two equal transfers on one day are two lines; the same file read
 * again gives the same keys).
 */
export function lineKeys(entries: readonly StatementEntry[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    if (e.bankReference) return `ref:${sha(`${e.account ?? ''}|${e.bankReference}`)}`;
    const body = [e.account ?? '', e.bookedOn, e.amount, e.currency, e.text, e.payer ?? ''].join('|');
    const n = (seen.get(body) ?? 0) + 1;
    seen.set(body, n);
    return `hash:${sha(`${body}|${n}`)}`;
  });
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 64);
