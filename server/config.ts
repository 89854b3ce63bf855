import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  /** `DATABASE_URL`: a postgres:// URL runs on PostgreSQL instead of the SQLite file. */
  databaseUrl: string | null;
  staticDir: string;
  logLevel: string;
}

/** Every setting has a default, so `npm start` needs none. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseFile: resolve(dataDir, 'portal.sqlite'),
    databaseUrl: env.DATABASE_URL?.trim() || null,
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
