import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { readZohoSettings } from './index';
import { ESignUnavailable } from './port';
import { zohoESign } from './zoho';

/**
 * The Zoho Sign adapter against a local stand-in of Zoho's accounts and Sign API (Zoho is not reachable here):
 * it records what the adapter sends and answers in Zoho's documented shapes.
 */
interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  body: string;
}

const PDF = Buffer.from('%PDF-1.4\n%signed by zoho\n%%EOF\n');
const noDb = {} as Db;

describe('the Zoho Sign adapter', () => {
  let server: Server;
  let base: string;
  let seen: Seen[] = [];
  let status = 'inprogress';
  let failNext = 0;

  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => resolve(text));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = await read(req);
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({
        method: req.method ?? '',
        path: `${url.pathname}${url.search}`,
        auth: req.headers.authorization,
        body,
      });
      const json = (code: number, value: unknown) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (failNext > 0) {
        failNext--;
        return json(500, { code: 9000, message: 'Internal error', status: 'failure' });
      }
      if (url.pathname === '/oauth/v2/token') return json(200, { access_token: 'at-1', expires_in: 3600 });
      if (url.pathname === '/api/v1/templates/T1')
        return json(200, { status: 'success', templates: { actions: [{ action_id: 'A-tmpl', action_type: 'SIGN' }] } });
      if (url.pathname === '/api/v1/templates/T1/createdocument')
        return json(200, {
          status: 'success',
          requests: { request_id: 'R-9', actions: [{ action_id: 'A-9' }], document_ids: [{ document_id: 'D-9' }] },
        });
      if (url.pathname === '/api/v1/requests/R-9/actions/A-9/embedtoken')
        return json(200, { status: 'success', sign_url: 'https://sign.zoho.com/zsign/webhost/abc' });
      if (url.pathname === '/api/v1/requests/R-9')
        return json(200, {
          status: 'success',
          requests: {
            request_status: status,
            sign_submitted_time: 1_795_000_000_000,
            actions: [{ recipient_name: 'Hana Newcomer' }],
          },
        });
      if (url.pathname === '/api/v1/requests/R-9/pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end(PDF);
      }
      json(404, { status: 'failure', message: 'not found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen = [];
    status = 'inprogress';
    failNext = 0;
  });

  const adapter = () =>
    zohoESign({
      apiUrl: `${base}/api/v1`,
      accountsUrl: base,
      clientId: 'cid',
      clientSecret: 'secret',
      refreshToken: 'rt',
      templateId: 'T1',
    });

  it('creates an embedded request from the template, gets its signing URL, status and signed PDF', async () => {
    const zoho = adapter();
    const created = await zoho.create(noDb, { name: 'Hana Newcomer', email: 'hana@kyc.test' }, 'text', new Date());
    expect(created).toEqual({ requestId: 'R-9', actionId: 'A-9' });
    // the refresh token is exchanged once, then the access token rides every call
    const token = seen.find((s) => s.path === '/oauth/v2/token');
    expect(new URLSearchParams(token?.body)).toEqual(
      new URLSearchParams({
        refresh_token: 'rt',
        client_id: 'cid',
        client_secret: 'secret',
        grant_type: 'refresh_token',
      }),
    );
    const create = seen.find((s) => s.path === '/api/v1/templates/T1/createdocument');
    expect(create?.auth).toBe('Zoho-oauthtoken at-1');
    const form = new URLSearchParams(create?.body);
    expect(form.get('is_quicksend')).toBe('true');
    expect(JSON.parse(form.get('data') ?? '{}').templates.actions[0]).toEqual({
      action_id: 'A-tmpl',
      action_type: 'SIGN',
      recipient_name: 'Hana Newcomer',
      recipient_email: 'hana@kyc.test',
      verify_recipient: false,
      is_embedded: true,
    });

    expect(await zoho.signUrl('R-9', 'A-9', 'http://localhost:8080')).toBe('https://sign.zoho.com/zsign/webhost/abc');
    expect(seen.at(-1)?.path).toBe('/api/v1/requests/R-9/actions/A-9/embedtoken?host=http%3A%2F%2Flocalhost%3A8080');
    expect(await zoho.status(noDb, 'R-9')).toEqual({ signed: false, signerName: null, signedAt: null });
    status = 'completed';
    expect(await zoho.status(noDb, 'R-9')).toEqual({
      signed: true,
      signerName: 'Hana Newcomer',
      signedAt: new Date(1_795_000_000_000).toISOString(),
    });
    expect((await zoho.signedPdf(noDb, 'R-9')).equals(PDF)).toBe(true);
    expect(seen.filter((s) => s.path === '/oauth/v2/token')).toHaveLength(1);
  });

  it('turns an error answer or an unreachable server into ESignUnavailable', async () => {
    failNext = 1;
    await expect(adapter().status(noDb, 'R-9')).rejects.toBeInstanceOf(ESignUnavailable);
    const gone = zohoESign({
      apiUrl: 'http://127.0.0.1:9/api/v1',
      accountsUrl: 'http://127.0.0.1:9',
      clientId: 'c',
      clientSecret: 's',
      refreshToken: 'r',
      templateId: 'T1',
    });
    await expect(gone.status(noDb, 'R-9')).rejects.toBeInstanceOf(ESignUnavailable);
  });

  it('is chosen only when all four keys are set; some but not all refuse to start', () => {
    expect(readZohoSettings({})).toBeNull();
    expect(() => readZohoSettings({ ZOHO_SIGN_CLIENT_ID: 'x' })).toThrow(/ZOHO_SIGN_CLIENT_SECRET/);
    expect(
      readZohoSettings({
        ZOHO_SIGN_CLIENT_ID: 'a',
        ZOHO_SIGN_CLIENT_SECRET: 'b',
        ZOHO_SIGN_REFRESH_TOKEN: 'c',
        ZOHO_SIGN_TEMPLATE_ID: 'd',
        ZOHO_SIGN_API_URL: 'https://sign.zoho.eu/api/v1/',
      }),
    ).toMatchObject({ apiUrl: 'https://sign.zoho.eu/api/v1', accountsUrl: 'https://accounts.zoho.com' });
  });
});
