import type { FieldError } from '../contract/contract';

/** An answer the server chose to give; anything else thrown becomes a 500 with a generic message. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 501 | 503,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * A refusal that keeps what its call wrote before it: an `x-transaction` call commits, then answers it (any other
 * error undoes the call's writes). For a refusal whose cause was found and settled on the way: a hold found
 * ended, whose tickets went back to the listing, refuses the booking and keeps the release.
 */
export class KeptRefusal extends HttpError {}

export const MESSAGES = {
  unexpected: 'An unexpected error occurred. Please try again later.',
  invalidJson: 'The request body is not valid JSON.',
  needsJson: 'The request body must be JSON (Content-Type: application/json).',
  validation: 'Some fields are missing or invalid.',
  loginRequired: 'Please log in to continue.',
  kycRequired: 'Complete your identity verification (KYC) to use this.',
  sessionExpired: 'Your session has expired. Please log in again.',
  forbidden: "You don't have permission to access this.",
  notImplemented: 'This call is part of the contract but is not available yet.',
  needsMultipart: 'The request body must be multipart/form-data (Content-Type: multipart/form-data; boundary=...).',
  encoded: 'Compressed request bodies are not accepted (Content-Encoding must be absent or identity).',
  idempotencyMismatch:
    'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
} as const;

export function tooLarge(limitBytes: number, headers?: Record<string, string>): HttpError {
  const limit = limitBytes >= 1024 * 1024 ? `${limitBytes / 1024 / 1024} MB` : `${limitBytes / 1024} KB`;
  return new HttpError(413, `The request body is too large (the limit is ${limit}).`, undefined, headers);
}

export function envelopeOf(error: HttpError) {
  return error.errors
    ? { success: false as const, message: error.message, errors: error.errors }
    : { success: false as const, message: error.message };
}
