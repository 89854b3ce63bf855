import type { Router } from '../contract/router';
import { addAddress, addressBook, deleteAddress, storedCards, updateAddress } from '../domain/purchase/account';
import { sellerIdOf } from '../domain/sales/totals';
import type { Payments } from '../payments/port';
import { SANDBOX_TEST_CARDS } from '../payments/sandbox';
import { holdOpen } from '../quotas/quota';

/**
 * What the purchase needs from settings and reference data: the address book (billing addresses, the primary
 * one first), stored cards, the card payment configuration (publishable key by currency), countries and cities
 * for the billing form. Addresses and cards are the buyer's: a team member's are its seller's.
 */
export function settingsTradeRoutes({ route }: Router, payments: Payments) {
  route('/settings/address-book', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: await addressBook(db, sellerIdOf(user)) },
  }));

  route('/settings/address-book/add', 'post', async ({ user, body }, deps) => {
    await holdOpen(deps, 'addresses', sellerIdOf(user));
    return {
      status: 200,
      body: {
        success: true,
        message: 'Address added.',
        data: await addAddress(deps.db, sellerIdOf(user), body, deps.clock.now()),
      },
    };
  });

  route('/settings/address-book/update', 'post', async ({ user, body }, { db }) => ({
    status: 200,
    body: { success: true, message: 'Address updated.', data: await updateAddress(db, sellerIdOf(user), body) },
  }));

  route('/settings/address-book/delete/{id}', 'post', async ({ user, params }, { db }) => ({
    status: 200,
    body: { success: true, message: 'Address deleted.', data: await deleteAddress(db, sellerIdOf(user), params.id) },
  }));

  route('/settings/lmt-pay/linked-cards', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: { linked_cards: { data: await storedCards(db, sellerIdOf(user)) } } },
  }));

  route('/settings/lmt-pay/payment-config', 'get', ({ query }) => {
    const currency = query.currency ?? 'GBP';
    const sandbox = payments.card.name === 'sandbox';
    return {
      status: 200,
      body: {
        success: true,
        data: {
          gateway: payments.card.name,
          publishable_key: payments.card.publishableKey(currency),
          currency,
          default_currency: 'usd' as const,
          stored_card_gateway: payments.storedCard.name,
          sandbox_test_cards: sandbox ? SANDBOX_TEST_CARDS.map((c) => ({ ...c })) : [],
        },
      },
    };
  });

  route('/countries', 'get', async (_input, { db }) => ({
    status: 200,
    body: {
      success: true,
      data: await db
        .selectFrom('countries')
        .select(['id', 'name', 'short_name', 'dialing_code', 'phone_code'])
        .orderBy('name')
        .orderBy('id')
        .execute(),
    },
  }));

  route('/cities', 'get', async ({ query }, { db }) => ({
    status: 200,
    body: {
      success: true,
      data: await db
        .selectFrom('cities')
        .select(['id', 'name', 'country_id'])
        .where('country_id', '=', query.country_id)
        .orderBy('name')
        .orderBy('id')
        .execute(),
    },
  }));
}
