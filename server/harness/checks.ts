import { declares } from './contract-model';
import type { Attack } from './requests';
import type { Validators } from './validators';

/**
 * What the server's insides look like when they leak: stack frames, source files, SQL and driver errors. An
 * answer is searched for them after the strings the request itself sent are taken out (a saved note may echo
 * "SELECT * FROM users" back, and that is not a leak).
 */
export const LEAK_PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['a stack frame', /\bat (?:async )?[\w$.<>[\]]+ \(/],
  ['a stack frame', /\n\s+at /],
  ['a source location', /\.(?:ts|tsx|js|mjs|cjs):\d+/],
  ['a source location', /\bat [^\s"']+:\d+:\d+/],
  ['node_modules', /node_modules/],
  ['a file path', /(?:^|[\s"'(=:])\/(?:work|home|tmp|usr|var|root|opt|srv|app|src|server)\/[\w.-]/],
  ['SQL text', /\bSELECT\b[\s\S]{0,200}\bFROM\b/i],
  ['SQL text', /\b(?:INSERT\s+INTO|DELETE\s+FROM|CREATE\s+TABLE|ALTER\s+TABLE|DROP\s+TABLE)\b/i],
  ['SQL text', /\bUPDATE\s+"?\w+"?\s+SET\b/i],
  ['a database error', /sqlite/i],
  ['a database error', /syntax error/i],
  [
    'a database error',
    /\bconstraint failed\b|violates (?:not-null|foreign key|unique|check) constraint|duplicate key value/i,
  ],
  ['a database error', /\brelation "[^"]+" does not exist|\bcolumn "[^"]+" does not exist|\bpg_\w+/],
  ['a database error', /\bkysely\b/i],
  ['a JavaScript error', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|EvalError|URIError|AggregateError)\b/],
  [
    'a JavaScript error',
    /\bis not a function\b|\bCannot read propert|\bundefined is not\b|\bin JSON at position\b|Unexpected token/,
  ],
];

/** Every string a request carries (parameters, headers, body fields, the raw body), to take out of its answer. */
export function sentStrings(attack: Attack): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        walk(x);
      }
    }
  };
  walk(attack.path);
  walk(attack.query);
  walk(attack.headers);
  const b = attack.body;
  if (b?.kind === 'json') walk(b.value);
  if (b?.kind === 'raw') {
    const text = typeof b.bytes === 'string' ? b.bytes : Buffer.from(b.bytes).toString('utf8');
    out.push(text);
    try {
      walk(JSON.parse(text));
    } catch {
      // not JSON: the text itself is taken out
    }
  }
  if (b?.kind === 'multipart') for (const p of b.parts) out.push(p.name, 'value' in p ? p.value : p.file.name);
  return out.filter((s) => s.length >= 3);
}

export function withoutEcho(text: string, sent: readonly string[]): string {
  let t = text;
  // longest first, so that a string is not left half taken out by a shorter one inside it
  for (const s of [...sent].sort((a, b) => b.length - a.length)) {
    for (const form of new Set([s, JSON.stringify(s).slice(1, -1)])) if (form.length >= 3) t = t.split(form).join('');
  }
  return t;
}

export function leaksIn(text: string): string[] {
  return LEAK_PATTERNS.filter(([, re]) => re.test(text)).map(
    ([what, re]) => `${what} (${re.source.slice(0, 40)}): ${excerpt(text, re)}`,
  );
}

function excerpt(text: string, re: RegExp): string {
  const m = re.exec(text);
  if (!m) return '';
  return JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40));
}

export interface Answered {
  status: number;
  contentType: string;
  text: string;
  /** How many bytes the request body had, when it had one. */
  bodyBytes: number;
}

/** A body this big may be refused for its size (413) even when the contract accepts its shape. */
export const SIZE_REFUSAL_FROM = 16 * 1024;

/** Every rule an answer must keep, whatever the request; the list of what it breaks (empty when none). */
export function checkAnswer(
  attack: Attack,
  answer: Answered,
  validators: Validators,
  /** strings earlier accepted requests sent: stored, they come back in lists (a deposit's notes), not leaks */
  stored: Iterable<string> = [],
): string[] {
  const problems: string[] = [];
  const { status, text } = answer;
  // a planned operation answers 501 by design until it is built; any other 5xx is a failure
  if (status >= 500 && !(status === 501 && attack.op.planned)) problems.push(`answered ${status} (a server error)`);
  const echoes = [...sentStrings(attack), ...[...stored].filter((x) => text.includes(x))];
  for (const leak of leaksIn(withoutEcho(text, echoes))) problems.push(`leaks ${leak}`);
  // an answer the contract declares as text (the metrics) is text; the other rules still hold
  if (attack.op.answers.get(String(status))?.text && /^text\/plain\b/i.test(answer.contentType)) {
    if (attack.expect.kind === 'refuse') problems.push(`accepted (${status}) a request the contract refuses`);
    return problems;
  }
  // a file the contract answers as itself (a data export) is checked by its type, not as the envelope
  const file = status < 300 ? attack.op.answers.get(String(status))?.file : null;
  if (file) {
    if (!answer.contentType.toLowerCase().startsWith(file))
      problems.push(`content-type is '${answer.contentType}', not ${file}`);
    return problems;
  }
  if (!/^application\/json\b/i.test(answer.contentType))
    problems.push(`content-type is '${answer.contentType}', not JSON`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push(`the body is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
    return problems;
  }
  const envelope = body as { success?: unknown; message?: unknown };
  if (!body || typeof body !== 'object' || Array.isArray(body) || typeof envelope.success !== 'boolean') {
    problems.push('the body is not the envelope { success: boolean, message?, data? }');
  } else {
    if ('message' in envelope && typeof envelope.message !== 'string') problems.push('message is not a string');
    if (envelope.success !== status < 400)
      problems.push(`success is ${String(envelope.success)} with status ${status}`);
    if (status >= 400 && typeof envelope.message !== 'string') problems.push('an error answer without a message');
  }
  if (!declares(attack.op, status)) problems.push(`status ${status} is not declared by ${attack.op.operationId}`);
  else problems.push(...validators.answerProblems(attack.op, status, body).map((p) => `off its schema: ${p}`));

  const e = attack.expect;
  if (e.kind === 'refuse' && (status < 400 || status >= 500)) {
    problems.push(`accepted (${status}) a request the contract refuses`);
  }
  if (
    e.kind === 'accept' &&
    (status === 400 || status === 415 || (status === 413 && answer.bodyBytes < SIZE_REFUSAL_FROM))
  ) {
    problems.push(`refused (${status}) a request the contract accepts`);
  }
  if (e.kind === 'status' && !e.statuses.includes(status)) {
    problems.push(`answered ${status}, expected ${e.statuses.join(' or ')} (${e.why})`);
  }
  return problems;
}
