import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientKey, NO_SOCKET_CLIENT, normaliseAddress } from './client';

describe('who is calling, for the per-client login limit', () => {
  const appTrusting = (proxies: number) => {
    const app = new Hono();
    app.get('/', (c) => c.text(clientKey(c, proxies)));
    return app;
  };
  const keyOf = async (proxies: number, forwarded?: string) =>
    (await appTrusting(proxies).request('/', { headers: forwarded ? { 'x-forwarded-for': forwarded } : {} })).text();

  it('ignores X-Forwarded-For unless a proxy is trusted', async () => {
    expect(await keyOf(0, '203.0.113.9')).toBe(NO_SOCKET_CLIENT);
  });

  it('takes the entry the outermost trusted proxy wrote, never one further left', async () => {
    // the client wrote "6.6.6.6" itself; the first proxy appended what it saw, 203.0.113.9; the second 10.0.0.2
    expect(await keyOf(1, '6.6.6.6, 203.0.113.9, 10.0.0.2')).toBe('10.0.0.2');
    expect(await keyOf(2, '6.6.6.6, 203.0.113.9, 10.0.0.2')).toBe('203.0.113.9');
    expect(await keyOf(5, '203.0.113.9')).toBe('203.0.113.9');
    // a proxy that sent nothing usable: the socket (none here)
    expect(await keyOf(1, 'not-an-address')).toBe(NO_SOCKET_CLIENT);
    expect(await keyOf(1)).toBe(NO_SOCKET_CLIENT);
  });

  it('reads the socket address of a real connection', async () => {
    const server = serve({ fetch: appTrusting(0).fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(await res.text()).toBe('127.0.0.1');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('counts IPv4 as is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(normaliseAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(normaliseAddress('203.0.113.9:51234')).toBe('203.0.113.9');
    expect(normaliseAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(normaliseAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:8d3::/64');
    expect(normaliseAddress('2001:DB8:85A3:08D3::1')).toBe('2001:db8:85a3:8d3::/64');
    expect(normaliseAddress('[2001:db8::1]:443')).toBe('2001:db8:0:0::/64');
    expect(normaliseAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(normaliseAddress('::1')).toBe('0:0:0:0::/64');
    expect(normaliseAddress('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
    for (const bad of ['', 'unknown', '999.1.1.1', '1.2.3', '::g', 'a'.repeat(100)]) {
      expect(normaliseAddress(bad), bad).toBeNull();
    }
  });
});
