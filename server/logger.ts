import pino from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from './config';

export type Logger = pino.Logger;

const REQUEST_FIELDS = ['reqId', 'method', 'path', 'status', 'ms'];

/** A request line as a person reads it: `GET /api/health 200 3 ms`. */
function requestMessage(log: Record<string, unknown>): string {
  return `${String(log.method)} ${String(log.path)} ${String(log.status)} ${String(log.ms)} ms`;
}

/** Readable lines: one short line per request, any other entry with its fields below it. */
function prettyStream(out: NodeJS.WritableStream, colorize: boolean): pino.DestinationStream {
  const common = { colorize, translateTime: 'SYS:HH:MM:ss' };
  const entry = pretty.prettyFactory(common);
  const request = pretty.prettyFactory({ ...common, ignore: REQUEST_FIELDS.join(','), messageFormat: requestMessage });
  return {
    write(line: string) {
      const log = JSON.parse(line) as Record<string, unknown>;
      out.write((log.msg === 'request' && typeof log.method === 'string' ? request : entry)(log));
    },
  };
}

/**
 * pino, with the same redactions either way: JSON lines for log collectors (the default when stdout is not a
 * terminal), or readable lines (`LOG_FORMAT=pretty`, the default on a terminal). `destination` is for tests.
 */
export function createLogger(
  level = process.env.LOG_LEVEL ?? 'info',
  format: LogFormat = process.stdout.isTTY ? 'pretty' : 'json',
  destination?: NodeJS.WritableStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'password', 'token'], remove: true },
  };
  if (format === 'pretty') {
    const colorize = destination ? false : Boolean(process.stdout.isTTY);
    return pino(options, prettyStream(destination ?? process.stdout, colorize));
  }
  // stdout written asynchronously: a line waits for no write of its own (a burst of requests goes out in a few
  // writes), and pino writes what is left when the process exits
  return pino(
    options,
    (destination as pino.DestinationStream | undefined) ?? pino.destination({ dest: 1, sync: false }),
  );
}
