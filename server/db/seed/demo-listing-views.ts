import type { Clock } from '../../clock';
import { saveView } from '../../domain/listings/changes';
import type { Db } from '../database';

/** Saved views of Inventory: two of the demo seller's, one of the rival's (a broker keeps a few). */
export async function seedDemoListingViews(db: Db, clock: Clock, who: { seller: number; rival: number }) {
  const now = clock.now();
  await saveView(
    db,
    who.seller,
    { name: 'On sale, cheapest first', filters: { status: 'published' }, sort: 'price_asc', hidden: [] },
    now,
  );
  await saveView(
    db,
    who.seller,
    { name: 'Off sale', filters: { status: 'unpublished' }, sort: 'match_date', hidden: ['face_value', 'split'] },
    now,
  );
  await saveView(db, who.rival, { name: 'Newest', filters: {}, sort: 'created_desc', hidden: [] }, now);
}
