import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { CARD_NOT_FOUND } from './settings-cards';
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
