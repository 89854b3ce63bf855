/**
 * The names of stored files: what a client's name becomes once cleaned (shown back in lists and given to
 * downloads, never used on disk), and the headers a file is served with.
 */

/** The extension a stored kind is named with, and the extensions that already say that kind. */
const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  pdf: ['pdf'],
  jpg: ['jpg', 'jpeg', 'jpe', 'jfif'],
  png: ['png'],
  webp: ['webp'],
  xlsx: ['xlsx'],
  csv: ['csv'],
  xml: ['xml'],
  pkpass: ['pkpass'],
  zip: ['zip'],
};

/** A name for a file whose own name cleans to nothing: from its kind. */
const NAME_OF_KIND: Readonly<Record<string, string>> = {
  pdf: 'document',
  jpg: 'image',
  png: 'image',
  webp: 'image',
  xlsx: 'spreadsheet',
  csv: 'table',
  xml: 'statement',
  pkpass: 'ticket',
  zip: 'archive',
};

/**
 * What no file name keeps: control characters (C0, DEL and C1), format characters (bidi overrides, embeddings
 * and isolates, marks, zero-width spaces, the BOM, tags, invisible operators; zero-width joiners and non-joiners
 * stay, as emoji and several scripts need them), line and paragraph separators, private-use and surrogate code
 * points, and the letters and marks that draw nothing (Hangul fillers, the combining grapheme joiner).
 */
// the combining ones (U+034F, U+17B4, U+17B5) apart: in a character class they would join the one before
const UNSEEN =
  /(?![\u200c\u200d])(?:[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u115f\u1160\u2800\u3164\uffa0]|\u034f|\u17b4|\u17b5)/gu;
const MAX_CHARACTERS = 200;

/**
 * The client's name cleaned: Unicode NFC, its last path segment only, nothing unseen (see UNSEEN), every kind of
 * space a plain one and runs of them one, trimmed, at most 200 characters (the end, where the extension is,
 * kept). '' when nothing is left, or only '.' or '..'.
 */
export function cleanFileName(name: string | undefined): string {
  const last = (name ?? '').normalize('NFC').replace(/\\/g, '/').split('/').pop() ?? '';
  const cleaned = last.replace(UNSEEN, '').replace(/\s+/gu, ' ').trim();
  if (cleaned === '.' || cleaned === '..') return '';
  const chars = [...cleaned];
  if (chars.length <= MAX_CHARACTERS) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 11 ? cleaned.slice(dot) : '';
  return [...chars.slice(0, MAX_CHARACTERS - [...extension].length)].join('').trimEnd() + extension;
}

/** The extension of a name (lower case, without its dot) when it has one: letters and digits after the last dot. */
function extensionOf(name: string): string | null {
  const m = /\.([\p{L}\p{N}]{1,10})$/u.exec(name);
  if (!m?.[1] || m.index === 0 || !/\p{L}/u.test(m[1])) return null;
  return m[1].toLowerCase();
}

/**
 * The name a stored file is shown and downloaded under: the client's name, cleaned, with the extension of the
 * kind its bytes showed (`poly.html` stored as a PDF is `poly.pdf`; `scan.JPEG` stays), or a name from the kind
 * when the client's cleans to nothing (`document.pdf`). A kind we do not name keeps the cleaned name ('file'
 * when empty).
 */
export function nameForKind(name: string | undefined, kind: string): string {
  const cleaned = cleanFileName(name);
  const accepted = EXTENSIONS[kind];
  if (!accepted) return cleaned || 'file';
  const own = extensionOf(cleaned);
  if (own && accepted.includes(own)) return cleaned;
  // '.pdf' alone (what is left of a name of invisible characters) is an extension without a name
  const bare = /^\.[\p{L}\p{N}]{1,10}$/u.test(cleaned);
  const stem = bare ? '' : own ? cleaned.slice(0, cleaned.length - own.length - 1).trimEnd() : cleaned;
  return `${stem || NAME_OF_KIND[kind] || 'file'}.${accepted[0]}`;
}

/**
 * A Content-Disposition header for a download (RFC 6266): `filename` with an ASCII stand-in for every other
 * character (what an old client shows), and `filename*` (RFC 8187, UTF-8 percent-encoded) when the name is not
 * plain ASCII, which every current browser prefers.
 */
export function contentDisposition(name: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  if (ascii === name) return `${disposition}; filename="${ascii}"`;
  // RFC 8187's attr-char: what encodeURIComponent leaves alone, less the characters it does not allow
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
