import type { Generated } from 'kysely';

// The tables of the login throttle and the browsers accounts know (server/auth/throttle.ts, devices.ts): one
// counter row per key, the same columns whatever the key.

/** The counter per account address, from the browsers the account does not know. */
export interface LoginFailureTable {
  email: string;
  failed_logins: number;
  locked_until: string | null;
  last_failed_at: string;
  /** Tries being verified now (see server/auth/throttle.ts); they stop counting after `in_flight_until`. */
  in_flight: Generated<number>;
  in_flight_until: string | null;
}

/** The same counter per client: a socket address, the address a trusted proxy forwarded, or an IPv6 /64. */
export interface LoginClientFailureTable {
  client: string;
  failed_logins: number;
  locked_until: string | null;
  last_failed_at: string;
  in_flight: Generated<number>;
  in_flight_until: string | null;
}

/** The same counter per account address and client together (`<email>\n<client>`). */
export interface LoginPairFailureTable {
  pair: string;
  failed_logins: number;
  locked_until: string | null;
  last_failed_at: string;
  in_flight: Generated<number>;
  in_flight_until: string | null;
}

/** The same counter per known browser (its device cookie's hash). */
export interface LoginDeviceFailureTable {
  device: string;
  failed_logins: number;
  locked_until: string | null;
  last_failed_at: string;
  in_flight: Generated<number>;
  in_flight_until: string | null;
}

/** A browser that logged in to an account: the SHA-256 of its device cookie (server/auth/devices.ts). */
export interface LoginDeviceTable {
  device_hash: string;
  user_id: number;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}
