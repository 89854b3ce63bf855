import { describe, expect, it } from 'vitest';
import {
  acceptAttribute,
  checkFile,
  DEFAULT_FILE_RULES,
  DEPOSIT_PROOF_RULES,
  extensionOf,
  formatFileSize,
  MB,
} from './file-rules';

describe('checkFile', () => {
  it('the deposit proof takes pdf, jpg, jpeg and png up to 10 MB', () => {
    for (const name of ['proof.pdf', 'proof.JPG', 'a.b.jpeg', 'scan.png']) {
      expect(checkFile({ name, size: 10 * MB }, DEPOSIT_PROOF_RULES), name).toBeNull();
    }
  });

  it("refuses another type with the spec's message", () => {
    expect(checkFile({ name: 'proof.gif', size: 10 }, DEPOSIT_PROOF_RULES)).toBe(
      'Invalid file type. Allowed types: pdf, jpg, jpeg, png',
    );
    expect(checkFile({ name: 'pdf', size: 10 }, DEPOSIT_PROOF_RULES)).toBe(
      'Invalid file type. Allowed types: pdf, jpg, jpeg, png',
    );
  });

  it("refuses 10 MB and 1 byte with the spec's message", () => {
    expect(checkFile({ name: 'proof.pdf', size: 10 * MB + 1 }, DEPOSIT_PROOF_RULES)).toBe(
      'File size exceeds 10MB limit',
    );
  });

  it('the type is checked before the size', () => {
    expect(checkFile({ name: 'big.exe', size: 50 * MB }, DEPOSIT_PROOF_RULES)).toMatch(/^Invalid file type/);
  });

  it('the general field takes any type up to 5 MB', () => {
    expect(checkFile({ name: 'notes.txt', size: 5 * MB })).toBeNull();
    expect(checkFile({ name: 'notes.txt', size: 5 * MB + 1 }, DEFAULT_FILE_RULES)).toBe('File size exceeds 5MB limit');
  });
});

describe('file helpers', () => {
  it('reads the extension', () => {
    expect(extensionOf('a.PDF')).toBe('pdf');
    expect(extensionOf('.env')).toBe('');
    expect(extensionOf('README')).toBe('');
  });
  it('builds the accept attribute', () => {
    expect(acceptAttribute(DEPOSIT_PROOF_RULES)).toBe('.pdf,.jpg,.jpeg,.png');
    expect(acceptAttribute(DEFAULT_FILE_RULES)).toBeUndefined();
  });
  it('writes sizes for people', () => {
    expect(formatFileSize(812)).toBe('812 B');
    expect(formatFileSize(14540)).toBe('14.2 KB');
    expect(formatFileSize(3.5 * MB)).toBe('3.5 MB');
  });
});
