import ExcelJS from 'exceljs';
import type { Db } from '../../db/database';
import { amountText } from '../purchase/pricing';
import { COLUMNS, CURRENCIES, EXAMPLE_ROWS, MAX_BULK_ROWS } from './bulk-columns';
import {
  MAX_PRICE,
  MAX_QUANTITY,
  MIN_PRICE,
  RESTRICTIONS,
  SPLIT_LABELS,
  SPLIT_TYPES,
  STADIUM_LAYOUT,
  TICKET_TYPE_NAMES,
  todayOf,
} from './rules';

const TEMPLATE_ROWS = MAX_BULK_ROWS + 1;

const matchLabel = (e: { id: number; name: string; event_date: string }) => `${e.id} | ${e.name} | ${e.event_date}`;

/**
 * The template workbook: sheet 'Listings' (the columns, two example rows, drop-down lists by data validation),
 * 'Matches' (the upcoming matches the Match column takes) and 'Lists' (the drop-downs' values).
 */
export async function templateWorkbook(db: Db, now: Date): Promise<Buffer> {
  const events = await db
    .selectFrom('events')
    .select(['id', 'name', 'event_date', 'event_time', 'stadium_name'])
    .where('event_date', '>=', todayOf(now))
    .orderBy('event_date')
    .orderBy('event_time')
    .orderBy('id')
    .limit(2_000)
    .execute();
  const wb = new ExcelJS.Workbook();
  wb.creator = 'SB Portal';
  wb.created = now;
  const sheet = wb.addWorksheet('Listings', { views: [{ state: 'frozen', ySplit: 1 }] });
  const matches = wb.addWorksheet('Matches');
  const lists = wb.addWorksheet('Lists');

  sheet.columns = COLUMNS.map((c) => ({ header: c.header, key: c.field, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  const typeNames = Object.values(TICKET_TYPE_NAMES);
  const splitNames = SPLIT_TYPES.map((s) => SPLIT_LABELS[s]);
  for (const [i, e] of events.slice(0, EXAMPLE_ROWS.length).entries()) {
    const x = EXAMPLE_ROWS[i] as (typeof EXAMPLE_ROWS)[number];
    sheet.addRow([
      matchLabel(e),
      x.category,
      x.ticket_block,
      x.row,
      x.seats ?? '',
      TICKET_TYPE_NAMES[x.ticket_type_id],
      x.quantity,
      SPLIT_LABELS[x.split_type],
      x.price / 100,
      x.face_value === undefined ? null : x.face_value / 100,
      x.currency,
      x.restrictions.join(','),
      x.notes,
    ]);
  }

  matches.columns = [
    { header: 'Match', key: 'label', width: 60 },
    { header: 'Date', key: 'date', width: 12 },
    { header: 'Kick-off', key: 'time', width: 10 },
    { header: 'Stadium', key: 'stadium', width: 30 },
  ];
  matches.getRow(1).font = { bold: true };
  for (const e of events) {
    matches.addRow({ label: matchLabel(e), date: e.event_date, time: e.event_time, stadium: e.stadium_name });
  }

  const columns: [string, readonly string[]][] = [
    ['Category', STADIUM_LAYOUT.map((c) => c.name)],
    ['Ticket Type', typeNames],
    ['Split', splitNames],
    ['Currency', CURRENCIES],
    ['Restrictions', RESTRICTIONS],
  ];
  lists.columns = columns.map(([header]) => ({ header, width: 26 }));
  lists.getRow(1).font = { bold: true };
  const longest = Math.max(...columns.map(([, v]) => v.length));
  for (let r = 0; r < longest; r++) lists.addRow(columns.map(([, v]) => v[r] ?? null));
  const listRange = (col: string, n: number) => [`Lists!$${col}$2:$${col}$${n + 1}`];

  const validate = (letter: string, v: ExcelJS.DataValidation) => {
    (
      sheet as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }
    ).dataValidations.add(`${letter}2:${letter}${TEMPLATE_ROWS}`, {
      showErrorMessage: true,
      errorStyle: 'error',
      ...v,
    });
  };
  validate('A', {
    type: 'list',
    allowBlank: false,
    formulae: [`Matches!$A$2:$A$${Math.max(2, events.length + 1)}`],
    errorTitle: 'Match',
    error: 'Pick a match from the list (sheet Matches).',
  });
  validate('B', { type: 'list', allowBlank: false, formulae: listRange('A', STADIUM_LAYOUT.length) });
  validate('F', { type: 'list', allowBlank: false, formulae: listRange('B', typeNames.length) });
  validate('H', { type: 'list', allowBlank: false, formulae: listRange('C', splitNames.length) });
  validate('K', { type: 'list', allowBlank: false, formulae: listRange('D', CURRENCIES.length) });
  validate('G', {
    type: 'whole',
    operator: 'between',
    allowBlank: false,
    formulae: [1, MAX_QUANTITY],
    error: `A whole number from 1 to ${MAX_QUANTITY}.`,
  });
  // the price per ticket (I) from the least price, the face value (J) from 0.01
  for (const [letter, least] of [
    ['I', MIN_PRICE],
    ['J', 1],
  ] as const) {
    validate(letter, {
      type: 'decimal',
      operator: 'between',
      allowBlank: letter === 'J',
      formulae: [least / 100, MAX_PRICE / 100],
      error: `An amount from ${amountText(least)} to ${amountText(MAX_PRICE)} with at most two decimals.`,
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
