import type { Router } from '../contract/router';
import { referralBookings, referralHistory } from '../domain/referrals';
import { sellerIdOf } from '../domain/sales/totals';
import { HttpError, MESSAGES } from '../http/errors';
import { spend } from '../quotas/quota';

export const FEATURE_REQUEST_SENT = 'Thank you! Your feature request has been sent to our product team.';
export const WEBHOOK_URL_MESSAGE = 'Enter an https address with a host name, like https://example.com/hooks/sb.';
export const PARTNER_SAVED = 'Partner settings saved.';

const invalid = (path: string, message: string) => new HttpError(422, MESSAGES.validation, [{ path, message }]);

/** An absolute https URL with a host and no user name or password; anything else is not a webhook address. */
export function isWebhookUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname.length > 0 && url.username === '' && url.password === '';
}

/** A text's length as a person counts it (characters, not UTF-16 units), without the spaces around it. */
const lengthOf = (text: string) => [...text.trim()].length;

/**
 * Settings' last four pages (issue 13, item 3): Referrals (history and bookings), Seller Contacts, Partner
 * Settings (read and save) and Request a Feature. Each acts for the seller the caller works for.
 */
export function settingsExtraRoutes({ route }: Router) {
  route('/settings/referral-history', 'get', async ({ user, query }, { db, clock }) => {
    const data = await referralHistory(db, sellerIdOf(user), query.page ?? 1, clock.now());
    return { status: 200, body: { success: true, data } };
  });

  route('/settings/referral-bookings', 'get', async ({ user, query }, { db }) => {
    const data = await referralBookings(db, sellerIdOf(user), query.page ?? 1);
    return { status: 200, body: { success: true, data } };
  });

  route('/settings/seller-contacts', 'get', async ({ user }, { db }) => {
    const sellerId = sellerIdOf(user);
    const columns = ['id', 'name', 'role', 'email', 'phone', 'hours'] as const;
    let contacts = await db
      .selectFrom('seller_contacts')
      .select(columns)
      .where('seller_id', '=', sellerId)
      .orderBy('position')
      .orderBy('id')
      .execute();
    if (contacts.length === 0) {
      contacts = await db
        .selectFrom('seller_contacts')
        .select(columns)
        .where('seller_id', 'is', null)
        .orderBy('position')
        .orderBy('id')
        .execute();
    }
    return { status: 200, body: { success: true, data: contacts } };
  });

  const partnerSettingsOf = async (db: import('../db/database').Db, sellerId: number) => {
    const row = await db
      .selectFrom('partner_settings')
      .select(['api_access', 'webhook_url', 'notification_email', 'updated_at'])
      .where('seller_id', '=', sellerId)
      .executeTakeFirst();
    return {
      api_access: row?.api_access === 1,
      webhook_url: row?.webhook_url ?? null,
      notification_email: row?.notification_email ?? null,
      updated_at: row?.updated_at ?? null,
    };
  };

  route('/settings/partner-setting', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: await partnerSettingsOf(db, sellerIdOf(user)) },
  }));

  route('/settings/partner-setting/update', 'post', async ({ user, body }, { db, clock }) => {
    const webhook = body.webhook_url?.trim() || null;
    if (webhook !== null && !isWebhookUrl(webhook)) throw invalid('/body/webhook_url', WEBHOOK_URL_MESSAGE);
    const email = body.notification_email?.trim().toLowerCase() || null;
    const sellerId = sellerIdOf(user);
    const values = {
      api_access: body.api_access ? 1 : 0,
      webhook_url: webhook,
      notification_email: email,
      updated_by: user.id,
      updated_at: clock.now().toISOString(),
    };
    await db
      .insertInto('partner_settings')
      .values({ seller_id: sellerId, ...values })
      .onConflict((oc) => oc.column('seller_id').doUpdateSet(values))
      .execute();
    return {
      status: 200,
      body: { success: true, message: PARTNER_SAVED, data: await partnerSettingsOf(db, sellerId) },
    };
  });

  route('/settings/request-feature', 'post', async ({ user, body }, deps) => {
    const { db, clock } = deps;
    // a person reads each one: so many a day per seller (its team's included)
    await spend(deps, 'feature-requests-daily', sellerIdOf(user));
    const title = body.title.trim();
    const description = body.description.trim();
    if (lengthOf(title) < 3) throw invalid('/body/title', 'Enter a title of at least 3 characters.');
    if (lengthOf(description) < 10) {
      throw invalid('/body/description', 'Describe the feature in at least 10 characters.');
    }
    const now = clock.now();
    const created_at = now.toISOString();
    const row = await db
      .insertInto('feature_requests')
      .values({
        seller_id: sellerIdOf(user),
        user_id: user.id,
        title,
        description,
        category: body.category,
        created_at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      status: 200,
      body: {
        success: true,
        message: FEATURE_REQUEST_SENT,
        data: { id: row.id, title, category: body.category, created_at },
      },
    };
  });
}
