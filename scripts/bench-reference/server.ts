/**
 * bench:purchase's reference server: the same three calls as the product (add-to-cart, inventory/buy, the SB Pay
 * confirmation) on the same paths, with the same bodies and the essentials of the same answers, written as
 * plainly as a correct server can be (node:http, better-sqlite3 or pg, no code of the product's). It is the
 * yardstick the product's purchase path is measured against (docs/decisions/purchase-reference-server.md).
 *
 * Run by bench:purchase in a child process: REFERENCE_TARGET (a SQLite file or a postgres:// URL), PORT,
 * REFERENCE_POOL (PostgreSQL connections, default 10). Says 'ready' to its parent once it listens.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { addToCart, confirmBooking, createBooking } from './calls';
import { type Answer, type Call, failure, openStore } from './store';

const PREFIX = '/api/purchase/lmt-trade/';
const BILLING_FIELDS = ['first_name', 'last_name', 'email', 'address', 'country', 'postal_code'] as const;
const OPTIONAL_BILLING = ['dialing_code', 'mobile_no', 'city'] as const;

const store = await openStore(process.env.REFERENCE_TARGET ?? '', Number(process.env.REFERENCE_POOL ?? 10));

/** A positive integer id from a query value or a body field, or undefined. */
function id(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^[0-9]{1,10}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 2_147_483_647 ? n : undefined;
}

const invalid = (path: string, message: string): Answer =>
  failure(422, 'Some fields are missing or invalid.', [{ path, message }]);

type Prepared = Answer | Pick<Call, 'operation' | 'work'>;

/** The call a request asks for, with its input read and checked, or the answer that refuses it. */
function route(url: URL, body: Record<string, unknown>): Prepared {
  const rest = url.pathname.slice(PREFIX.length);
  if (rest === 'add-to-cart') {
    const q = url.searchParams;
    const listingId = id(q.get('sell_ticket_id'));
    const matchId = id(q.get('match_id'));
    const quantity = id(q.get('quantity'));
    const method = id(q.get('payment_method') ?? '1');
    if (listingId === undefined) return invalid('/query/sell_ticket_id', 'must be an id');
    if (matchId === undefined) return invalid('/query/match_id', 'must be an id');
    if (quantity === undefined || quantity > 100) return invalid('/query/quantity', 'must be 1 to 100');
    if (method === undefined || method > 3) return invalid('/query/payment_method', 'must be 1, 2 or 3');
    const input = { listingId, matchId, quantity, method, currency: q.get('currrency') ?? 'GBP' };
    return { operation: 'addToCart', work: (run, user, now) => addToCart(run, user, input, now) };
  }
  if (rest.startsWith('inventory/buy/')) {
    const listingId = id(rest.slice('inventory/buy/'.length));
    const cartId = id(body.cart_id);
    const method = id(body.payment_method);
    if (listingId === undefined) return invalid('/path/sell_ticket_id', 'must be an id');
    if (cartId === undefined) return invalid('/body/cart_id', 'must be an id');
    if (method === undefined || method > 3) return invalid('/body/payment_method', 'must be 1, 2 or 3');
    const billing: Record<string, unknown> = {};
    for (const f of BILLING_FIELDS) {
      if (body[f] === undefined || body[f] === '') return failure(422, 'Please add a billing address');
      billing[f] = body[f];
    }
    for (const f of OPTIONAL_BILLING) if (body[f] !== undefined) billing[f] = body[f];
    const input = { listingId, cartId, method, billing };
    return { operation: 'createBooking', work: (run, user, now) => createBooking(run, user, input, now) };
  }
  if (rest === 'confirmation') {
    const bookingId = id(body.booking_id);
    if (bookingId === undefined) return invalid('/body/booking_id', 'must be an id');
    if (body.payment_method !== 1) return invalid('/body/payment_method', 'the reference pays by SB Pay (1) only');
    return {
      operation: 'confirmBooking',
      work: (run, user, now) => confirmBooking(run, user, bookingId, store.escrow, now),
    };
  }
  return failure(404, 'Not found.');
}

function send(res: ServerResponse, a: Answer) {
  res.writeHead(a.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(a.text),
    'cache-control': 'no-store',
  });
  res.end(a.text);
}

async function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
  const url = new URL(req.url ?? '/', 'http://reference');
  if (url.pathname === '/api/health') return send(res, { status: 200, text: '{"success":true,"message":"ok"}' });
  if (!url.pathname.startsWith(PREFIX)) return send(res, failure(404, 'Not found.'));
  if (req.method !== 'POST') return send(res, failure(405, 'Method not allowed.'));
  const auth = req.headers.authorization ?? '';
  if (!auth.startsWith('Bearer ')) return send(res, failure(401, 'Unauthenticated.'));
  const key = req.headers['idempotency-key'];
  if (typeof key !== 'string' || key.length < 8 || key.length > 255) {
    return send(res, invalid('/header/Idempotency-Key', 'must be 8 to 255 characters'));
  }
  let body: Record<string, unknown> = {};
  if (raw !== '') {
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return send(res, failure(400, 'The body is not JSON.'));
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return send(res, failure(400, 'The body must be a JSON object.'));
    }
  }
  const prepared = route(url, body);
  if ('status' in prepared) return send(res, prepared);
  const tokenHash = createHash('sha256').update(auth.slice('Bearer '.length)).digest('hex');
  const requestHash = createHash('sha256').update(`${url.pathname}?${url.search}\n${raw}`).digest('hex');
  send(res, await store.call({ ...prepared, tokenHash, key, requestHash }));
}

const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    handle(req, res, chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8')).catch((error: Error) =>
      send(res, failure(500, error.message)),
    );
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => process.send?.('ready'));
process.once('SIGTERM', () => {
  server.close(() => void store.close().then(() => process.exit(0)));
  server.closeIdleConnections();
});
