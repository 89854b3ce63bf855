import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartupError } from './config';
import { SOCKET_LIMITS, startServer } from './main';

/** The server as `npm start` runs it, on a SQLite file in a folder of its own. */
describe('starting the server', () => {
  let dataDir: string;
  const options = (port: number) => ({
    port,
    host: '127.0.0.1',
    dataDir,
    databaseFile: join(dataDir, 'portal.sqlite'),
    databaseUrl: null,
    staticDir: '',
    logLevel: 'silent',
  });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'sb-portal-start-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says in one line that the port is taken, before any database is created', async () => {
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as { port: number };
    try {
      const failure = await startServer(options(port)).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(StartupError);
      const message = (failure as Error).message;
      expect(message).toBe(
        `Port ${port} on 127.0.0.1 is already in use (another SB Portal?). Stop it, or choose another port: PORT=${port + 1} npm start`,
      );
      expect(message).not.toContain('\n');
      expect(existsSync(join(dataDir, 'portal.sqlite'))).toBe(false);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('serves on 127.0.0.1, and frees the port when closed', async () => {
    const server = await startServer(options(0));
    try {
      expect(server.config.host).toBe('127.0.0.1');
      const res = await fetch(`http://127.0.0.1:${server.port}/api/health`);
      expect(res.status).toBe(200);
      expect(existsSync(join(dataDir, 'portal.sqlite'))).toBe(true);
    } finally {
      await server.close();
    }
    await expect(fetch(`http://127.0.0.1:${server.port}/api/health`)).rejects.toThrow();
  });

  it('lets go of a client that never finishes its headers, long before the five minutes of Node', async () => {
    const server = await startServer(options(0));
    try {
      const started = Date.now();
      const closedAfter = await new Promise<number>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n'));
        socket.on('error', reject);
        socket.on('close', () => resolve(Date.now() - started));
        socket.resume();
      });
      // headersTimeout 15 s, checked every 2 s: well under a minute on a busy machine
      expect(closedAfter).toBeGreaterThanOrEqual(SOCKET_LIMITS.headersTimeout - 1_000);
      expect(closedAfter).toBeLessThan(60_000);
    } finally {
      await server.close();
    }
  }, 90_000);
});
