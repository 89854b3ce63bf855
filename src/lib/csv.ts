/** One column of a CSV: its heading and how a row gives its cell. */
export interface CsvColumn<Row> {
  heading: string;
  cell: (row: Row) => string | number | null;
}

/**
 * RFC 4180 text: cells with a comma, a quote or a line break are quoted (quotes doubled). A cell that a
 * spreadsheet would run as a formula (=, +, -, @, tab or carriage return first) is written with a leading
 * apostrophe, except plain numbers.
 */
export function toCsv<Row>(rows: readonly Row[], columns: readonly CsvColumn<Row>[]): string {
  const cellText = (value: string | number | null) => {
    if (value === null) return '';
    let text = String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [columns.map((c) => cellText(c.heading)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cellText(c.cell(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Hands the text to the browser as a file download. */
export function downloadCsv(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
