import { api, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { createListMachine } from './list.machine';

export type SellerContact = components['schemas']['SellerContact'];

/** The spec's default toast for a failed read (section 8). */
export const CONTACTS_LOAD_ERROR = 'Failed to fetch data';

/**
 * Settings › Seller Contacts: the people of SB Portal the seller can reach (its account manager first, else the
 * default contacts), one call, on the shared list machine: loading, the list, empty, or the failure with Retry.
 */
export const sellerContactsMachine = createListMachine<SellerContact, Record<string, never>>({
  id: 'sellerContacts',
  fetchPage: async (_request, signal) => {
    const items = unwrap(await api.GET('/settings/seller-contacts', { signal }), CONTACTS_LOAD_ERROR);
    return { items, page: 1, lastPage: 1, total: items.length };
  },
  keyOf: (c) => c.id,
  errorMessage: () => CONTACTS_LOAD_ERROR,
  toastsErrors: () => true,
});
