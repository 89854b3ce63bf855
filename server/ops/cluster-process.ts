import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

const START = fileURLToPath(new URL('../cli/start.ts', import.meta.url));

export interface Started {
  child: ChildProcess;
  port: number;
  out: () => string;
  err: () => string;
  /** Resolves with the exit code (or the signal) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * `npm start`'s server (server/cli/start.ts under tsx) as a child process, with `env` over a quiet default; answers
 * once it prints its address (the primary does once every worker serves), or rejects when it ends first.
 */
export function startServerProcess(env: Record<string, string>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', START], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        STATIC_DIR: '/nonexistent',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | string>((done) =>
      child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
    );
    const started: Started = { child, port: 0, out: () => out, err: () => err, exited };
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const port = /running at http:\/\/[^:]+:(\d+)\//.exec(out)?.[1];
      if (port && !started.port) {
        started.port = Number(port);
        resolve(started);
      }
    });
    child.stderr?.on('data', (chunk) => {
      err += String(chunk);
    });
    void exited.then((code) => {
      if (!started.port) reject(new Error(`the server ended (${code}) before it served:\n${err}\n${out}`));
    });
  });
}

export interface Answer {
  status: number;
  body: { success: boolean; message?: string; data?: Record<string, unknown> };
}

/**
 * One call on a connection of its own (no keep-alive): the cluster hands each new connection to the next
 * worker, so calls in a row reach different workers.
 */
export function callOnce(
  port: number,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const text = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api${path}`,
        agent: false,
        headers: {
          ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let data = '';
        res.on('data', (chunk) => {
          data += String(chunk);
        });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) as Answer['body'] });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { success: false, message: data } });
          }
        });
      },
    );
    req.on('error', reject);
    // a connection the primary handed to a worker killed at that moment is never answered: give up on it
    const timeoutMs = options.timeoutMs ?? 10_000;
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${method} ${path} in ${timeoutMs} ms`)));
    if (text) req.write(text);
    req.end();
  });
}

/** The process ids of a primary's workers (its children running the server, not tsx's esbuild). */
export function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', 'cli/start'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
