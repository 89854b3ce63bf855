import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chooseEncoding } from './static';

/**
 * JSON answers of the API worth compressing: from about 1 KB (a smaller one fits a packet or two as it is, and the
 * purchase path's answers, a few hundred bytes, pay nothing).
 */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * The answer's text as it goes out: brotli (quality 4) or gzip (level 6) when the client accepts one and the text
 * is 1 KB or more; else the text itself. Quality 4 compresses a 140 KB page of listings in about 2 ms, to within a
 * few per cent of what quality 11 would; streamed answers (the data export) never come here.
 */
export function compressAnswer(
  acceptEncoding: string | undefined,
  text: string,
): { body: string | Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  if (text.length < COMPRESS_FROM_BYTES) return { body: text, headers: {} };
  const encoding = chooseEncoding(acceptEncoding, ['br', 'gzip']);
  if (!encoding) return { body: text, headers: { Vary: 'Accept-Encoding' } };
  const bytes = Buffer.from(text);
  const packed =
    encoding === 'br'
      ? brotliCompressSync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 4,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        })
      : gzipSync(bytes, { level: 6 });
  return {
    body: new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength) as Uint8Array<ArrayBuffer>,
    headers: { 'Content-Encoding': encoding, Vary: 'Accept-Encoding' },
  };
}
