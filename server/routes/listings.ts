import type { AuthUser } from '../auth/session';
import type { FieldError } from '../contract/contract';
import type { Router } from '../contract/router';
import { checkNewListings, type NewListing } from '../domain/listings/checks';
import { createListings, deleteListing, updateListing } from '../domain/listings/commands';
import { attachFiles, listingHistory } from '../domain/listings/files';
import { marketInsights } from '../domain/listings/insights';
import { logPage } from '../domain/listings/logs';
import { capMessageIn } from '../domain/listings/price-caps';
import { BadListCursor, findListingEvent, listMyListings, searchListingEvents } from '../domain/listings/queries';
import { fieldSettings, requestEvent, requestPage, saveFieldSettings, stadiums } from '../domain/listings/requests';
import { type Actor, findMyListing, MATCH_NOT_FOUND, myListingsByIds } from '../domain/listings/rows';
import { type ListingRestriction, RESTRICTIONS, STADIUM_LAYOUT } from '../domain/listings/rules';
import { checkListingTemplates } from '../domain/listings/templates';
import { sellerIdOf } from '../domain/sales/totals';
import { HttpError, MESSAGES } from '../http/errors';
import { removeFiles } from '../http/multipart';
import { holdOpen, spend } from '../quotas/quota';
import { additionalTemplateRoutes } from './additional-templates';
import { eventRequestAdminRoutes } from './admin-event-requests';
import { bulkUploadRoutes } from './listings-bulk-upload';
import { listingChangeRoutes } from './listings-changes';
import { badFileName } from './wallet';

const actorOf = (user: AuthUser): Actor => ({ sellerId: sellerIdOf(user), userId: user.id });
const invalid = (errors: FieldError[]) => new HttpError(422, MESSAGES.validation, errors);

function checkRange(query: { date_from?: string; date_to?: string }) {
  if (query.date_from && query.date_to && query.date_from > query.date_to) {
    throw invalid([{ path: '/query/date_from', message: 'must not be after /query/date_to' }]);
  }
}

/** A list read whose cursor does not read answers 422 on it. */
async function withCursor<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof BadListCursor) throw invalid([{ path: '/query/cursor', message: error.message }]);
    throw error;
  }
}

const metaOf = (page: number, perPage: number, total: number) => ({
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  per_page: perPage,
  total,
});

/** The comma list of a form's `restrictions`, each a ListingRestriction once. */
function restrictionsField(text: string | undefined): ListingRestriction[] {
  if (text === undefined || text === '') return [];
  const list = text.split(',');
  const unknown = list.filter((r) => !(RESTRICTIONS as readonly string[]).includes(r));
  if (unknown.length > 0) {
    throw invalid([
      {
        path: '/body/restrictions',
        message: `has unknown restrictions (${unknown.join(', ')}); allowed: ${RESTRICTIONS.join(', ')}`,
      },
    ]);
  }
  return list as ListingRestriction[];
}

/**
 * Inventory (issue 11): the seller's listings, their changes and logs, market insights, ticket files, bulk
 * listing, event requests, the stadiums' seating plans and the field settings. Every listing belongs to the seller
 * the caller works for; another seller's listing answers 404. Writes run in the router's transaction
 * (x-transaction), so a refusal leaves nothing behind.
 */
export function listingsRoutes(router: Router) {
  const { route } = router;
  listingChangeRoutes(router);
  additionalTemplateRoutes(router);
  eventRequestAdminRoutes(router);
  bulkUploadRoutes(router);
  route('/my-listings', 'get', async ({ user, query }, { db, clock }) => {
    checkRange(query);
    const { page, per_page, cursor, ...filters } = query;
    const data = await withCursor(() =>
      listMyListings(db, sellerIdOf(user), filters, { page, per_page, cursor }, clock.now()),
    );
    return { status: 200, body: { success: true, data } };
  });

  route('/my-listings/events-search', 'get', async ({ user, query }, { db, clock }) => {
    checkRange(query);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const { events, total } = await searchListingEvents(db, sellerIdOf(user), query, { page, perPage }, clock.now());
    return { status: 200, body: { success: true, data: { events, meta: metaOf(page, perPage, total) } } };
  });

  route('/my-listings/get-match-tickets', 'get', async ({ user, query }, { db, clock }) => {
    const sellerId = sellerIdOf(user);
    const event = await findListingEvent(db, sellerId, query.match_id);
    if (!event) throw new HttpError(404, MATCH_NOT_FOUND);
    const { match_id, page, per_page, ...filters } = query;
    const { tickets, meta } = await listMyListings(
      db,
      sellerId,
      { ...filters, match_id, sort: query.sort ?? 'match_date' },
      { page, per_page },
      clock.now(),
    );
    return { status: 200, body: { success: true, data: { event, tickets, meta } } };
  });

  route('/my-listings/get-block-details', 'get', async ({ query }, { db }) => {
    const event = await db
      .selectFrom('events')
      .select(['id', 'stadium_name'])
      .where('id', '=', query.match_id)
      .executeTakeFirst();
    if (!event) throw new HttpError(404, MATCH_NOT_FOUND);
    return {
      status: 200,
      body: {
        success: true,
        data: {
          match_id: event.id,
          stadium_name: event.stadium_name,
          categories: STADIUM_LAYOUT.map((c) => ({ name: c.name, blocks: [...c.blocks] })),
        },
      },
    };
  });

  route('/my-listings/market-insights', 'get', async ({ user, query }, { db, clock }) => ({
    status: 200,
    body: { success: true, data: await marketInsights(db, sellerIdOf(user), query, clock.now()) },
  }));

  route('/my-listings/ticket-history', 'get', async ({ user, query }, { db, clock }) => ({
    status: 200,
    body: { success: true, data: await listingHistory(db, sellerIdOf(user), query.ticket_id, clock.now()) },
  }));

  route('/my-listings/ticket-logs', 'get', async ({ user, query }, { db }) => {
    const { ticket_id, ...paging } = query;
    const data = await withCursor(() => logPage(db, sellerIdOf(user), ticket_id, paging));
    return { status: 200, body: { success: true, data } };
  });

  route('/my-listings/update-ticket/{id}', 'put', async ({ user, params, body }, { db, clock }) => ({
    status: 200,
    body: {
      success: true,
      message: 'Listing updated.',
      data: await updateListing(db, actorOf(user), params.id, body, clock.now()),
    },
  }));

  route('/my-listings/ticket/delete/{id}', 'delete', async ({ user, params }, { db, clock }) => ({
    status: 200,
    body: {
      success: true,
      message: 'Listing deleted.',
      data: await deleteListing(db, actorOf(user), params.id, clock.now()),
    },
  }));

  /** Checks new listings (paths by `pathOf`) and creates them, or throws the 404 / 422 that refuses them. */
  async function create(
    db: Parameters<typeof createListings>[0],
    user: AuthUser,
    inputs: NewListing[],
    now: Date,
    pathOf: (i: number, field: string) => string,
  ) {
    const actor = actorOf(user);
    const { errors, unknownMatch } = await checkNewListings(db, inputs, now, pathOf);
    if (unknownMatch.length > 0) throw new HttpError(404, MATCH_NOT_FOUND);
    errors.push(...(await checkListingTemplates(db, actor.sellerId, inputs, pathOf)));
    // a listing over a resale cap says the cap, not only 'invalid'
    if (errors.length > 0) throw new HttpError(422, capMessageIn(errors) ?? MESSAGES.validation, errors);
    const ids = await createListings(db, actor, inputs, now);
    return { actor, ids };
  }

  route('/api/save-listing', 'post', async ({ user, body, files }, { db, clock }) => {
    const stored = files.files ?? [];
    for (const f of stored) {
      const problem = badFileName(f.clientName);
      if (problem) throw invalid([{ path: '/body/files', message: problem }]);
    }
    const {
      restrictions,
      additional_template_ids,
      files: _files,
      ...fields
    } = body as typeof body & { files?: unknown };
    const now = clock.now();
    const input: NewListing = {
      ...fields,
      restrictions: restrictionsField(restrictions),
      additional_template_ids: additional_template_ids ? additional_template_ids.split(',').map(Number) : [],
    };
    const { actor, ids } = await create(db, user, [input], now, (_i, field) => `/body/${field}`);
    const id = ids[0] as number;
    if (stored.length > 0) {
      await attachFiles(
        db,
        actor,
        id,
        stored.map((f) => ({ id: f.id, originalName: f.originalName })),
        now,
      );
    }
    return {
      status: 200,
      body: { success: true, message: 'Listing saved.', data: await findMyListing(db, actor.sellerId, id, now) },
    };
  });

  route('/api/bulk-listing', 'post', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const { actor, ids } = await create(db, user, body.listings, now, (i, field) => `/body/listings/${i}/${field}`);
    const tickets = await myListingsByIds(db, actor.sellerId, ids, now);
    return {
      status: 200,
      body: {
        success: true,
        message: `${ids.length} listing${ids.length === 1 ? '' : 's'} saved.`,
        data: { created: ids.length, tickets },
      },
    };
  });

  route('/api/my-listing-upload', 'post', async ({ user, body, files }, { db, clock }) => {
    const stored = files.files ?? [];
    for (const f of stored) {
      const problem = badFileName(f.clientName);
      if (problem) throw invalid([{ path: '/body/files', message: problem }]);
    }
    const list = await attachFiles(
      db,
      actorOf(user),
      body.ticket_id,
      stored.map((f) => ({ id: f.id, originalName: f.originalName })),
      clock.now(),
    );
    return {
      status: 200,
      body: {
        success: true,
        message: `${stored.length} file${stored.length === 1 ? '' : 's'} uploaded.`,
        data: { ticket_id: body.ticket_id, files: list },
      },
    };
  });

  route('/match/request-event', 'post', async ({ user, body }, deps) => {
    // each request is a match someone in the back office looks up: at most so many waiting, and so many a day
    await holdOpen(deps, 'pending-event-requests', sellerIdOf(user));
    await spend(deps, 'event-requests-daily', sellerIdOf(user));
    return {
      status: 200,
      body: {
        success: true,
        message: 'Event requested. We will let you know when it is added.',
        data: await requestEvent(deps.db, actorOf(user), body, deps.clock.now()),
      },
    };
  });

  route('/match/requested-events', 'get', async ({ user, query }, { db }) => {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const { requests, total } = await requestPage(db, sellerIdOf(user), { page, perPage });
    return { status: 200, body: { success: true, data: { requests, meta: metaOf(page, perPage, total) } } };
  });

  route('/settings/stadium', 'get', async ({ query }, { db }) => ({
    status: 200,
    body: { success: true, data: { stadiums: await stadiums(db, query.q) } },
  }));

  route('/ui-settings/field-settings', 'get', async ({ user, query }, { db }) => ({
    status: 200,
    body: { success: true, data: await fieldSettings(db, user.id, query.page) },
  }));

  route('/ui-settings/save-field-settings', 'post', async ({ user, body }, { db, clock }) => ({
    status: 200,
    body: {
      success: true,
      message: 'Settings saved.',
      data: await saveFieldSettings(db, user.id, body.page, body.columns, clock.now()),
    },
  }));
}
