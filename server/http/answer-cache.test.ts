import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache';

const answer = (version: string, until: number, text = 'x') => ({ version, until, text });

describe('AnswerCache', () => {
  it('serves a kept text only at its version and before its moment ends', () => {
    const cache = new AnswerCache();
    cache.set('a', answer('1:1', 1000, 'first'));
    expect(cache.get('a', '1:1', 999)).toBe('first');
    expect(cache.get('a', '2:1', 999)).toBeUndefined();
    // a miss drops the entry: it cannot come back at the old version
    expect(cache.get('a', '1:1', 999)).toBeUndefined();
    cache.set('b', answer('1:1', 1000));
    expect(cache.get('b', '1:1', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('holds at most its entries, oldest out first', () => {
    const cache = new AnswerCache({ entries: 3, bytes: 1e9 });
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, answer('v', 10));
    expect(cache.size).toBe(3);
    expect(cache.get('a', 'v', 0)).toBeUndefined();
    expect(cache.get('d', 'v', 0)).toBe('x');
  });

  it('holds at most its bytes, and never one answer over an eighth of them', () => {
    const cache = new AnswerCache({ entries: 100, bytes: 8000 });
    cache.set('huge', answer('v', 10, 'y'.repeat(1000)));
    expect(cache.size).toBe(0);
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, answer('v', 10, 'z'.repeat(800)));
    expect(cache.bytes).toBeLessThanOrEqual(8000);
    expect(cache.size).toBe(Math.floor(8000 / (3 + 800 + 64)));
    expect(cache.get('k19', 'v', 0)).toBe('z'.repeat(800));
    expect(cache.get('k0', 'v', 0)).toBeUndefined();
  });

  it('replaces the entry of a key, counting its bytes once', () => {
    const cache = new AnswerCache();
    cache.set('a', answer('1', 10, 'old'));
    cache.set('a', answer('2', 10, 'new!'));
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(1 + 4 + 64);
    expect(cache.get('a', '2', 0)).toBe('new!');
  });
});
