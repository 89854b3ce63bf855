import { isIPv4, isIPv6 } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The key of requests that carry no socket (`app.request()` in tests): they all count as one client. */
export const NO_SOCKET_CLIENT = 'local';

/**
 * Who is calling, for the per-client login limit: the socket's address, or, behind `trustedProxies` proxies
 * (TRUST_PROXY), the address the outermost trusted proxy saw: the `trustedProxies`-th entry of
 * `X-Forwarded-For` counted from the right. Entries further left were written by the client and prove nothing.
 * IPv6 addresses count by their /64 (one subscriber's network), IPv4-mapped IPv6 as IPv4.
 */
export function clientKey(c: Context, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const hop = hops[Math.max(0, hops.length - trustedProxies)];
    const forwarded = hop ? normaliseAddress(hop) : null;
    if (forwarded) return forwarded;
  }
  return socketAddress(c) ?? NO_SOCKET_CLIENT;
}

function socketAddress(c: Context): string | null {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? normaliseAddress(address) : null;
  } catch {
    // no Node socket behind this request (app.request in tests)
    return null;
  }
}

/** An address as a throttle key: IPv4 as is, IPv6 as its /64 prefix; anything else null. */
export function normaliseAddress(raw: string): string | null {
  let address = raw.trim();
  // "[2001:db8::1]:443" and "203.0.113.7:51234" (some proxies add the port)
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/%.*$/, ''); // zone index
  const mapped = /^::ffff:([\d.]+)$/i.exec(address);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
  return null;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  // a trailing dotted IPv4 part is two groups
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => Number.parseInt(g || '0', 16).toString(16));
}
