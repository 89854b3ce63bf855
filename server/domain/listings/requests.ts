import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { HttpError, MESSAGES } from '../../http/errors';
import { notificationLinks, notify } from '../notifications';
import type { Actor } from './rows';
import { STADIUM_LAYOUT, todayOf } from './rules';

type EventRequestInput = components['schemas']['EventRequestInput'];
type EventRequest = components['schemas']['EventRequest'];
type FieldSettingsColumn = components['schemas']['FieldSettingsColumn'];

const orNull = (s: string | undefined) => (s === undefined || s.trim() === '' ? null : s);

const requestColumns = [
  'id',
  'match_name',
  'home_team',
  'away_team',
  'tournament',
  'match_date',
  'match_time',
  'stadium_name',
  'city_name',
  'notes',
  'status',
  'status_reason',
  'event_id',
  'created_at',
  'updated_at',
] as const;

type RequestRow = {
  id: number;
  match_name: string;
  home_team: string | null;
  away_team: string | null;
  tournament: string | null;
  match_date: string;
  match_time: string | null;
  stadium_name: string;
  city_name: string | null;
  notes: string | null;
  status: string;
  status_reason: string | null;
  event_id: number | null;
  created_at: string;
  updated_at: string;
};

const toRequest = ({ id, event_id, status, ...r }: RequestRow): EventRequest => ({
  request_id: id,
  ...r,
  status: status as EventRequest['status'],
  match_id: event_id,
});

/** A seller's request for a match that is not in the catalogue: pending until the back office decides. */
export async function requestEvent(db: Db, actor: Actor, input: EventRequestInput, now: Date): Promise<EventRequest> {
  const errors = [];
  if (input.match_date < todayOf(now)) errors.push({ path: '/body/match_date', message: 'must be today or later' });
  for (const field of ['match_name', 'stadium_name'] as const) {
    if (input[field].trim() === '') errors.push({ path: `/body/${field}`, message: 'is required' });
  }
  if (errors.length > 0) throw new HttpError(422, MESSAGES.validation, errors);
  const at = now.toISOString();
  const row = await db
    .insertInto('event_requests')
    .values({
      seller_id: actor.sellerId,
      user_id: actor.userId,
      match_name: input.match_name,
      home_team: orNull(input.home_team),
      away_team: orNull(input.away_team),
      tournament: orNull(input.tournament),
      match_date: input.match_date,
      match_time: orNull(input.match_time),
      stadium_name: input.stadium_name,
      city_name: orNull(input.city_name),
      notes: orNull(input.notes),
      status: 'pending',
      status_reason: null,
      event_id: null,
      created_at: at,
      updated_at: at,
    })
    .returning(requestColumns)
    .executeTakeFirstOrThrow();
  return toRequest(row as RequestRow);
}

export async function requestPage(db: Db, sellerId: number, page: { page: number; perPage: number }) {
  const q = db.selectFrom('event_requests').where('seller_id', '=', sellerId);
  const [count, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    q
      .select(requestColumns)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
  ]);
  return { requests: (rows as RequestRow[]).map(toRequest), total: Number(count.n) };
}

/** The stadiums of the catalogue's matches, each with the seating plan. */
export async function stadiums(db: Db, q: string | undefined) {
  let query = db
    .selectFrom('events')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id')
    .select([
      'events.stadium_name',
      'cities.name as city_name',
      'countries.name as country_name',
      (eb) => eb.fn.min<number>('events.id').as('first_event'),
    ])
    .groupBy(['events.stadium_name', 'cities.name', 'countries.name']);
  if (q) {
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb(eb.fn('lower', ['events.stadium_name']), 'like', pattern));
  }
  const rows = await query.orderBy('events.stadium_name').orderBy('cities.name').execute();
  return rows.map((r) => ({
    name: r.stadium_name,
    city_name: r.city_name,
    country_name: r.country_name,
    categories: STADIUM_LAYOUT.map((c) => ({ name: c.name, blocks: [...c.blocks] })),
  }));
}

/** A user's column settings of a page; empty until first saved. */
export async function fieldSettings(db: Db, userId: number, page: string) {
  const row = await db
    .selectFrom('field_settings')
    .select(['columns', 'updated_at'])
    .where('user_id', '=', userId)
    .where('page', '=', page)
    .executeTakeFirst();
  return {
    page,
    columns: row ? (JSON.parse(row.columns) as FieldSettingsColumn[]) : [],
    updated_at: row?.updated_at ?? null,
  };
}

export async function saveFieldSettings(
  db: Db,
  userId: number,
  page: string,
  columns: FieldSettingsColumn[],
  now: Date,
) {
  const keys = columns.map((c) => c.key);
  if (new Set(keys).size !== keys.length) {
    throw new HttpError(422, MESSAGES.validation, [{ path: '/body/columns', message: 'must not repeat a key' }]);
  }
  const json = JSON.stringify(columns.map((c) => ({ key: c.key, visible: c.visible })));
  const before = await fieldSettings(db, userId, page);
  if (before.updated_at !== null && JSON.stringify(before.columns) === json) return before;
  const at = now.toISOString();
  await db
    .insertInto('field_settings')
    .values({ user_id: userId, page, columns: json, updated_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'page']).doUpdateSet({ columns: json, updated_at: at }))
    .execute();
  return { page, columns: JSON.parse(json) as FieldSettingsColumn[], updated_at: at };
}

// ---------------------------------------------------------------------------------------------------------------
// The back office's decision

type AdminEventRequest = components['schemas']['AdminEventRequest'];
type RequestStatus = EventRequest['status'];

const adminRequests = (db: Db) =>
  db
    .selectFrom('event_requests')
    .innerJoin('users', 'users.id', 'event_requests.seller_id')
    .select([
      ...requestColumns.map((c) => `event_requests.${c}` as const),
      'event_requests.seller_id',
      'users.first_name',
      'users.last_name',
    ]);

type AdminRow = RequestRow & { seller_id: number; first_name: string; last_name: string };
const toAdminRequest = ({ seller_id, first_name, last_name, ...r }: AdminRow): AdminEventRequest => ({
  ...toRequest(r),
  seller_id,
  seller_name: `${first_name} ${last_name}`.trim(),
});

/** Every seller's requests in one status, oldest first (the order to work through them). */
export async function adminRequestPage(db: Db, status: RequestStatus, page: { page: number; perPage: number }) {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('event_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', status)
      .executeTakeFirstOrThrow(),
    adminRequests(db)
      .where('event_requests.status', '=', status)
      .orderBy('event_requests.created_at')
      .orderBy('event_requests.id')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
  ]);
  return { requests: (rows as AdminRow[]).map(toAdminRequest), total: Number(count.n) };
}

export type RequestDecision =
  | {
      kind: 'approve';
      city_id?: number;
      home_team?: string;
      away_team?: string;
      tournament?: string;
      match_time?: string;
    }
  | { kind: 'reject'; reason: string };

export type RequestOutcome =
  | { kind: 'not_found' }
  | { kind: 'conflict'; status: RequestStatus }
  | { kind: 'already' | 'decided'; request: EventRequest };

const findRequest = async (db: Db, id: number) => {
  const row = await db.selectFrom('event_requests').select(requestColumns).where('id', '=', id).executeTakeFirst();
  return row ? toRequest(row as RequestRow) : undefined;
};

/**
 * Approves (adds the event to the catalogue and links it) or rejects (with the reason) a pending request, and
 * tells the seller, in the caller's transaction. Exactly once by nature: the request leaves 'pending' by one
 * conditional update, so a second decision the same way finds it decided ('already'), the other way 'conflict'.
 */
export async function decideRequest(db: Db, id: number, decision: RequestDecision, now: Date): Promise<RequestOutcome> {
  const before = await findRequest(db, id);
  if (!before) return { kind: 'not_found' };
  const done: RequestStatus = decision.kind === 'approve' ? 'approved' : 'rejected';
  if (before.status !== 'pending') {
    return before.status === done ? { kind: 'already', request: before } : { kind: 'conflict', status: before.status };
  }
  const at = now.toISOString();
  let eventId: number | null = null;
  if (decision.kind === 'approve') {
    const city = await cityOf(db, decision.city_id, before.city_name);
    const time = decision.match_time ?? before.match_time;
    const errors = [];
    if (!city) {
      errors.push({
        path: '/body/city_id',
        message: before.city_name
          ? `is required: the request's city '${before.city_name}' is not in the catalogue`
          : 'is required: the request names no city',
      });
    }
    if (!time) errors.push({ path: '/body/match_time', message: 'is required: the request gives no kick-off time' });
    if (before.match_date < todayOf(now)) {
      errors.push({ path: '/path/id', message: 'The requested date has passed; reject the request instead.' });
    }
    if (errors.length > 0 || !city || !time) throw new HttpError(422, MESSAGES.validation, errors);
    const [home, away] = before.match_name.split(/\s+(?:vs\.?|v)\s+/i);
    const event = await db
      .insertInto('events')
      .values({
        name: before.match_name,
        home_team: decision.home_team ?? before.home_team ?? (home?.trim() || before.match_name),
        away_team: decision.away_team ?? before.away_team ?? (away?.trim() || ''),
        tournament: decision.tournament ?? before.tournament ?? '',
        event_date: before.match_date,
        event_time: time,
        stadium_name: before.stadium_name,
        city_id: city.id,
        country_id: city.country_id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    eventId = event.id;
  }
  const changed = await db
    .updateTable('event_requests')
    .set({
      status: done,
      status_reason: decision.kind === 'reject' ? decision.reason : null,
      event_id: eventId,
      updated_at: at,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning(['seller_id'])
    .executeTakeFirst();
  if (!changed) {
    // another decision came first (its transaction committed between our read and this update): undo ours
    throw new HttpError(409, 'This event request was decided meanwhile; reload it.');
  }
  await notify(db, {
    userId: changed.seller_id,
    name: decision.kind === 'approve' ? 'event_request_approved' : 'event_request_rejected',
    description:
      decision.kind === 'approve'
        ? `Event added: ${before.match_name}. You can list tickets for it now.`
        : `Event request rejected: ${before.match_name}: ${decision.reason}`,
    link: notificationLinks.addListings,
    at,
  });
  const request = await findRequest(db, id);
  if (!request) throw new Error(`event request ${id} vanished inside its own transaction`);
  return { kind: 'decided', request };
}

async function cityOf(db: Db, cityId: number | undefined, cityName: string | null) {
  const q = db.selectFrom('cities').select(['id', 'country_id']);
  if (cityId !== undefined) return q.where('id', '=', cityId).executeTakeFirst();
  if (!cityName) return undefined;
  return q
    .where((eb) => eb(eb.fn('lower', ['name']), '=', cityName.trim().toLowerCase()))
    .orderBy('id')
    .executeTakeFirst();
}
