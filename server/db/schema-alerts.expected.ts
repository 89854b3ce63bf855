import { table } from './expected-columns';
import type { Database } from './schema';

// The seat alerts' tables as schema.test.ts expects them (checked by the compiler against schema-alerts.ts).

export const ALERT_TABLES: { [T in 'seat_alerts' | 'seat_alert_matches']: { columns: string[]; nullable: string[] } } =
  {
    seat_alerts: table<Database['seat_alerts']>()(
      [
        'id',
        'buyer_id',
        'user_id',
        'event_id',
        'quantity',
        'category',
        'blocks',
        'max_price',
        'currency',
        'by_mail',
        'state',
        'created_at',
      ],
      ['category', 'blocks'],
    ),
    seat_alert_matches: table<Database['seat_alert_matches']>()(
      ['id', 'alert_id', 'listing_id', 'state', 'unit_all_in', 'cart_id', 'matched_at', 'held_at'],
      ['cart_id', 'held_at'],
    ),
  };
