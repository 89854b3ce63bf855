import { amountText } from '../purchase/pricing';
import { type BulkRowError, type Cell, COLUMNS, type Column, CURRENCIES, type ParsedRow } from './bulk-columns';
import type { NewListing } from './checks';
import {
  CATEGORY_NAMES,
  type CurrencyCode,
  type ListingRestriction,
  MAX_PRICE,
  MAX_QUANTITY,
  MIN_PRICE,
  RESTRICTIONS,
  SPLIT_LABELS,
  SPLIT_TYPES,
  type SplitType,
  TICKET_TYPE_NAMES,
} from './rules';

/** One row of a file as read: its listing, or the problems that refuse it. */
export interface RowVerdict {
  row: number;
  listing: NewListing | null;
  problems: BulkRowError[];
}

const DECIMAL = /^\d{1,9}(\.\d{1,2})?$/;
const INTEGER = /^\d{1,9}$/;
export const clip = (s: string) => (s.length > 200 ? s.slice(0, 200) : s);

/**
 * Reads every row into a listing, or its problems (row, column, value, message), by the rules a row can be judged
 * by alone; the header's problems are the file's. Pure: the database's rules come after (bulk-plan.ts).
 */
export function parseRows(file: { header: Cell[]; rows: ParsedRow[] }): {
  fileErrors: BulkRowError[];
  rows: RowVerdict[];
} {
  const errors: BulkRowError[] = [];
  const headerText = file.header.map((h) => (typeof h === 'string' ? h.trim().toLowerCase() : ''));
  const position = new Map<Column, number>();
  for (const c of COLUMNS) {
    const at = headerText.indexOf(c.header.toLowerCase());
    if (at < 0) errors.push({ row: 1, column: c.header, value: '', message: `The column '${c.header}' is missing.` });
    else if (headerText.indexOf(c.header.toLowerCase(), at + 1) >= 0) {
      errors.push({ row: 1, column: c.header, value: c.header, message: `The column '${c.header}' appears twice.` });
    } else position.set(c.header, at);
  }
  const known = new Set(COLUMNS.map((c) => c.header.toLowerCase()));
  for (const [i, h] of headerText.entries()) {
    if (h !== '' && !known.has(h)) {
      errors.push({
        row: 1,
        column: '',
        value: clip(String(file.header[i])),
        message: `Unknown column; the template's columns are ${COLUMNS.map((c) => c.header).join(', ')}.`,
      });
    }
  }
  if (errors.length > 0) return { fileErrors: errors, rows: [] };
  if (file.rows.length === 0) {
    return { fileErrors: [{ row: 2, column: '', value: '', message: 'The file has no listings.' }], rows: [] };
  }

  const verdicts: RowVerdict[] = [];
  const typeByName = new Map(Object.entries(TICKET_TYPE_NAMES).map(([id, name]) => [name.toLowerCase(), Number(id)]));
  const splitByName = new Map<string, SplitType>(
    SPLIT_TYPES.flatMap((s) => [
      [s, s],
      [SPLIT_LABELS[s].toLowerCase(), s],
    ]),
  );
  for (const r of file.rows) {
    const problems: BulkRowError[] = [];
    const raw = (c: Column) => r.cells[position.get(c) as number] ?? null;
    const text = (c: Column): string | null => {
      const v = raw(c);
      if (v !== null && typeof v === 'object') {
        problems.push({
          row: r.row,
          column: c,
          value: '',
          message: 'Formulas are not accepted: type the value itself.',
        });
        return null;
      }
      return v === null || v.trim() === '' ? null : v;
    };
    const fail = (c: Column, value: string, message: string) =>
      problems.push({ row: r.row, column: c, value: clip(value), message });
    const required = (c: Column) => {
      const v = text(c);
      if (v === null && !problems.some((p) => p.column === c)) fail(c, '', 'is required');
      return v;
    };
    const bounded = (c: Column, v: string | null, max: number) => {
      if (v !== null && v.length > max) fail(c, v, `must be at most ${max} characters`);
      return v;
    };
    const money = (c: Column, v: string | null, least = 1): number | undefined => {
      if (v === null) return undefined;
      const t = v.trim();
      if (!DECIMAL.test(t)) {
        fail(c, v, 'must be an amount with at most two decimals, e.g. 125.50');
        return undefined;
      }
      const [units, cents = ''] = t.split('.');
      const minor = Number(units) * 100 + Number(cents.padEnd(2, '0'));
      if (minor < least || minor > MAX_PRICE)
        fail(c, v, `must be from ${amountText(least)} to ${amountText(MAX_PRICE)}`);
      return minor;
    };

    const matchText = required('Match');
    let matchId: number | undefined;
    if (matchText !== null) {
      const m = /^\s*(\d{1,10})\s*(\|.*)?$/s.exec(matchText);
      const id = m ? Number(m[1]) : Number.NaN;
      if (!m || id < 1 || id > 2 ** 31 - 1)
        fail('Match', matchText, "must be a match's id, or a match picked from the list");
      else matchId = id;
    }
    const category = bounded('Category', required('Category'), 100);
    if (category !== null && category.length <= 100 && !CATEGORY_NAMES.has(category)) {
      fail('Category', category, `must be one of the stadium's categories: ${[...CATEGORY_NAMES].join(', ')}`);
    }
    const block = bounded('Block', required('Block'), 50);
    const rowText = bounded('Row', required('Row'), 20);
    const seats = bounded('Seats', text('Seats'), 100);
    const typeText = required('Ticket Type');
    let ticketType: number | undefined;
    if (typeText !== null) {
      const t = typeText.trim();
      ticketType = /^[1-6]$/.test(t) ? Number(t) : typeByName.get(t.toLowerCase());
      if (ticketType === undefined)
        fail('Ticket Type', typeText, `must be one of ${Object.values(TICKET_TYPE_NAMES).join(', ')}`);
    }
    const quantityText = required('Quantity');
    let quantity: number | undefined;
    if (quantityText !== null) {
      const t = quantityText.trim();
      quantity = INTEGER.test(t) ? Number(t) : undefined;
      if (quantity === undefined || quantity < 1 || quantity > MAX_QUANTITY) {
        fail('Quantity', quantityText, `must be a whole number from 1 to ${MAX_QUANTITY.toLocaleString('en-GB')}`);
        quantity = undefined;
      }
    }
    const splitText = required('Split');
    const split = splitText === null ? undefined : splitByName.get(splitText.trim().toLowerCase());
    if (splitText !== null && split === undefined) {
      fail('Split', splitText, `must be one of ${SPLIT_TYPES.map((s) => SPLIT_LABELS[s]).join(', ')}`);
    }
    const price = money('Price', required('Price'), MIN_PRICE);
    const faceValue = money('Face Value', text('Face Value'));
    const currencyText = required('Currency');
    const currency = currencyText?.trim().toUpperCase() as CurrencyCode | undefined;
    if (currencyText !== null && !CURRENCIES.includes(currency as CurrencyCode)) {
      fail('Currency', currencyText, `must be one of ${CURRENCIES.join(', ')}`);
    }
    const restrictionText = text('Restrictions');
    const restrictions: ListingRestriction[] = [];
    if (restrictionText !== null) {
      for (const part of restrictionText
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        if (!(RESTRICTIONS as readonly string[]).includes(part)) {
          fail('Restrictions', restrictionText, `'${clip(part)}' is not one of ${RESTRICTIONS.join(', ')}`);
        } else if (restrictions.includes(part as ListingRestriction)) {
          fail('Restrictions', restrictionText, `'${part}' is given twice`);
        } else restrictions.push(part as ListingRestriction);
      }
    }
    const notes = bounded('Notes', text('Notes'), 1000);

    if (problems.length > 0) {
      verdicts.push({ row: r.row, listing: null, problems });
      continue;
    }
    verdicts.push({
      row: r.row,
      problems,
      listing: {
        match_id: matchId as number,
        category: category as string,
        ticket_block: block as string,
        row: rowText as string,
        seats: seats ?? undefined,
        ticket_type_id: ticketType as NewListing['ticket_type_id'],
        quantity: quantity as number,
        split_type: split as SplitType,
        price: price as number,
        face_value: faceValue,
        currency: currency as CurrencyCode,
        restrictions,
        notes: notes ?? undefined,
        publish: true,
      },
    });
  }
  return { fileErrors: [], rows: verdicts };
}
