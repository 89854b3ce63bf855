import { crc32 } from 'node:zlib';

/**
 * Small real files of each kind an upload may declare, so that a type check by the first bytes (file-type)
 * recognises them; and the ways to lie about a file.
 */

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A 2x2 white JPEG (baseline, as jpeg-js encodes it): a whole image, its end-of-image marker included. */
const JPEG_MIN = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wCEABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2MBERISGBUYLxoaL2NCOEJjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY//AABEIAAIAAgMBEQACEQEDEQH/xAGiAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+gEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoLEQACAQIEBAMEBwUEBAABAncAAQIDEQQFITEGEkFRB2FxEyIygQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery8/T19vf4+fr/2gAMAwEAAhEDEQA/APQKAP8A/9k=',
  'base64',
);
const PDF_MIN = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const WEBP_MIN = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from('WEBPVP8L'),
  Buffer.from([0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00]),
]);

/** A ZIP with stored (uncompressed) entries: enough for file-type to tell xlsx or pkpass by their entries. */
export function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const XLSX_MIN = () =>
  zipOf({
    '[Content_Types].xml':
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    'xl/workbook.xml': '<?xml version="1.0"?><workbook/>',
  });

export interface SampleFile {
  kind: string;
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** A small genuine file of a kind (pdf, jpg, jpeg, png, webp, csv, xlsx, pkpass); null for a kind we cannot make. */
export function sampleFile(kind: string): SampleFile | null {
  const make = (bytes: Buffer, type: string) => ({ kind, name: `sample.${kind}`, type, bytes: new Uint8Array(bytes) });
  switch (kind) {
    case 'pdf':
      return make(PDF_MIN, 'application/pdf');
    case 'png':
      return make(PNG_1X1, 'image/png');
    case 'jpg':
    case 'jpeg':
      return make(JPEG_MIN, 'image/jpeg');
    case 'webp':
      return make(WEBP_MIN, 'image/webp');
    case 'csv':
      return make(Buffer.from('event,quantity,price\nFinal,2,15000\n'), 'text/csv');
    case 'xlsx':
      return make(XLSX_MIN(), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    case 'pkpass':
      return make(zipOf({ 'pass.json': '{}', 'manifest.json': '{}' }), 'application/vnd.apple.pkpass');
    default:
      return null;
  }
}

/** The same file grown to `size` bytes (its first bytes, and so its type, unchanged). */
export function padded(file: SampleFile, size: number): SampleFile {
  const bytes = new Uint8Array(size);
  bytes.set(file.bytes.subarray(0, Math.min(file.bytes.length, size)));
  return { ...file, name: `big.${file.kind}`, bytes };
}

/** Text that claims to be a file of this kind by its name and type, with nothing of it in its bytes. */
export function impostor(file: SampleFile): SampleFile {
  return {
    ...file,
    name: `fake.${file.kind}`,
    bytes: new Uint8Array(Buffer.from('MZ\x90\x00 this is not what it says it is')),
  };
}

/**
 * The same kind's first bytes with the rest of it missing or spoiled: what the content checks refuse with 422
 * (server/http/file-checks.ts), whatever the call. Its kind is still read from its first bytes.
 */
export function damaged(file: SampleFile): SampleFile | null {
  const b = Buffer.from(file.bytes);
  let bytes: Buffer;
  switch (file.kind) {
    case 'pdf':
      bytes = Buffer.from('%PDF-1.');
      break;
    case 'jpg':
    case 'jpeg':
    case 'png':
    case 'webp':
      bytes = b.subarray(0, Math.max(24, b.length - 12));
      break;
    default:
      return null;
  }
  return { ...file, name: `damaged.${file.kind}`, bytes: new Uint8Array(bytes) };
}

/** A PDF that runs JavaScript when opened (an OpenAction), written with #xx escapes as a hostile one would be. */
export function scriptedPdf(file: SampleFile): SampleFile | null {
  if (file.kind !== 'pdf') return null;
  const text =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R/OpenAction 3 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    '3 0 obj<</S/J#61vaScript/J#53(app.alert(1))>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
  return { ...file, name: 'scripted.pdf', bytes: new Uint8Array(Buffer.from(text)) };
}

/** The kinds a multipart file field accepts: from `encoding.<field>.contentType` or the field's `x-file-types`. */
const KINDS_OF_MIME: Record<string, string[]> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'text/csv': ['csv'],
  'application/vnd.apple.pkpass': ['pkpass'],
};

export function kindsOf(contentType: string | undefined, declared: unknown): string[] {
  const fromMime = (contentType ?? '')
    .split(',')
    .map((t) => t.trim())
    .flatMap((t) => KINDS_OF_MIME[t] ?? []);
  const fromList = Array.isArray(declared) ? declared.map(String) : [];
  return [...new Set([...fromMime, ...fromList])];
}
