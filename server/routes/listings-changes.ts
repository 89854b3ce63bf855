import type { Router } from '../contract/router';
import { deleteListings, deleteView, listViews, saveView, selectedIds, undoChange } from '../domain/listings/changes';
import { setStatus } from '../domain/listings/commands';
import { updatePrices } from '../domain/listings/prices';
import type { Actor } from '../domain/listings/rows';
import { sellerIdOf } from '../domain/sales/totals';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Inventory's changes of a selection (by ids, or every listing a filter matches, in one transaction each): a price,
 * a status, a deletion, the undo of a price or status change; and the seller's saved views.
 */
export function listingChangeRoutes({ route }: Router) {
  route('/my-listings/update-ticket-price', 'post', async ({ user, body }, { db, clock }) => {
    const actor: Actor = { sellerId: sellerIdOf(user), userId: user.id };
    const { filter: _, ...ask } = body;
    const ticket_ids = await selectedIds(db, actor.sellerId, body);
    const data = await updatePrices(db, actor, { ...ask, ticket_ids }, clock.now());
    return {
      status: 200,
      body: { success: true, message: `${plural(data.updated, 'price')} updated.`, data },
    };
  });

  route('/my-listings/update-ticket-status', 'post', async ({ user, body }, { db, clock }) => {
    const actor: Actor = { sellerId: sellerIdOf(user), userId: user.id };
    const ids = await selectedIds(db, actor.sellerId, body);
    const data = await setStatus(db, actor, ids, body.status, clock.now());
    return {
      status: 200,
      body: { success: true, message: `${plural(data.updated, 'listing')} ${body.status}.`, data },
    };
  });

  route('/my-listings/delete-tickets', 'post', async ({ user, body }, { db, clock }) => {
    const actor: Actor = { sellerId: sellerIdOf(user), userId: user.id };
    const ids = await selectedIds(db, actor.sellerId, body);
    const data = await deleteListings(db, actor, ids, clock.now());
    return { status: 200, body: { success: true, message: `${plural(data.deleted, 'listing')} deleted.`, data } };
  });

  route('/my-listings/undo-change', 'post', async ({ user, body }, { db, clock }) => {
    const actor: Actor = { sellerId: sellerIdOf(user), userId: user.id };
    const data = await undoChange(db, actor, body.change_id, clock.now());
    const skipped = data.skipped > 0 ? ` ${plural(data.skipped, 'listing')} changed since left as they are.` : '';
    return {
      status: 200,
      body: { success: true, message: `Undone: ${plural(data.restored, 'listing')} restored.${skipped}`, data },
    };
  });

  route('/my-listings/views', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: { views: await listViews(db, sellerIdOf(user)) } },
  }));

  route('/my-listings/views', 'post', async ({ user, body }, { db, clock }) => ({
    status: 200,
    body: { success: true, message: 'View saved.', data: await saveView(db, sellerIdOf(user), body, clock.now()) },
  }));

  route('/my-listings/views/{id}', 'delete', async ({ user, params }, { db }) => {
    await deleteView(db, sellerIdOf(user), params.id);
    return { status: 200, body: { success: true, message: 'View deleted.' } };
  });
}
