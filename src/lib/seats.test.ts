import { describe, expect, it } from 'vitest';
import { blockText } from './seats';

describe('blockText', () => {
  it("says 'block' once: a stadium's block name as it is, a seller's own after the word", () => {
    expect(blockText('Block 82')).toBe('Block 82');
    expect(blockText('block 7', true)).toBe('block 7');
    expect(blockText('B1')).toBe('block B1');
    expect(blockText('43', true)).toBe('Block 43');
    expect(blockText('Blocked view', true)).toBe('Block Blocked view');
  });
});
