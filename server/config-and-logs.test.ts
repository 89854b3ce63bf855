import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config';
import { createLogger } from './logger';

function capture() {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { out, text: () => chunks.join('') };
}

const request = { reqId: 'b3c1', method: 'GET', path: '/api/health', status: 200, ms: 3 };

describe('request logs', () => {
  it('print one readable line per request in the pretty format, without JSON', () => {
    const { out, text } = capture();
    const log = createLogger('info', 'pretty', out);
    log.info(request, 'request');
    log.warn({ task: 'login throttle' }, 'housekeeping task failed');
    const [first, ...rest] = text().trimEnd().split('\n');
    expect(first).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/health 200 3 ms$/);
    expect(rest.join('\n')).toMatch(/WARN: housekeeping task failed\n\s+task: "login throttle"/);
    expect(text()).not.toContain('{"');
  });

  it('are JSON lines in the json format, with the same redactions', () => {
    const { out, text } = capture();
    const log = createLogger('info', 'json', out);
    log.info({ ...request, password: 'Demo1234!' }, 'request');
    const line = JSON.parse(text().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ ...request, msg: 'request', level: 30 });
    expect(line).not.toHaveProperty('password');
  });
});

describe('configuration', () => {
  it('listens on 127.0.0.1 unless HOST says otherwise', () => {
    expect(readConfig({}).host).toBe('127.0.0.1');
    expect(readConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('logs readably on a terminal and as JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(readConfig({}, true).logFormat).toBe('pretty');
    expect(readConfig({}, false).logFormat).toBe('json');
    expect(readConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(readConfig({ LOG_FORMAT: 'Pretty' }, false).logFormat).toBe('pretty');
    expect(() => readConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be json or pretty, not "xml"');
  });

  it('trusts no proxy unless TRUST_PROXY says how many', () => {
    expect(readConfig({}).trustProxy).toBe(0);
    expect(readConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(readConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(readConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => readConfig({ TRUST_PROXY: '10.0.0.1' })).toThrow(/TRUST_PROXY must be the number of proxies/);
  });
});
