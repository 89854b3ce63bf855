import { randomUUID } from 'node:crypto';
import type { Router } from '../contract/router';
import { storedCards } from '../domain/purchase/account';
import { sellerIdOf } from '../domain/sales/totals';
import { HttpError, MESSAGES } from '../http/errors';
import { GatewayError, type Payments } from '../payments/port';

export const CARD_NOT_FOUND = 'This card is not one of your stored cards.';
/** At most this many stored cards per seller (Add a card answers 409 beyond). */
export const MAX_STORED_CARDS = 5;
export const TOO_MANY_CARDS = `You can store at most ${MAX_STORED_CARDS} cards. Remove one first.`;
export const DUPLICATE_CARD = 'This card is already stored.';
export const NOT_VERIFIED = 'The card was not verified.';
export const SETUP_NOT_FOUND = 'Card verification not found.';
export const ADD_CARD_UNAVAILABLE = 'Adding a card is not available with this payment configuration.';

/**
 * Whether a card verified by the card gateway can be charged by the stored-card gateway (method 3): only when the
 * two are the same gateway, which is the sandbox with the sandbox today (a Stripe reference cannot be charged by
 * Adyen, and there is no Stripe stored-card gateway yet).
 */
export const canAddCards = (payments: Payments) =>
  payments.card.name === payments.storedCard.name &&
  typeof payments.card.createSetup === 'function' &&
  typeof payments.card.retrieveSetup === 'function';

/** Settings › Stored Cards (issue 13): add a card by a verification at the gateway, and remove one. */
export function settingsCardRoutes({ route }: Router, payments: Payments) {
  route('/settings/lmt-pay/remove-card', 'post', async ({ user, body }, { db }) => {
    // one conditional delete scoped to the owner: another owner's id removes nothing and answers 404
    const removed = await db
      .deleteFrom('stored_cards')
      .where('id', '=', body.card_id)
      .where('owner_id', '=', sellerIdOf(user))
      .executeTakeFirst();
    if (Number(removed.numDeletedRows ?? 0) === 0) throw new HttpError(404, CARD_NOT_FOUND);
    return { status: 200, body: { success: true, message: 'Card removed.', data: { removed_id: body.card_id } } };
  });

  route('/settings/lmt-pay/create-payment', 'post', async ({ user, body }, { db, clock }) => {
    const hasName = body.holder_name !== undefined;
    const hasSetup = body.setup_id !== undefined;
    if (hasName === hasSetup) {
      const path = hasName ? '/body/setup_id' : '/body/holder_name';
      throw new HttpError(422, MESSAGES.validation, [{ path, message: 'give holder_name or setup_id, not both' }]);
    }
    const { createSetup, retrieveSetup } = payments.card;
    if (!canAddCards(payments) || !createSetup || !retrieveSetup) throw new HttpError(409, ADD_CARD_UNAVAILABLE);
    const owner = sellerIdOf(user);
    const now = clock.now();
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('stored_cards')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('owner_id', '=', owner)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const gateway = payments.card.name;
    try {
      if (body.holder_name !== undefined) {
        if ((await count()) >= MAX_STORED_CARDS) throw new HttpError(409, TOO_MANY_CARDS);
        // the router replays this reply for the same Idempotency-Key; a new key is a new verification
        const key = `card-setup-${owner}-${randomUUID()}`;
        const setup = await createSetup.call(
          payments.card,
          db,
          { ownerId: owner, holderName: body.holder_name.trim(), idempotencyKey: key },
          now,
        );
        return {
          status: 200,
          body: {
            success: true,
            data: {
              setup_id: setup.id,
              status: 'requires_payment_method',
              gateway,
              client_secret: setup.clientSecret,
              card: null,
            },
          },
        };
      }
      const setupId = body.setup_id ?? '';
      const setup = await retrieveSetup.call(payments.card, db, setupId);
      if (!setup || setup.ownerId !== owner) throw new HttpError(404, SETUP_NOT_FOUND);
      const verified = setup.card;
      if (setup.status !== 'succeeded' || !verified) throw new HttpError(409, NOT_VERIFIED);
      const mine = await storedCards(db, owner);
      const already = mine.find((c) => c.recurringDetailReference === verified.reference);
      if (!already) {
        const same = mine.find(
          (c) =>
            c.brand === verified.brand &&
            c.last4 === verified.last4 &&
            c.exp_month === verified.expMonth &&
            c.exp_year === verified.expYear,
        );
        if (same) throw new HttpError(409, DUPLICATE_CARD);
        if (mine.length >= MAX_STORED_CARDS) throw new HttpError(409, TOO_MANY_CARDS);
        await db
          .insertInto('stored_cards')
          .values({
            owner_id: owner,
            gateway: payments.storedCard.name,
            brand: verified.brand,
            variant: verified.variant,
            last4: verified.last4,
            exp_month: verified.expMonth,
            exp_year: verified.expYear,
            holder_name: setup.holderName,
            recurring_reference: verified.reference,
            created_at: now.toISOString(),
          })
          .onConflict((oc) => oc.columns(['owner_id', 'recurring_reference']).doNothing())
          .execute();
      }
      const card = (await storedCards(db, owner)).find((c) => c.recurringDetailReference === verified.reference);
      if (!card) throw new Error('the stored card was not read back');
      return {
        status: 200,
        body: {
          success: true,
          message: 'Card added.',
          data: { setup_id: setup.id, status: 'succeeded', gateway, client_secret: '', card },
        },
      };
    } catch (error) {
      if (error instanceof GatewayError) {
        return { status: 502 as const, body: { success: false as const, message: error.message } };
      }
      throw error;
    }
  });
}
