import { readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/**
 * What every upload's content must be, whatever the call (a ticket, a deposit's proof, a KYC document, a
 * template): checked by the upload layer (server/http/multipart.ts) once a file is stored whole, so one policy
 * holds for every file field of the contract. The first bytes decided the kind already; these checks read the
 * whole file for what its first bytes cannot show: a PDF that runs JavaScript when opened, a PDF cut short, an
 * image that would not decode. Structure only, in plain code (no parser, no native library): a file that passes
 * opens in a browser's viewer; a file that fails would show an error, or nothing, to the admin who opens it.
 */

export const FILE_MESSAGES = {
  pdfJavaScript: 'The PDF contains JavaScript; upload a copy without it.',
  pdfDamaged:
    'The PDF is incomplete or damaged (its end or its table of contents is missing); save or export it again and upload the new file.',
  imageDamaged:
    'The image is incomplete or damaged and cannot be shown; save or export it again (JPEG or PNG) and upload the new file.',
} as const;

/** PDF names may write characters as #xx (`/J#61vaScript`): read them as a reader would. */
export const pdfText = (bytes: Buffer) =>
  bytes.toString('latin1').replace(/#([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));

/** A PDF that carries JavaScript (an action `/JS` or a `/JavaScript` name tree): no document we take needs it. */
export function pdfHasJavaScript(bytes: Buffer): boolean {
  return /\/(JS|JavaScript)(?![A-Za-z0-9])/.test(pdfText(bytes));
}

/** PDF's white-space characters (ISO 32000-1, 7.2.2), which may follow the end-of-file marker. */
const PDF_SPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/**
 * A PDF with the parts a reader needs to open it: the header (`%PDF-1.7`), the end-of-file marker in its last
 * 1,024 bytes (white space after it aside), and a cross-reference section (a `trailer`, an `xref` table or an
 * xref stream) to find its objects by. `%PDF-1.` alone, or a file cut off in the middle, has no end.
 */
export function pdfLooksWhole(bytes: Buffer): boolean {
  if (!/^%PDF-\d\.\d/.test(bytes.subarray(0, 16).toString('latin1'))) return false;
  let end = bytes.length;
  while (end > 0 && PDF_SPACE.has(bytes[end - 1] as number)) end--;
  if (!bytes.subarray(Math.max(0, end - 1024), end).includes('%%EOF')) return false;
  return /\btrailer\b|\bxref\b|\/Type\s*\/XRef\b/.test(pdfText(bytes));
}

const JPEG_STANDALONE = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd8);
const JPEG_FRAME = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/**
 * A JPEG a decoder can read: the start-of-image marker, then segments whose lengths stay inside the file, a frame
 * header (SOFn) with a width and a height, a scan (SOS) after it, and the end-of-image marker after the scan.
 * A file cut short loses its end-of-image marker; a garbled one breaks the segment chain.
 */
export function jpegLooksWhole(b: Buffer): boolean {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return false;
  let i = 2;
  let frame = false;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return false;
    while (b[i + 1] === 0xff && i + 2 < b.length) i++; // fill bytes
    const marker = b[i + 1] as number;
    i += 2;
    if (JPEG_STANDALONE(marker)) continue;
    if (marker === 0xd9) return false; // the image ends before any scan
    const length = b.readUInt16BE(i);
    if (length < 2 || i + length > b.length) return false;
    if (JPEG_FRAME(marker)) {
      if (length < 8 || b.readUInt16BE(i + 3) === 0 || b.readUInt16BE(i + 5) === 0) return false;
      frame = true;
    }
    if (marker === 0xda) {
      // the entropy-coded data runs to the end-of-image marker (progressive files hold several scans)
      return frame && b.lastIndexOf(Buffer.from([0xff, 0xd9])) >= i + length;
    }
    i += length;
  }
  return false;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG a decoder can read: the signature, an IHDR first with a width and a height, every chunk inside the file
 * with its CRC right, image data (IDAT), and IEND. A file cut short loses its IEND or a chunk's end; a garbled
 * one fails a CRC.
 */
export function pngLooksWhole(b: Buffer): boolean {
  if (b.length < 8 || !b.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  let i = 8;
  let first = true;
  let data = false;
  while (i + 12 <= b.length) {
    const length = b.readUInt32BE(i);
    const type = b.subarray(i + 4, i + 8).toString('latin1');
    if (length > b.length - i - 12) return false;
    const body = b.subarray(i + 8, i + 8 + length);
    if (crc32(b.subarray(i + 4, i + 8 + length)) !== b.readUInt32BE(i + 8 + length)) return false;
    if (first && (type !== 'IHDR' || length !== 13 || body.readUInt32BE(0) === 0 || body.readUInt32BE(4) === 0))
      return false;
    first = false;
    if (type === 'IDAT') data = true;
    if (type === 'IEND') return data;
    i += 12 + length;
  }
  return false;
}

/** A WebP whose RIFF container holds as many bytes as it says, with a VP8, VP8L or VP8X chunk first. */
export function webpLooksWhole(b: Buffer): boolean {
  if (b.length < 20 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return false;
  if (b.readUInt32LE(4) + 8 > b.length) return false;
  return ['VP8 ', 'VP8L', 'VP8X'].includes(b.toString('latin1', 12, 16));
}

/** Why a stored file of `kind` at `path` is refused, or null when it is fine (kinds with no check pass). */
export async function contentProblem(path: string, kind: string): Promise<string | null> {
  if (!['pdf', 'jpg', 'png', 'webp'].includes(kind)) return null;
  const bytes = await readFile(path);
  switch (kind) {
    case 'pdf':
      if (pdfHasJavaScript(bytes)) return FILE_MESSAGES.pdfJavaScript;
      return pdfLooksWhole(bytes) ? null : FILE_MESSAGES.pdfDamaged;
    case 'jpg':
      return jpegLooksWhole(bytes) ? null : FILE_MESSAGES.imageDamaged;
    case 'png':
      return pngLooksWhole(bytes) ? null : FILE_MESSAGES.imageDamaged;
    default:
      return webpLooksWhole(bytes) ? null : FILE_MESSAGES.imageDamaged;
  }
}
