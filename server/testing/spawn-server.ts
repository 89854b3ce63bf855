import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child-server.ts', import.meta.url));

/**
 * Starts a real server process (server/testing/child-server.ts) on the database at `target` and answers once it
 * listens, with its port: tests of several processes on one database (behind a load balancer).
 */
export function startChildServer(target: string): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, DB_TARGET: target },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const port = /listening (\d+)/.exec(out)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.on('exit', (code) => reject(new Error(`the server process ended (${code}) before it listened`)));
  });
}
