import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/**
 * Whether a new password may be set (sign-up, reset, change, a team invite's acceptance): the server decides,
 * through the contract's `x-password-strength` on NewPassword (server/contract/contract.ts), so every call that
 * sets a password refuses the same ones with the same words. The judge is zxcvbn-ts with its common dictionary
 * (about 49,000 passwords from breach corpora, with their l33t, reversed and capitalised forms, and the
 * keyboard layouts for patterns such as 'qwertyuiop'): a password it rates 0 or 1 (under a million guesses) is
 * refused, and so is one character repeated.
 */

export const PASSWORD_MESSAGES = {
  repeated:
    'This password repeats one character. Choose a longer one that mixes words, such as three or four unrelated words.',
  common:
    'This password is too common. Choose one that is not on lists of leaked passwords, such as three or four unrelated words.',
  guessable:
    'This password is too easy to guess (a sequence, a keyboard pattern, a date or a common word). Add another word or two, or choose three or four unrelated words.',
} as const;

const MESSAGE_SET: ReadonlySet<string> = new Set(Object.values(PASSWORD_MESSAGES));
/** True for the words of a refused password (the router puts them first in its 422). */
export const isPasswordMessage = (message: string) => MESSAGE_SET.has(message);

/** The lowest zxcvbn score a new password may have: 2 ("somewhat guessable": at least a million guesses). */
export const MIN_SCORE = 2;

/**
 * The characters judged: the first 64. zxcvbn's matching grows faster than the length (a 128-character password
 * took 290 ms of one core, before any throttle); 64 take about a sixth of that, and a password whose first 64
 * characters are strong is strong.
 */
const MAX_JUDGED = 64;

// made on first use: the dictionaries take ~120 ms and a few MB to build, which a start need not pay
let judge: ZxcvbnFactory | undefined;
const judgeOf = () => {
  judge ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, maxLength: MAX_JUDGED });
  return judge;
};

/** Why `password` may not be set, in words that say what to do instead; null when it may. */
export function passwordProblem(password: string): string | null {
  const text = password.normalize('NFKC');
  if (/^(.)\1*$/su.test(text)) return PASSWORD_MESSAGES.repeated;
  const result = judgeOf().check(text);
  if (result.score >= MIN_SCORE) return null;
  const whole = result.sequence.length === 1 ? result.sequence[0] : undefined;
  if (whole?.pattern === 'dictionary' && whole.dictionaryName === 'passwords-common') return PASSWORD_MESSAGES.common;
  return result.sequence.some((m) => m.pattern === 'dictionary' && m.dictionaryName === 'passwords-common')
    ? PASSWORD_MESSAGES.common
    : PASSWORD_MESSAGES.guessable;
}
