// @vitest-environment jsdom
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiError } from './client';
import { createUploader, type UploadPath } from './upload';

/** A contract with one multipart operation, as openapi-typescript writes it. */
interface TestPaths {
  '/proofs': {
    post: {
      requestBody: { content: { 'multipart/form-data': { amount: number; proof: string } } };
      responses: {
        200: { content: { 'application/json': { success: true; data: { file_id: string; size: number } } } };
      };
    };
  };
  '/json-only': {
    post: { requestBody: { content: { 'application/json': { id: number } } }; responses: Record<number, never> };
  };
}

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  fields: Record<string, string>;
  files: Record<string, number>;
}

/** A real HTTP server on a free port, answering as the test says, that records what it received. */
let server: Server;
let baseUrl = '';
let answer: (received: Received) => { status: number; body: unknown } = () => ({ status: 200, body: {} });
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    // the test page (jsdom) is on another origin
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Idempotency-Key, Domain-Key, Accept, Content-Type');
    if (req.method === 'OPTIONS') {
      res.end();
      return;
    }
    if (req.url?.startsWith('/slow/')) return; // never answers
    const got: Received = { url: req.url ?? '', headers: req.headers, fields: {}, files: {} };
    const parser = busboy({ headers: req.headers });
    parser.on('field', (name, value) => {
      got.fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      stream.on('end', () => {
        got.files[name] = size;
      });
    });
    parser.on('close', () => {
      received.push(got);
      const { status, body } = answer(got);
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    req.pipe(parser);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const proofForm = (bytes: number) => {
  const form = new FormData();
  form.append('amount', '2500');
  form.append('proof', new File([new Uint8Array(bytes).fill(37)], 'proof.pdf', { type: 'application/pdf' }));
  return form;
};

describe('upload', () => {
  it("is typed by the contract's multipart operations", () => {
    expectTypeOf<UploadPath<TestPaths>>().toEqualTypeOf<'/proofs'>();
  });

  it('sends the form with the bearer token, the idempotency and domain keys, and reports its progress', async () => {
    answer = (got) => ({ status: 200, body: { success: true, data: { file_id: 'f1', size: got.files.proof } } });
    const upload = createUploader<TestPaths>({ baseUrl, getToken: () => 'tok', domainKey: () => 'portal.example' });
    const progress: number[] = [];
    const data = await upload('/proofs', proofForm(3 * 1024 * 1024), {
      idempotencyKey: 'key-1',
      onProgress: (p) => progress.push(p.fraction),
    });
    expect(data).toEqual({ file_id: 'f1', size: 3 * 1024 * 1024 });
    const got = received.at(-1);
    expect(got?.headers.authorization).toBe('Bearer tok');
    expect(got?.headers['idempotency-key']).toBe('key-1');
    expect(got?.headers['domain-key']).toBe('portal.example');
    expect(got?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(got?.fields).toEqual({ amount: '2500' });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('sends the query parameters the operation names', async () => {
    answer = () => ({ status: 200, body: { success: true, data: { file_id: 'f2', size: 1 } } });
    const upload = createUploader<TestPaths>({ baseUrl });
    await upload('/proofs', proofForm(1), { query: { booking_id: 41, note: 'a b&c' } });
    expect(received.at(-1)?.url).toBe('/proofs?booking_id=41&note=a+b%26c');
  });

  it("refuses with the server's message and a 422's field errors", async () => {
    answer = () => ({
      status: 422,
      body: {
        success: false,
        message: 'The request is not valid.',
        errors: [{ path: '/body/amount', message: 'must be >= 1' }],
      },
    });
    const upload = createUploader<TestPaths>({ baseUrl });
    const refusal = await upload('/proofs', proofForm(10)).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 422,
      message: 'The request is not valid.',
      errors: [{ path: '/body/amount', message: 'must be >= 1' }],
    });
  });

  it('a 401 on a call that carried a token runs the client’s 401 handling; without a token it does not', async () => {
    answer = () => ({
      status: 401,
      body: { success: false, message: 'Your session has expired. Please log in again.' },
    });
    const onUnauthorized = vi.fn();
    const withToken = createUploader<TestPaths>({ baseUrl, getToken: () => 'dead', onUnauthorized });
    await expect(withToken('/proofs', proofForm(10))).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    const anonymous = createUploader<TestPaths>({ baseUrl, getToken: () => null, onUnauthorized });
    await expect(anonymous('/proofs', proofForm(10))).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('stops when its signal aborts, and fails plainly when the server cannot be reached', async () => {
    const slow = createUploader<TestPaths>({ baseUrl: `${baseUrl}/slow` });
    const controller = new AbortController();
    const pending = slow('/proofs', proofForm(10), { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });

    const closed = createUploader<TestPaths>({ baseUrl: 'http://127.0.0.1:9' });
    await expect(closed('/proofs', proofForm(10))).rejects.toMatchObject({
      status: 0,
      message: 'An unexpected error occurred. Please try again later.',
    });
  });
});
