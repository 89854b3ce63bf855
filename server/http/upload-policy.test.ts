import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { damaged, sampleFile, scriptedPdf } from '../harness/files';
import { decidePending } from '../quotas/testing';
import { freshServer } from '../test-support';
import { FILE_MESSAGES } from './file-checks';
import { cleanFileName, contentDisposition, nameForKind } from './file-names';

/**
 * One policy for every upload, through the product's own calls on a real database: a file's name read as the
 * browser wrote it (UTF-8) and cleaned of what cannot be seen; its content checked whole, the same for a
 * deposit's proof, a KYC document and a ticket; and its download named by the kind its bytes showed.
 */
type Server = Awaited<ReturnType<typeof freshServer>>;

const bytesOf = (kind: string) => Buffer.from(sampleFile(kind)?.bytes ?? []);
const PDF = bytesOf('pdf');
const PNG = bytesOf('png');
const JPG = bytesOf('jpg');

/** A multipart body as a browser writes it: the file's name in UTF-8 bytes inside `filename="..."`. */
function multipart(fields: Record<string, string>, file: { field: string; name: string; type: string; bytes: Buffer }) {
  const boundary = `----sbpolicy${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="${file.field}"; filename="${file.name}"\r\ncontent-type: ${file.type}\r\n\r\n`,
      'utf8',
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

describe('uploads: names, content and downloads (one policy for every file field)', () => {
  let s: Server;
  let seller: string;
  let held: string;
  let admin: string;
  let keys = 0;
  const uploads = () => readdirSync(join(s.dataDir, 'uploads')).length;

  beforeAll(async () => {
    s = await freshServer();
    [seller, held, admin] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('newseller@demo.test'),
      s.loginAs('admin@demo.test'),
    ]);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function send(
    path: string,
    token: string,
    fields: Record<string, string>,
    file: Parameters<typeof multipart>[1],
  ) {
    const { body, type } = multipart(fields, file);
    const res = await s.app.request(`/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': `policy-${++keys}` },
      body,
    });
    return { status: res.status, body: (await res.json()) as { message?: string; data?: Record<string, unknown> } };
  }
  // the earlier requests decided first: a seller may keep only a few pending (QUOTAS['pending-deposits'])
  const deposit = async (name: string, bytes: Buffer, type = 'application/pdf') => {
    await decidePending(s.db);
    return send(
      '/api/send-deposit-request',
      seller,
      { deposit_amount: '1000', currency: 'GBP', payment_transfer_by: 'ONLINE' },
      { field: 'proof', name, type, bytes },
    );
  };
  const photoId = (name: string, bytes: Buffer, type = 'image/png') =>
    send('/api/save-photo-id', held, {}, { field: 'file', name, type, bytes });
  async function proofOf(depositId: unknown, token = seller) {
    const path = token === admin ? `/admin/deposits/${depositId}/proof` : `/lmt-pay/deposits/${depositId}/proof`;
    const res = await s.json('GET', path, undefined, token);
    return ((await res.json()) as { data: { name: string; mime: string; kind: string } }).data;
  }

  it("keeps a name beyond ASCII as the browser wrote it: 'Müller-билет.pdf' comes back itself", async () => {
    const res = await deposit('Müller-билет.pdf', PDF);
    expect(res.status).toBe(200);
    const id = res.body.data?.deposit_id;
    expect((await proofOf(id)).name).toBe('Müller-билет.pdf');
    expect((await proofOf(id, admin)).name).toBe('Müller-билет.pdf');
  });

  it('strips C1 controls, bidi overrides and isolates and invisible characters from a stored name', async () => {
    for (const [sent, kept] of [
      ['invoice\u202Egnp.pdf', 'invoicegnp.pdf'],
      ['re\u200Bport\u2066 \u2069final\u0085.pdf', 'report final.pdf'],
      ['\u00A0\u3000 two\u00A0 spaces\u2028.pdf', 'two spaces.pdf'],
      ['\u202E\u200B\uFEFF.pdf', 'document.pdf'],
    ] as const) {
      const res = await deposit(sent, PDF);
      expect(res.status, JSON.stringify(sent)).toBe(200);
      expect((await proofOf(res.body.data?.deposit_id)).name, JSON.stringify(sent)).toBe(kept);
    }
  });

  it('names a download by the kind its bytes showed: poly.html stored as a PDF downloads as poly.pdf', async () => {
    const res = await deposit('poly.html', PDF, 'text/html');
    expect(res.status).toBe(200);
    const proof = await proofOf(res.body.data?.deposit_id, admin);
    expect(proof).toMatchObject({ name: 'poly.pdf', mime: 'application/pdf', kind: 'pdf' });
    const photo = await photoId('passport.svg', PNG, 'image/svg+xml');
    expect(photo.status).toBe(200);
    const read = await s.json('GET', '/auth/photo-id', undefined, held);
    expect(((await read.json()) as { data: { name: string; mime: string } }).data).toMatchObject({
      name: 'passport.png',
      mime: 'image/png',
    });
  });

  it('refuses a PDF with JavaScript for a deposit proof and a KYC document, as for a ticket, keeping nothing', async () => {
    const before = uploads();
    const scripted = Buffer.from(
      scriptedPdf({ kind: 'pdf', name: 'x.pdf', type: 'application/pdf', bytes: PDF })?.bytes ?? [],
    );
    const proof = await deposit('statement.pdf', scripted);
    expect(proof).toMatchObject({ status: 422, body: { message: FILE_MESSAGES.pdfJavaScript } });
    const kyc = await send(
      '/api/save-address-id',
      held,
      {},
      {
        field: 'file',
        name: 'bill.pdf',
        type: 'application/pdf',
        bytes: scripted,
      },
    );
    expect(kyc).toMatchObject({ status: 422, body: { message: FILE_MESSAGES.pdfJavaScript } });
    expect(uploads()).toBe(before);
  });

  it("refuses a PDF cut short ('%PDF-1.' alone) and images that do not decode, keeping nothing", async () => {
    const before = uploads();
    expect(await deposit('cut.pdf', Buffer.from('%PDF-1.'))).toMatchObject({
      status: 422,
      body: { message: FILE_MESSAGES.pdfDamaged },
    });
    const half = PDF.subarray(0, PDF.length - 20);
    expect((await deposit('half.pdf', half)).status).toBe(422);
    for (const [kind, bytes, type] of [
      ['png', PNG, 'image/png'],
      ['jpg', JPG, 'image/jpeg'],
    ] as const) {
      const bad = damaged({ kind, name: `x.${kind}`, type, bytes });
      const res = await photoId(`scan.${kind}`, Buffer.from(bad?.bytes ?? []), type);
      expect(res, kind).toMatchObject({ status: 422, body: { message: FILE_MESSAGES.imageDamaged } });
      const proof = await deposit(`receipt.${kind}`, Buffer.from(bad?.bytes ?? []), type);
      expect(proof.status, kind).toBe(422);
    }
    // a PNG whose image data was changed in transit fails its checksum
    const flipped = Buffer.from(PNG);
    flipped[45] = (flipped[45] as number) ^ 0xff;
    expect((await photoId('flipped.png', flipped)).status).toBe(422);
    expect(uploads()).toBe(before);
    // the genuine ones pass
    expect((await photoId('scan.jpg', JPG, 'image/jpeg')).status).toBe(200);
  });
});

describe('file names', () => {
  it('cleans to nothing unseen, and never to an empty name once a kind names it', () => {
    expect(cleanFileName('../../etc/x\u0000\u0007.pdf')).toBe('x.pdf');
    expect(cleanFileName('C:\\Users\\me\\scan.png')).toBe('scan.png');
    expect(cleanFileName('👩\u200D👩\u200D👧.png')).toBe('👩\u200D👩\u200D👧.png');
    expect(cleanFileName('..')).toBe('');
    expect(nameForKind('', 'pdf')).toBe('document.pdf');
    expect(nameForKind('\u202E', 'png')).toBe('image.png');
    expect(nameForKind('.pdf', 'pdf')).toBe('document.pdf');
    expect(nameForKind('scan.JPEG', 'jpg')).toBe('scan.JPEG');
    expect(nameForKind('Report v1.2', 'pdf')).toBe('Report v1.2.pdf');
    expect(nameForKind('a'.repeat(300), 'pdf').length).toBeLessThanOrEqual(210);
    expect([...cleanFileName(`${'б'.repeat(300)}.pdf`)]).toHaveLength(200);
    expect(cleanFileName(`${'б'.repeat(300)}.pdf`).endsWith('.pdf')).toBe(true);
  });

  it('makes a Content-Disposition with an RFC 8187 filename* beyond ASCII, and an ASCII stand-in', () => {
    expect(contentDisposition('report.pdf')).toBe('attachment; filename="report.pdf"');
    expect(contentDisposition('Müller-билет.pdf')).toBe(
      `attachment; filename="Muller-_____.pdf"; filename*=UTF-8''M%C3%BCller-%D0%B1%D0%B8%D0%BB%D0%B5%D1%82.pdf`,
    );
    expect(contentDisposition('a "quoted" (name).pdf', 'inline')).toBe(
      `inline; filename="a _quoted_ (name).pdf"; filename*=UTF-8''a%20%22quoted%22%20%28name%29.pdf`,
    );
  });
});
