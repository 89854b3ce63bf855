import { hash, randomBytes } from 'node:crypto';

export const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** 256 random bits; only the SHA-256 of a token is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** On every secured call: the one-shot hash, without a Hash object of its own. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function newUserToken(): string {
  return randomBytes(16).toString('hex');
}
