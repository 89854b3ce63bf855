import type { Clock } from '../../clock';
import type { Db } from '../database';

export const DEMO_REFERRALS_FIXTURE = 'demo-referrals-v1';
/** The demo seller's referral code (a real one is drawn at random on first asking: server/domain/referrals.ts). */
export const DEMO_REFERRAL_CODE = 'SBSELL24';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The contacts every seller without its own sees (Settings › Seller Contacts). Placeholder addresses on the
 * reserved .example domain: an operator puts its own people in `seller_contacts` (seller_id null).
 */
export const DEFAULT_SELLER_CONTACTS = [
  {
    name: 'Seller Support',
    role: 'Seller support',
    email: 'sellers@sb-portal.example',
    phone: '+44 20 7946 0000',
    hours: 'Mon-Fri 08:00-20:00, Sat 09:00-17:00 (UK time)',
  },
  {
    name: 'Payments Team',
    role: 'Payouts and SB Pay',
    email: 'payments@sb-portal.example',
    phone: null,
    hours: 'Mon-Fri 09:00-17:30 (UK time)',
  },
] as const;

/** The default contacts, when there are none yet (reference data: every start, nothing a person changed is touched). */
export async function seedDefaultSellerContacts(db: Db): Promise<void> {
  const any = await db.selectFrom('seller_contacts').select('id').where('seller_id', 'is', null).executeTakeFirst();
  if (any) return;
  await db
    .insertInto('seller_contacts')
    .values(DEFAULT_SELLER_CONTACTS.map((c, position) => ({ ...c, seller_id: null, position })))
    .execute();
}

/**
 * The demo seller's referrals: its code, three people who signed up with it (the rival 40 days ago, whose
 * confirmed purchases of the trade demo earn; tickets4u 20 days ago, with no bookings; fanzone 400 days ago,
 * whose 12 months are over), and its own account manager beside the default contacts.
 */
export async function seedDemoReferrals(
  db: Db,
  clock: Clock,
  who: { seller: number; referred: readonly [number, number, number] },
): Promise<void> {
  const now = clock.now().getTime();
  await db
    .insertInto('referral_codes')
    .values({ user_id: who.seller, code: DEMO_REFERRAL_CODE, created_at: new Date(now - 500 * DAY_MS).toISOString() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const [rival, tickets4u, fanzone] = who.referred;
  await db
    .insertInto('referrals')
    .values(
      [
        [rival, 40],
        [tickets4u, 20],
        [fanzone, 400],
      ].map(([referred, daysAgo]) => ({
        referrer_id: who.seller,
        referred_id: referred as number,
        created_at: new Date(now - (daysAgo as number) * DAY_MS).toISOString(),
      })),
    )
    .onConflict((oc) => oc.column('referred_id').doNothing())
    .execute();
  await db
    .insertInto('seller_contacts')
    .values([
      {
        seller_id: who.seller,
        position: 0,
        name: 'Priya Shah',
        role: 'Account manager',
        email: 'priya.shah@sb-portal.example',
        phone: '+44 20 7946 0123',
        hours: 'Mon-Fri 09:00-17:30 (UK time)',
      },
      ...DEFAULT_SELLER_CONTACTS.map((c, i) => ({ ...c, seller_id: who.seller, position: i + 1 })),
    ])
    .execute();
}
