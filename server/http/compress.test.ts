import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';

let s: Awaited<ReturnType<typeof freshServer>>;
let token: string;

beforeAll(async () => {
  s = await freshServer();
  token = await s.loginAs('seller@demo.test');
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const get = (path: string, acceptEncoding?: string) =>
  s.json('GET', path, undefined, token, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});

describe('JSON answers compressed', () => {
  it('sends a page of listings in brotli or gzip to a client that accepts it, the same JSON inside', async () => {
    const plain = await get('/my-listings?per_page=200');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(10_000);

    const br = await get('/my-listings?per_page=200', 'gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(text.length / 4);
    expect(JSON.parse(brotliDecompressSync(brBytes).toString())).toEqual(JSON.parse(text));

    const gz = await get('/my-listings?per_page=200', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(JSON.parse(text));
  });

  it('leaves an answer under 1 KB as it is, and one the client refuses to decode', async () => {
    const small = await s.json('GET', '/health', undefined, undefined, { 'accept-encoding': 'br, gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toMatchObject({ success: true });
    const refused = await get('/my-listings?per_page=200', 'br;q=0, gzip;q=0');
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(((await refused.json()) as { success: boolean }).success).toBe(true);
  });

  it('keeps the data export a stream of its own zip, not compressed again', async () => {
    const res = await get('/settings/account-data/export', 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.body).toBeInstanceOf(ReadableStream);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
  });
});
