import { topUpReference } from '../wallet';

/** What a line's text says about whose top-up it is. */
export interface ReferenceReading {
  /** The sellers whose reference it holds (one when it is clear). */
  sellers: number[];
  /** True when one character had to be corrected to read it. */
  corrected: boolean;
}

const SEP = String.raw`[\s\-_./:#]*`;
/** 'SBP', then the digits, with any separators between the characters. */
const EXACT = new RegExp(String.raw`S${SEP}B${SEP}P${SEP}((?:\d${SEP}){7,13})`, 'g');
/** Runs of 7 to 13 digits (separators allowed), for the one-typo pass. */
const RUN = new RegExp(String.raw`(?<![0-9])((?:\d${SEP}){7,13})`, 'g');

const checks = (id: number, check: string) => topUpReference(id).endsWith(`-${check}`);

/**
 * The seller a run of digits names: `id` then two check digits. The id is written with 6 digits at least
 * (zero-padded) and never padded beyond: 8 digits, or more without a leading zero; the shortest that checks.
 */
function sellerOf(digits: string): number | null {
  for (let length = 8; length <= Math.min(digits.length, 13); length++) {
    const id = digits.slice(0, length - 2);
    if (length > 8 && id.startsWith('0')) continue;
    if (checks(Number(id), digits.slice(length - 2, length))) return Number(id);
  }
  return null;
}

/**
 * The digit strings one character away: a digit changed or two neighbours swapped; one added when a digit is
 * missing (7), one dropped when one is too many (9 with a zero-padded id).
 */
function oneAway(digits: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < digits.length; i++) {
    for (const d of '0123456789') if (d !== digits[i]) out.add(digits.slice(0, i) + d + digits.slice(i + 1));
    if (i + 1 < digits.length) out.add(digits.slice(0, i) + digits[i + 1] + digits[i] + digits.slice(i + 2));
  }
  if (digits.length === 7) {
    for (let i = 0; i <= 7; i++) for (const d of '0123456789') out.add(digits.slice(0, i) + d + digits.slice(i));
  }
  if (digits.length === 9 && digits.startsWith('0')) {
    for (let i = 0; i < 9; i++) out.add(digits.slice(0, i) + digits.slice(i + 1));
  }
  out.delete(digits);
  return [...out];
}

/** How many single edits (a change, an insertion, a deletion, two neighbours swapped) turn `a` into `b`. */
function distance(a: string, b: string): number {
  const w = b.length + 1;
  const d: number[] = [];
  const at = (i: number, j: number) => d[i * w + j] ?? i + j;
  for (let i = 0; i <= a.length; i++) {
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        d[i * w + j] = i + j;
        continue;
      }
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * w + j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The letters written just before a run of digits: the end of the word it follows (at most 3 characters). */
function prefixBefore(upper: string, start: number): string {
  const before = upper.slice(0, start).replace(/[\s\-_./:#]+$/, '');
  return /[A-Z0-9]{1,3}$/.exec(before)?.[0] ?? '';
}

/**
 * Reads the top-up reference (`SBP000012-47`) in a transfer's text as people write it: any case, with spaces,
 * dashes or words around it. When no reference checks, one mistyped character is tolerated (in 'SBP' or in the
 * digits, not both): every correction whose check digits hold is a candidate, and the caller decides whether
 * exactly one of them fits a pending top-up.
 */
export function readReference(text: string): ReferenceReading {
  const upper = text.toUpperCase();
  const exact = new Set<number>();
  for (const m of upper.matchAll(EXACT)) {
    const seller = sellerOf((m[1] ?? '').replace(/\D/g, ''));
    if (seller !== null) exact.add(seller);
  }
  if (exact.size > 0) return { sellers: [...exact], corrected: false };
  const corrected = new Set<number>();
  for (const m of upper.matchAll(RUN)) {
    const digits = (m[1] ?? '').replace(/\D/g, '');
    const prefixOff = distance(prefixBefore(upper, m.index ?? 0), 'SBP');
    if (prefixOff > 1) continue;
    if (prefixOff === 1) {
      // the mistyped character was in 'SBP': the digits must check as they are
      const seller = sellerOf(digits);
      if (seller !== null) corrected.add(seller);
      continue;
    }
    for (const variant of oneAway(digits)) {
      const seller = sellerOf(variant);
      if (seller !== null) corrected.add(seller);
    }
  }
  return { sellers: [...corrected], corrected: corrected.size > 0 };
}
