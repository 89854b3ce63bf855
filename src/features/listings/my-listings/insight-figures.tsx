import { css } from 'styled-system/css';
import type { ListingDetail } from '../../../../machines/inventory.machine';
import { money } from '../listing-format';
import { muted } from '../listing-styles';

/** A listing's market: the other sellers' lowest, median and highest price, its rank, what the seller receives. */
export function InsightFigures({
  insights: m,
  currency,
}: {
  insights: Extract<ListingDetail, { kind: 'insights' }>['insights'];
  currency: string;
}) {
  const price = (minor: number | null) => (minor === null ? '-' : money(minor, m.currency ?? currency));
  return (
    <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '1 3', fontSize: 'sm' })}>
      <dt className={muted}>Lowest</dt>
      <dd>{price(m.lowest_price)}</dd>
      <dt className={muted}>Median</dt>
      <dd>{price(m.median_price)}</dd>
      <dt className={muted}>Highest</dt>
      <dd>{price(m.highest_price)}</dd>
      <dt className={muted}>Other listings</dt>
      <dd>{m.listings_count}</dd>
      <dt className={muted}>Sold in {m.sold_recently_days} days</dt>
      <dd>{m.sold_recently}</dd>
      {m.your_price ? (
        <>
          <dt className={muted}>Your price</dt>
          <dd>
            {m.your_price.rank === 1 ? 'Cheapest' : `#${m.your_price.rank} cheapest`} of{' '}
            {m.your_price.cheaper_count + m.your_price.dearer_count + 1}
          </dd>
        </>
      ) : null}
      {m.payout ? (
        <>
          <dt className={muted}>You receive</dt>
          <dd>
            {price(m.payout.seller_receives)} for {m.payout.quantity}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
