/**
 * A one-page PDF of plain text lines (Helvetica 10 pt, A4), written by hand: the sandbox signer's signed
 * contract. Lines are cut to 95 characters and the text kept to printable ASCII (the standard font's encoding).
 */
export function textPdf(lines: readonly string[]): Buffer {
  const safe = (line: string) =>
    line
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '?')
      .replace(/[\\()]/g, (c) => `\\${c}`)
      .slice(0, 95);
  const body = lines
    .slice(0, 70)
    .map((line, i) => `BT /F1 10 Tf 50 ${800 - i * 11} Td (${safe(line)}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
