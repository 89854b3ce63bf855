import type { MarketInsights } from '../../../../machines/add-listing.machine';
import { PriceCapChecks } from '../../../ui/price-cap-checks';
import { money } from '../listing-format';
import { muted } from '../listing-styles';

const POSITION: Record<string, string> = {
  only: 'the only listing in this category',
  lowest: 'the lowest price in this category',
  below_median: 'below the median of this category',
  median: 'at the median of this category',
  above_median: 'above the median of this category',
  highest: 'the highest price in this category',
};

export function InsightLines({ insights: m }: { insights: MarketInsights }) {
  const price = (minor: number | null) => (minor === null ? '-' : money(minor, m.currency));
  return (
    <>
      {m.payout ? (
        <p>
          <strong>You receive {price(m.payout.seller_receives)}</strong> for {m.payout.quantity}{' '}
          {m.payout.quantity === 1 ? 'ticket' : 'tickets'} (the buyer pays {price(m.payout.buyer_pays.grand_total)} with
          fees).
        </p>
      ) : null}
      {m.your_price ? (
        <p>
          Your price ranks #{m.your_price.rank} of {m.your_price.cheaper_count + m.your_price.dearer_count + 1}:{' '}
          {POSITION[m.your_price.position] ?? m.your_price.position}.
        </p>
      ) : null}
      <p className={muted}>
        Other sellers: {m.listings_count} {m.listings_count === 1 ? 'listing' : 'listings'}, lowest{' '}
        {price(m.lowest_price)}, median {price(m.median_price)}, highest {price(m.highest_price)}; {m.sold_recently}{' '}
        sold in the last {m.sold_recently_days} days.
      </p>
      <PriceCapChecks checks={m.price_caps} />
    </>
  );
}
