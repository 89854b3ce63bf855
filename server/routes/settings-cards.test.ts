import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import {
  ADD_CARD_UNAVAILABLE,
  CARD_NOT_FOUND,
  DUPLICATE_CARD,
  MAX_STORED_CARDS,
  NOT_VERIFIED,
  SETUP_NOT_FOUND,
  TOO_MANY_CARDS,
} from './settings-cards';
import { call, type Server } from './trade-testing';

// Settings › Stored Cards: list (getLinkedCards) and remove (removeLinkedCard), the owner's cards only.

type Card = { id: number; last4: string };
const cardsOf = async (s: Server, token: string) =>
  ((await call(s, 'GET', '/settings/lmt-pay/linked-cards', token)).body.data as { linked_cards: { data: Card[] } })
    .linked_cards.data;

describe('stored cards', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;

  beforeAll(async () => {
    s = await freshServer();
    [seller, rival, member] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it("another seller's card answers 404 and stays", async () => {
    const rivalCards = await cardsOf(s, rival);
    expect(rivalCards.length).toBeGreaterThan(0);
    const target = rivalCards[0] as Card;
    const answer = await call(s, 'POST', '/settings/lmt-pay/remove-card', seller, { card_id: target.id }, null);
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe(CARD_NOT_FOUND);
    expect((await cardsOf(s, rival)).map((c) => c.id)).toContain(target.id);
  });

  it('removes the caller’s own card once; again it is 404', async () => {
    const before = await cardsOf(s, seller);
    expect(before.length).toBeGreaterThan(0);
    const target = before[0] as Card;
    const removed = await call(s, 'POST', '/settings/lmt-pay/remove-card', seller, { card_id: target.id }, null);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ removed_id: target.id });
    const after = await cardsOf(s, seller);
    expect(after.map((c) => c.id)).not.toContain(target.id);
    expect(after).toHaveLength(before.length - 1);
    const again = await call(s, 'POST', '/settings/lmt-pay/remove-card', seller, { card_id: target.id }, null);
    expect(again.status).toBe(404);
  });

  it('a member without lmt-pay is refused (403); a bad id is 422', async () => {
    const card = (await cardsOf(s, seller))[0] as Card;
    expect((await call(s, 'POST', '/settings/lmt-pay/remove-card', member, { card_id: card.id }, null)).status).toBe(
      403,
    );
    for (const card_id of [0, -1, 2_147_483_648, '1', null]) {
      const answer = await call(s, 'POST', '/settings/lmt-pay/remove-card', seller, { card_id }, null);
      expect(answer.status, JSON.stringify(card_id)).toBe(422);
    }
    expect((await cardsOf(s, seller)).map((c) => c.id)).toContain(card.id);
  });
});

// Add a card (createLinkedCardPayment): a verification at the card gateway (the sandbox here), confirmed by the
// browser's card form (confirmSandboxCard), then stored from what the gateway says.
type Added = { setup_id: string; status: string; gateway: string; client_secret: string; card: Card | null };
const ADD = '/settings/lmt-pay/create-payment';

async function verify(s: Server, token: string, number: string, expMonth = 11) {
  const started = await call(s, 'POST', ADD, token, { holder_name: 'Sam Seller' });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const setup = started.body.data as unknown as Added;
  expect(setup).toMatchObject({ status: 'requires_payment_method', gateway: 'sandbox', card: null });
  const confirmed = await call(s, 'POST', '/payments/sandbox/confirm-card', token, {
    client_secret: setup.client_secret,
    card_number: number,
    exp_month: expMonth,
    exp_year: 2033,
    cvc: '123',
  });
  expect(confirmed.status).toBe(200);
  return { setup, confirmed: confirmed.body.data as { error: { message: string } | null } };
}

describe('add a card', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;

  beforeAll(async () => {
    s = await freshServer();
    [seller, rival, member] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('a verified 4242 card is stored once, even when the store call is replayed or asked again', async () => {
    const before = await cardsOf(s, seller);
    const { setup, confirmed } = await verify(s, seller, '4242 4242 4242 4242');
    expect(confirmed.error).toBeNull();
    const key = 'store-4242-once';
    const stored = await call(s, 'POST', ADD, seller, { setup_id: setup.setup_id }, key);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const card = (stored.body.data as unknown as Added).card as Card & Record<string, unknown>;
    expect(card).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2033, gateway: 'sandbox' });
    expect(card.holder_name).toBe('Sam Seller');
    expect(String(card.recurringDetailReference)).toMatch(/4242$/);
    // the same key replays the reply; a new key with the same verification answers the same card
    const replayed = await call(s, 'POST', ADD, seller, { setup_id: setup.setup_id }, key);
    expect(replayed.body).toEqual(stored.body);
    const again = await call(s, 'POST', ADD, seller, { setup_id: setup.setup_id });
    expect(again.status).toBe(200);
    expect((again.body.data as unknown as Added).card?.id).toBe(card.id);
    const after = await cardsOf(s, seller);
    expect(after).toHaveLength(before.length + 1);
    expect(after.filter((c) => c.id === card.id)).toHaveLength(1);
    // the stored card pays by method 3 at checkout: it is offered there
    const methods = await call(s, 'GET', '/purchase/lmt-trade/payment-methods?currency=GBP', seller);
    expect(JSON.stringify(methods.body)).toContain(String(card.recurringDetailReference));
  });

  it('a declined card is refused at confirmation and storing it is 409 with nothing stored', async () => {
    const before = await cardsOf(s, seller);
    const { setup, confirmed } = await verify(s, seller, '4000 0000 0000 0002');
    expect(confirmed.error?.message).toBe('Your card was declined.');
    const stored = await call(s, 'POST', ADD, seller, { setup_id: setup.setup_id });
    expect(stored.status).toBe(409);
    expect(stored.body.message).toBe(NOT_VERIFIED);
    // never confirmed at all: the same
    const started = await call(s, 'POST', ADD, seller, { holder_name: 'Sam Seller' });
    const unconfirmed = (started.body.data as unknown as Added).setup_id;
    expect((await call(s, 'POST', ADD, seller, { setup_id: unconfirmed })).status).toBe(409);
    expect(await cardsOf(s, seller)).toEqual(before);
  });

  it("another seller's verification is 404 and stores nothing; an unknown or a payment intent's id too", async () => {
    const { setup } = await verify(s, rival, '5555 5555 5555 4444');
    const before = await cardsOf(s, seller);
    const stolen = await call(s, 'POST', ADD, seller, { setup_id: setup.setup_id });
    expect(stolen.status).toBe(404);
    expect(stolen.body.message).toBe(SETUP_NOT_FOUND);
    expect((await call(s, 'POST', ADD, seller, { setup_id: 'sbseti_nothing' })).status).toBe(404);
    const intent = await s.db
      .selectFrom('sandbox_intents')
      .select('id')
      .where('id', 'like', 'sbpi_%')
      .executeTakeFirst();
    if (intent) expect((await call(s, 'POST', ADD, seller, { setup_id: intent.id })).status).toBe(404);
    expect(await cardsOf(s, seller)).toEqual(before);
    // its owner stores it: a mastercard
    const own = await call(s, 'POST', ADD, rival, { setup_id: setup.setup_id });
    expect((own.body.data as unknown as Added).card).toMatchObject({
      brand: 'mastercard',
      variant: 'mc',
      last4: '4444',
    });
  });

  it('the same card again is 409; at most MAX_STORED_CARDS cards, 409 beyond', async () => {
    // room for the cards this test counts: the seller's earlier cards are removed first
    for (const c of await cardsOf(s, seller)) {
      expect((await call(s, 'POST', '/settings/lmt-pay/remove-card', seller, { card_id: c.id }, null)).status).toBe(
        200,
      );
    }
    const first = await verify(s, seller, '4000 0566 5566 5556', 10);
    expect((await call(s, 'POST', ADD, seller, { setup_id: first.setup.setup_id })).status).toBe(200);
    const twice = await verify(s, seller, '4000 0566 5566 5556', 10);
    const dup = await call(s, 'POST', ADD, seller, { setup_id: twice.setup.setup_id });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(DUPLICATE_CARD);
    let month = 1;
    while ((await cardsOf(s, seller)).length < MAX_STORED_CARDS - 1) {
      const { setup } = await verify(s, seller, '4242 4242 4242 4242', month++);
      expect((await call(s, 'POST', ADD, seller, { setup_id: setup.setup_id })).status).toBe(200);
    }
    // a verification made before the limit was reached is refused when storing it would pass it
    const late = await verify(s, seller, '4242 4242 4242 4242', 9);
    expect(late.confirmed.error).toBeNull();
    const last = await verify(s, seller, '4242 4242 4242 4242', 8);
    expect((await call(s, 'POST', ADD, seller, { setup_id: last.setup.setup_id })).status).toBe(200);
    const beyond = await call(s, 'POST', ADD, seller, { setup_id: late.setup.setup_id });
    expect(beyond.status).toBe(409);
    expect(beyond.body.message).toBe(TOO_MANY_CARDS);
    const start = await call(s, 'POST', ADD, seller, { holder_name: 'Sam Seller' });
    expect(start.status).toBe(409);
    expect(start.body.message).toBe(TOO_MANY_CARDS);
    expect(await cardsOf(s, seller)).toHaveLength(MAX_STORED_CARDS);
  });

  it('hostile input is 422, a member without lmt-pay 403', async () => {
    for (const body of [
      {},
      { holder_name: 'A', setup_id: 'sbseti_x' },
      { holder_name: '' },
      { holder_name: '   ' },
      { holder_name: 'x'.repeat(101) },
      { holder_name: 'a\u0000b' },
      { holder_name: 'line\nbreak' },
      { holder_name: 42 },
      { setup_id: "x' OR 1=1 --" },
      { setup_id: '../etc' },
      { setup_id: 'x'.repeat(101) },
      { holder_name: 'Sam', extra: true },
    ]) {
      const answer = await call(s, 'POST', ADD, rival, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
    }
    expect((await call(s, 'POST', ADD, member, { holder_name: 'Sam' })).status).toBe(403);
    expect(await call(s, 'POST', ADD, rival, { holder_name: 'Sam' }, null).then((a) => a.status)).not.toBe(200);
  });
});

describe('add a card with a card gateway that cannot charge the stored card', () => {
  it('answers 409 with the reason (Stripe verifies, Adyen or the sandbox charges method 3)', async () => {
    const { sandboxCardGateway, sandboxStoredCardGateway } = await import('../payments/sandbox');
    const s = await freshServer({
      payments: {
        card: { ...sandboxCardGateway, name: 'stripe' },
        storedCard: sandboxStoredCardGateway,
        webhooks: { verify: () => null },
      },
    });
    try {
      const token = await s.loginAs('rival@demo.test');
      const answer = await call(s, 'POST', ADD, token, { holder_name: 'Ruth Rival' });
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe(ADD_CARD_UNAVAILABLE);
      const store = await call(s, 'POST', ADD, token, { setup_id: 'sbseti_any' });
      expect(store.status).toBe(409);
    } finally {
      await s.close();
    }
  }, 60_000);
});
