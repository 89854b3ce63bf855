import pino from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from './config';
import { currentRequest } from './ops/request-facts';

export type Logger = pino.Logger;

const REQUEST_FIELDS = ['reqId', 'accountId', 'operation', 'outcome', 'method', 'path', 'status', 'ms'];

/**
 * What no log line may carry, wherever it sits in what is logged (a request's headers, a body, an error's
 * fields): bearer tokens and passwords, the contract's secrets. pino's paths name a key at the top or one level
 * down (`*.password`); deeper objects are not logged whole anywhere.
 */
export const REDACTED = [
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  ...[
    'password',
    'current_password',
    'password_confirmation',
    'token',
    'user_token',
    'secret',
    'client_secret',
  ].flatMap((key) => [key, `*.${key}`]),
];

/** A request line as a person reads it: `GET /api/health 200 3 ms`, then the operation, caller and outcome. */
function requestMessage(log: Record<string, unknown>): string {
  const who = log.accountId === null || log.accountId === undefined ? '' : ` account ${String(log.accountId)}`;
  const what = log.operation ? ` ${String(log.operation)}${who} ${String(log.outcome)}` : '';
  return `${String(log.method)} ${String(log.path)} ${String(log.status)} ${String(log.ms)} ms${what}`;
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
    redact: { paths: REDACTED, remove: true },
    // a line written while a request runs says whose request it is (the request line says it itself)
    mixin() {
      const facts = currentRequest.getStore();
      return facts ? { reqId: facts.requestId, accountId: facts.accountId, operation: facts.operation } : {};
    },
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
