import { resolve } from 'node:path';

export type LogFormat = 'json' | 'pretty';

export interface Config {
  port: number;
  /** `HOST`: the interface to listen on; 127.0.0.1 (this machine only) unless told otherwise. */
  host: string;
  dataDir: string;
  databaseFile: string;
  /** `DATABASE_URL`: a postgres:// URL runs on PostgreSQL instead of the SQLite file. */
  databaseUrl: string | null;
  staticDir: string;
  logLevel: string;
  /** `LOG_FORMAT`: readable lines on a terminal, JSON lines otherwise, unless set. */
  logFormat: LogFormat;
  /**
   * `TRUST_PROXY`: how many proxies in front of the server may be believed about the client's address
   * (X-Forwarded-For) and the request id; 0 (the default) believes none.
   */
  trustProxy: number;
  /**
   * `VALIDATE_RESPONSES`: check every answer against the contract and turn one off the contract into a 500
   * (on in `npm run dev` and the browser tests; off for `npm start`, where a user would pay for the check).
   */
  validateResponses: boolean;
}

/** A start-up problem the person starting the server can fix: printed as one line, without a stack. */
export class StartupError extends Error {}

function parseTrustProxy(raw: string | undefined): number {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === 'no') return 0;
  if (value === 'true' || value === 'yes') return 1;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) {
    throw new StartupError(
      `TRUST_PROXY must be the number of proxies in front of the server (0, 1, 2...), not "${raw}"`,
    );
  }
  return hops;
}

function parseLogFormat(raw: string | undefined, isTty: boolean): LogFormat {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return isTty ? 'pretty' : 'json';
  if (value === 'json' || value === 'pretty') return value;
  throw new StartupError(`LOG_FORMAT must be json or pretty, not "${raw}"`);
}

/** Every setting has a default, so `npm start` needs none. */
export function readConfig(env: NodeJS.ProcessEnv = process.env, isTty = Boolean(process.stdout.isTTY)): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError(`PORT must be a port number, not "${env.PORT}"`);
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  return {
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir,
    databaseFile: resolve(dataDir, 'portal.sqlite'),
    databaseUrl: env.DATABASE_URL?.trim() || null,
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: parseLogFormat(env.LOG_FORMAT, isTty),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    validateResponses: ['1', 'true', 'yes'].includes((env.VALIDATE_RESPONSES ?? '').trim().toLowerCase()),
  };
}
