import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of the part of Stripe's API the `stripe` adapter and Stripe.js use, for tests only (the server's
 * vitest tests and the e2e server; nothing in a production path imports it). It keeps PaymentIntents with the
 * states a real one goes through: `requires_payment_method` when made, then on confirmation `succeeded`, or back
 * to `requires_payment_method` with `last_payment_error` when the card is declined. Its test cards are Stripe's:
 * 4000 0000 0000 0002 is declined (generic_decline), 4000 0000 0000 9995 lacks funds, any other card pays.
 *
 * - `POST /v1/payment_intents` (secret key): amount, currency, metadata[...]; `Idempotency-Key` honoured (the
 *   same key answers the same intent; the same key with other parameters is Stripe's idempotency_error);
 * - `GET /v1/payment_intents/:id` (secret key, or the publishable key with the intent's client_secret);
 * - `POST /v1/payment_methods` (publishable key): a card, as Stripe.js tokenises it from its Element;
 * - `POST /v1/payment_intents/:id/confirm` (publishable key with the client_secret, as Stripe.js sends it);
 * - `POST /v1/refunds` (secret key): payment_intent; a second refund is `charge_already_refunded`.
 *
 * The secret key's calls carry `Authorization: Bearer sk_...`; Stripe.js's carry `key=pk_...` in the form body
 * (a simple CORS request, with `Access-Control-Allow-Origin: *` on every answer).
 */
export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded';
  client_secret: string;
  metadata: Record<string, string>;
  payment_method: string | null;
  last_payment_error: StripeErrorBody | null;
  latest_charge: string | null;
  capture_method: 'automatic';
  confirmation_method: 'automatic';
  created: number;
  livemode: false;
}

interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'authentication_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  payment_intent?: FakeIntent;
}

export interface FakeRequest {
  method: string;
  path: string;
  /** which key the call carried */
  auth: 'secret' | 'publishable' | 'none';
  params: Record<string, unknown>;
}

export interface StripeFake {
  /** e.g. http://127.0.0.1:12111, the value of STRIPE_API_BASE */
  url: string;
  intents: Map<string, FakeIntent>;
  refunds: Map<string, { id: string; payment_intent: string; amount: number }>;
  /** every call received, in order */
  requests: FakeRequest[];
  close(): Promise<void>;
}

const DECLINES: Record<string, { decline_code: string; message: string }> = {
  '4000000000000002': { decline_code: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': { decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding (`metadata[booking_id]=7`, `card[number]=...`) into nested objects. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.replace(/\]/g, '').split('[');
    let node = out;
    for (const [i, part] of path.entries()) {
      if (i === path.length - 1) node[part] = value;
      else {
        if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
        node = node[part] as Record<string, unknown>;
      }
    }
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeFake(options: { port?: number; host?: string } = {}): Promise<StripeFake> {
  const intents = new Map<string, FakeIntent>();
  const refunds = new Map<string, { id: string; payment_intent: string; amount: number }>();
  const cards = new Map<string, { number: string }>();
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const requests: FakeRequest[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, answer: unknown) => {
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Access-Control-Allow-Origin': '*',
        'Request-Id': id('req'),
      });
      res.end(JSON.stringify(answer));
    };
    const fail = (status: number, error: StripeErrorBody) => send(status, { error });
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Stripe-Version',
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const text = req.method === 'POST' ? await readBody(req) : '';
    const params: Record<string, unknown> =
      req.method === 'POST' ? parseStripeForm(text) : Object.fromEntries(url.searchParams);
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const key = bearer || String(params.key ?? '');
    const auth = key.startsWith('sk_') ? 'secret' : key.startsWith('pk_') ? 'publishable' : 'none';
    requests.push({ method: req.method ?? '', path: url.pathname, auth, params });
    if (auth === 'none') {
      return fail(401, { type: 'authentication_error', message: 'You did not provide an API key.' });
    }
    const needSecret = () => {
      if (auth === 'secret') return false;
      fail(401, {
        type: 'invalid_request_error',
        message: 'This API call cannot be made with a publishable API key.',
        code: 'secret_key_required',
      });
      return true;
    };
    const missing = (what: string, value: string) =>
      fail(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such ${what}: '${value}'`,
      });
    // a POST with an Idempotency-Key answers again what it answered the first time
    const idemKey = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const scope = typeof idemKey === 'string' ? `${url.pathname} ${idemKey}` : null;
    if (scope) {
      const seen = idempotent.get(scope);
      if (seen) {
        if (seen.body !== text) {
          return fail(400, {
            type: 'idempotency_error',
            message:
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          });
        }
        return send(seen.status, seen.answer);
      }
    }
    const answer = (status: number, body: unknown) => {
      if (scope && status < 500) idempotent.set(scope, { body: text, status, answer: body });
      send(status, body);
    };

    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v1') return fail(404, { type: 'invalid_request_error', message: 'Unrecognized request URL.' });

    if (req.method === 'POST' && parts.length === 2 && parts[1] === 'payment_intents') {
      if (needSecret()) return;
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1) {
        return fail(400, { type: 'invalid_request_error', param: 'amount', message: 'Invalid integer: amount' });
      }
      const currency = String(params.currency ?? '');
      if (!/^[a-z]{3}$/.test(currency)) {
        return fail(400, { type: 'invalid_request_error', param: 'currency', message: 'Invalid currency' });
      }
      const pi = id('pi');
      const intent: FakeIntent = {
        id: pi,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency,
        status: 'requires_payment_method',
        client_secret: `${pi}_secret_${randomBytes(12).toString('hex')}`,
        metadata: Object.fromEntries(
          Object.entries((params.metadata ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
        ),
        payment_method: null,
        last_payment_error: null,
        latest_charge: null,
        capture_method: 'automatic',
        confirmation_method: 'automatic',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      intents.set(pi, intent);
      return answer(200, intent);
    }

    if (parts[1] === 'payment_intents' && parts[2]) {
      const intent = intents.get(parts[2]);
      if (!intent) return missing('payment_intent', parts[2]);
      // the publishable key reaches an intent only with its client_secret
      if (auth === 'publishable' && params.client_secret !== intent.client_secret) {
        return missing('payment_intent', parts[2]);
      }
      if (req.method === 'GET' && parts.length === 3) return send(200, intent);
      if (req.method === 'POST' && parts.length === 4 && parts[3] === 'confirm') {
        if (intent.status !== 'requires_payment_method') {
          return fail(400, {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: `This PaymentIntent's status is ${intent.status}.`,
            payment_intent: intent,
          });
        }
        const card = cards.get(String(params.payment_method ?? ''));
        if (!card) return missing('payment_method', String(params.payment_method ?? ''));
        intent.payment_method = String(params.payment_method);
        const decline = DECLINES[card.number];
        if (decline) {
          intent.last_payment_error = { type: 'card_error', code: 'card_declined', ...decline };
          return answer(402, {
            error: { type: 'card_error', code: 'card_declined', ...decline, payment_intent: { ...intent } },
          });
        }
        intent.status = 'succeeded';
        intent.amount_received = intent.amount;
        intent.last_payment_error = null;
        intent.latest_charge = id('ch');
        return answer(200, intent);
      }
    }

    if (req.method === 'POST' && parts.length === 2 && parts[1] === 'payment_methods') {
      const card = (params.card ?? {}) as Record<string, string>;
      const number = String(card.number ?? '').replace(/\D/g, '');
      if (params.type !== 'card' || !/^\d{12,19}$/.test(number)) {
        return fail(402, {
          type: 'card_error',
          code: 'incorrect_number',
          param: 'card[number]',
          message: 'Your card number is incorrect.',
        });
      }
      const pm = id('pm');
      cards.set(pm, { number });
      return answer(200, {
        id: pm,
        object: 'payment_method',
        type: 'card',
        card: { brand: number.startsWith('5') ? 'mastercard' : 'visa', last4: number.slice(-4) },
      });
    }

    if (req.method === 'POST' && parts.length === 2 && parts[1] === 'refunds') {
      if (needSecret()) return;
      const pi = String(params.payment_intent ?? '');
      const intent = intents.get(pi);
      if (!intent) return missing('payment_intent', pi);
      if (intent.status !== 'succeeded') {
        return fail(400, {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: 'This PaymentIntent does not have a successful charge to refund.',
        });
      }
      if ([...refunds.values()].some((r) => r.payment_intent === pi)) {
        return fail(400, {
          type: 'invalid_request_error',
          code: 'charge_already_refunded',
          message: `Charge ${intent.latest_charge} has already been refunded.`,
        });
      }
      const refund = { id: id('re'), payment_intent: pi, amount: intent.amount };
      refunds.set(refund.id, refund);
      return answer(200, { ...refund, object: 'refund', currency: intent.currency, status: 'succeeded' });
    }

    return fail(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
      }
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    intents,
    refunds,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
