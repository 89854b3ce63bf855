import { ApiError, browserAuth, fieldErrorsOf, messageOf, type PortalClientOptions } from './client';
import type { paths } from './schema';

/** The paths whose POST takes a `multipart/form-data` body in a contract's `paths`. */
export type UploadPath<Paths = paths> = {
  [P in keyof Paths]: Paths[P] extends { post: { requestBody?: { content: { 'multipart/form-data': unknown } } } }
    ? P
    : never;
}[keyof Paths] &
  string;

type JsonOk<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
/** The `data` of an upload's 200 answer. */
export type UploadData<Paths, P extends keyof Paths> = Paths[P] extends { post: infer O }
  ? JsonOk<O> extends { data?: infer D }
    ? D
    : never
  : never;
/** The form fields an upload's contract names (for building the FormData). */
export type UploadFields<Paths, P extends keyof Paths> = Paths[P] extends {
  post: { requestBody?: { content: { 'multipart/form-data': infer F } } };
}
  ? F
  : never;

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0 to 1; 0 while the size is unknown. */
  fraction: number;
}

export interface UploadOptions {
  /** Called as the body goes out (the browser's upload progress, which fetch cannot report). */
  onProgress?: (progress: UploadProgress) => void;
  /** Sent as `Idempotency-Key`: an upload that moves money or stock is sent again with the same key. */
  idempotencyKey?: string;
  /** Query parameters the operation names (`?booking_id=` of the sales uploads). */
  query?: Record<string, string | number>;
  signal?: AbortSignal;
}

export interface UploaderOptions extends PortalClientOptions {
  /** The spec's domain key header on form uploads (default: the page's host). */
  domainKey?: () => string | null;
  XMLHttpRequest?: typeof XMLHttpRequest;
}

const NETWORK_ERROR = 'An unexpected error occurred. Please try again later.';

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * An uploader for a contract's multipart operations, with the client's bearer token and 401 behaviour
 * (openapi/client.ts). It sends with XMLHttpRequest so that the browser reports upload progress. The answer
 * is the envelope's `data`; a refusal is an ApiError with the server's message (and a 422's field errors).
 */
export function createUploader<Paths = paths>(options: UploaderOptions = {}) {
  const baseUrl = options.baseUrl ?? '/api';
  return function upload<P extends UploadPath<Paths>>(
    path: P,
    formData: FormData,
    { onProgress, idempotencyKey, query, signal }: UploadOptions = {},
  ): Promise<UploadData<Paths, P>> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason ?? new DOMException('The upload was aborted.', 'AbortError'));
        return;
      }
      const Xhr = options.XMLHttpRequest ?? globalThis.XMLHttpRequest;
      const xhr = new Xhr();
      const search = query
        ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`
        : '';
      xhr.open('POST', `${baseUrl}${path}${search}`);
      xhr.setRequestHeader('Accept', 'application/json');
      const token = options.getToken?.();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      if (idempotencyKey) xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
      const domainKey = (options.domainKey ?? (() => globalThis.location?.host ?? null))();
      if (domainKey) xhr.setRequestHeader('Domain-Key', domainKey);

      const onAbort = () => xhr.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);

      xhr.upload.addEventListener('progress', (event) => {
        const total = event.lengthComputable ? event.total : 0;
        onProgress?.({ loaded: event.loaded, total, fraction: total > 0 ? event.loaded / total : 0 });
      });
      xhr.addEventListener('load', () => {
        done();
        const body = parse(xhr.responseText);
        if (xhr.status === 401 && token) options.onUnauthorized?.(token);
        const ok = xhr.status >= 200 && xhr.status < 300;
        if (ok && body && typeof body === 'object' && 'data' in body) {
          resolve(body.data as UploadData<Paths, P>);
          return;
        }
        reject(new ApiError(xhr.status, messageOf(body, NETWORK_ERROR), fieldErrorsOf(body), body));
      });
      xhr.addEventListener('error', () => {
        done();
        reject(new ApiError(0, NETWORK_ERROR));
      });
      xhr.addEventListener('abort', () => {
        done();
        reject(signal?.reason ?? new DOMException('The upload was aborted.', 'AbortError'));
      });
      xhr.send(formData);
    });
  };
}

/** The app's uploader: the browser session's token, the spec's 401 reload. `upload('/api/upload-pop', form, { onProgress })`. */
export const upload = createUploader(browserAuth);
