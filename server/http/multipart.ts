import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import type { FieldError, UploadSpec } from '../contract/contract';
import type { Db } from '../db/database';
import { HttpError, MESSAGES } from './errors';
import { contentProblem } from './file-checks';
import { cleanFileName, nameForKind } from './file-names';

/** A file received and written to disk under a random name; the router records it in `files`. */
export interface StoredFile {
  /** The random name it is stored under (also its id in the `files` table). */
  id: string;
  field: string;
  /** Absolute path on disk, outside any served folder. */
  path: string;
  size: number;
  /** The kind its first bytes show: 'pdf', 'jpg', 'png', 'xlsx', 'csv'... */
  kind: string;
  mime: string;
  sha256: string;
  /**
   * The name the client gave, cleaned (server/http/file-names.ts: no path, nothing unseen) and named by the kind
   * its bytes showed (`poly.html` stored as a PDF is `poly.pdf`): shown back and downloaded, never used on disk.
   */
  originalName: string;
  /** The name exactly as the client sent it (paths and control characters included), for calls that refuse them. */
  clientName: string;
}

export interface ReceivedBody {
  fields: Record<string, string | string[]>;
  files: Record<string, StoredFile[]>;
}

/** Bytes read before the type is decided: enough for file-type to see every format we accept. */
const SNIFF_BYTES = 4100;
const FIELD_BYTES = 64 * 1024;

const MIME_OF: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  xml: 'application/xml',
  pkpass: 'application/vnd.apple.pkpass',
};
const canonical = (kind: string) => (kind === 'jpeg' ? 'jpg' : kind);

/** The spec's texts (section 5): 'Invalid file type. Allowed types: {list}', 'File size exceeds {n}MB limit'. */
export const invalidType = (types: readonly string[]) =>
  new HttpError(415, `Invalid file type. Allowed types: ${types.join(', ')}`);
export const tooBig = (maxBytes: number) =>
  new HttpError(413, `File size exceeds ${Math.round((maxBytes / 1024 / 1024) * 100) / 100}MB limit`);

/** The client went away mid-request: nothing to answer, nothing to log as a failure of ours. */
export class ClientClosedRequest extends Error {
  constructor() {
    super('The client closed the request before it was complete.');
    this.name = 'ClientClosedRequest';
  }
}

/** Text a spreadsheet program would read as CSV: valid UTF-8 with no NUL bytes. */
function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  // a multi-byte character cut at the end of the sniffed bytes is not an error
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  return bad <= 1;
}

async function kindOf(head: Buffer, allowed: readonly string[]): Promise<string | null> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) {
    const kind = canonical(detected.ext);
    return allowed.map(canonical).includes(kind) ? kind : null;
  }
  if (allowed.includes('csv') && looksLikeText(head)) return 'csv';
  return null;
}

export function removeFiles(files: Record<string, StoredFile[]> | StoredFile[]) {
  for (const file of Array.isArray(files) ? files : Object.values(files).flat()) {
    try {
      unlinkSync(file.path);
    } catch {
      // already gone
    }
  }
}

/**
 * Reads a multipart/form-data body as it streams in (busboy): plain fields as strings, files straight to disk
 * under random names in `dir`. Each file's kind is decided by its first bytes (never its name or Content-Type)
 * and its size is counted as it arrives, so an oversized or disguised file is refused before it is stored whole.
 * On any refusal or disconnect every file written so far is removed.
 */
export async function receiveMultipart(request: Request, spec: UploadSpec, dir: string): Promise<ReceivedBody> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw new HttpError(415, MESSAGES.needsMultipart);
  }
  const largest = Math.max(...[...spec.files.values()].map((f) => f.maxBytes));
  const totalFiles = [...spec.files.values()].reduce((n, f) => n + f.maxItems, 0);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  // room for every file at its limit plus the fields: a body announced bigger cannot be valid
  const ceiling = [...spec.files.values()].reduce((n, f) => n + f.maxBytes * f.maxItems, 0) + 256 * 1024;
  if (Number.isFinite(declared) && declared > ceiling) throw tooBig(largest);
  mkdirSync(dir, { recursive: true });

  const stream = request.body ? Readable.fromWeb(request.body as never) : Readable.from([]);
  const parser = busboy({
    headers: { 'content-type': contentType },
    // the name as sent: cleanFileName makes originalName of it, and a call may refuse a name with a path
    preservePath: true,
    // a browser sends a file's name as UTF-8 bytes in `filename="..."`: read as latin1 (busboy's default),
    // 'Müller-билет.pdf' came back 'MÃ¼ller-Ð±Ð¸Ð»ÐµÑ.pdf'
    defParamCharset: 'utf8',
    limits: {
      fileSize: largest + 1,
      files: totalFiles,
      fields: spec.fieldNames.size + 10,
      fieldSize: FIELD_BYTES,
      parts: totalFiles + spec.fieldNames.size + 10,
      headerPairs: 20,
    },
  });

  const fields: Record<string, string | string[]> = {};
  const files: Record<string, StoredFile[]> = {};
  const written: StoredFile[] = [];
  const pending: Promise<void>[] = [];
  const outs = new Set<ReturnType<typeof createWriteStream>>();

  return new Promise<ReceivedBody>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      stream.unpipe(parser);
      stream.resume();
      parser.destroy();
      // a file half written is closed and removed at once (an unlinked file's space is freed when it closes)
      for (const out of outs) out.destroy();
      removeFiles(written);
      reject(error);
    };
    const fieldError = (errors: FieldError[]) => fail(new HttpError(422, MESSAGES.validation, errors));

    parser.on('field', (name, value, info) => {
      if (!spec.fieldNames.has(name))
        return fieldError([{ path: `/body/${name}`, message: 'is not an accepted field' }]);
      if (info.valueTruncated) {
        return fieldError([{ path: `/body/${name}`, message: `must be at most ${FIELD_BYTES} bytes` }]);
      }
      const before = fields[name];
      fields[name] = before === undefined ? value : [...[before].flat(), value];
    });

    parser.on('file', (name, file, info) => {
      // a refusal destroys the parser, which fails the file stream still open ('Unexpected end of file'): with
      // no listener that error would escape and kill the process
      file.on('error', () => {});
      const field = spec.files.get(name);
      if (!field) {
        file.resume();
        return fieldError([{ path: `/body/${name}`, message: 'is not an accepted file field' }]);
      }
      const list = files[name] ?? [];
      files[name] = list;
      if (list.length >= field.maxItems) {
        file.resume();
        return fieldError([{ path: `/body/${name}`, message: `accepts at most ${field.maxItems} file(s)` }]);
      }
      // where a refusal of this file points: `/body/files/2` in a field of several
      const where = field.multiple ? `/body/${name}/${list.length}` : `/body/${name}`;
      const id = randomBytes(16).toString('hex');
      const stored: StoredFile = {
        id,
        field: name,
        path: join(dir, id),
        size: 0,
        kind: '',
        mime: '',
        sha256: '',
        originalName: cleanFileName(info.filename),
        clientName: info.filename ?? '',
      };
      list.push(stored);
      written.push(stored);
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let headBytes = 0;
      let out: ReturnType<typeof createWriteStream> | null = null;
      let decided: Promise<void> | null = null;
      // the file's failure, set as its promise starts (before any chunk comes)
      let outFailed: (error: unknown) => void = () => {};

      const decide = () => {
        decided ??= (async () => {
          const sniff = Buffer.concat(head);
          if (sniff.length === 0)
            throw new HttpError(422, MESSAGES.validation, [{ path: `/body/${name}`, message: 'The file is empty.' }]);
          const kind = await kindOf(sniff, field.types);
          if (!kind) throw invalidType(field.types);
          if (failed) throw new ClientClosedRequest();
          stored.kind = kind;
          stored.mime = MIME_OF[kind] ?? 'application/octet-stream';
          stored.originalName = nameForKind(info.filename, kind);
          out = createWriteStream(stored.path, { flags: 'wx', mode: 0o600 });
          // from its first moment: a refusal destroys it while a write may be on its way to the disk, whose end
          // then fails ('Cannot call write after a stream was destroyed'); with no listener that error killed the
          // process (one request of 10 MB and a byte did). A full disk fails the upload the same way.
          out.on('error', (e) => outFailed(e));
          outs.add(out);
          out.write(sniff);
        })();
        return decided;
      };

      const done = new Promise<void>((fileDone, fileFailed) => {
        outFailed = fileFailed;
        file.on('data', (chunk: Buffer) => {
          stored.size += chunk.length;
          hash.update(chunk);
          if (stored.size > field.maxBytes) {
            file.resume();
            fileFailed(tooBig(field.maxBytes));
            return;
          }
          if (!decided && headBytes < SNIFF_BYTES) {
            head.push(chunk);
            headBytes += chunk.length;
            if (headBytes < SNIFF_BYTES) return;
            file.pause();
            decide().then(
              () => file.resume(),
              (e) => {
                file.resume();
                fileFailed(e);
              },
            );
            return;
          }
          if (out && !out.write(chunk)) {
            file.pause();
            out.once('drain', () => file.resume());
          }
        });
        file.on('limit', () => fileFailed(tooBig(field.maxBytes)));
        file.on('error', fileFailed);
        file.on('end', () => {
          decide()
            .then(async () => {
              stored.sha256 = hash.digest('hex');
              const target = out as ReturnType<typeof createWriteStream> | null;
              if (target) await new Promise<void>((ended) => target.end(() => ended()));
              // one policy for every file field: what the whole file must be (server/http/file-checks.ts)
              const problem = await contentProblem(stored.path, stored.kind);
              if (problem) throw new HttpError(422, problem, [{ path: where, message: problem }]);
            })
            .then(fileDone, fileFailed);
        });
      });
      const tracked = done.catch((e) => {
        const target = out as ReturnType<typeof createWriteStream> | null;
        target?.destroy();
        fail(e);
      });
      pending.push(tracked);
    });

    parser.on('filesLimit', () => fieldError([{ path: '/body', message: `accepts at most ${totalFiles} file(s)` }]));
    parser.on('fieldsLimit', () => fieldError([{ path: '/body', message: 'has too many fields' }]));
    parser.on('partsLimit', () => fieldError([{ path: '/body', message: 'has too many parts' }]));
    parser.on('error', (e) => fail(new HttpError(400, `The multipart body is malformed: ${(e as Error).message}`)));
    parser.on('close', () => {
      void Promise.all(pending).then(() => {
        if (failed) return;
        for (const [name, field] of spec.files) {
          if (field.required && !(files[name]?.length ?? 0)) {
            return fieldError([{ path: `/body/${name}`, message: 'is required' }]);
          }
        }
        resolve({ fields, files });
      });
    });
    stream.on('error', () => fail(new ClientClosedRequest()));
    stream.on('aborted', () => fail(new ClientClosedRequest()));
    stream.pipe(parser);
  });
}

/** An upload younger than this may still be in a transaction that has not committed its `files` row yet. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes the files in the uploads folder that no `files` row names: what a crash left between writing a file
 * and committing its row. Only files older than ORPHAN_GRACE_MS are considered. Answers how many it removed.
 */
export async function sweepOrphanUploads(db: Db, dir: string, now: Date): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^[0-9a-f]{32}$/.test(n));
  } catch {
    return 0;
  }
  const old = names.filter((n) => {
    try {
      return statSync(join(dir, n)).mtimeMs < now.getTime() - ORPHAN_GRACE_MS;
    } catch {
      return false;
    }
  });
  let removed = 0;
  for (let i = 0; i < old.length; i += 500) {
    const batch = old.slice(i, i + 500);
    const known = new Set(
      (await db.selectFrom('files').select('id').where('id', 'in', batch).execute()).map((r) => r.id),
    );
    for (const name of batch) {
      if (known.has(name)) continue;
      try {
        unlinkSync(join(dir, name));
        removed++;
      } catch {
        // removed by another process meanwhile
      }
    }
  }
  return removed;
}
