import { css } from 'styled-system/css';
import type { components } from '../../openapi/schema';
import { formatMoney } from '../lib/money';

type Restriction = components['schemas']['ListingRestriction'];

export const RESTRICTION_LABELS: Readonly<Record<Restriction, string>> = {
  restricted_view: 'Restricted view',
  age_restriction: 'Age restriction',
  home_fans_only: 'Home fans only',
  away_fans_only: 'Away fans only',
  members_only: 'Members only',
  id_required: 'ID required',
  wheelchair_access: 'Wheelchair access',
  alcohol_free: 'Alcohol-free area',
};

export interface ListingTermsValue {
  face_value: number | null;
  face_value_currency: string;
  seats: string | null;
  restrictions: readonly Restriction[];
}

const list = css({ display: 'flex', flexWrap: 'wrap', gap: '1 3', fontSize: 'sm', color: 'fg.muted' });

/**
 * What the law of resale asks a buyer to see beside a resold ticket: its face value, its seats and its
 * restrictions, as the seller gave them (said plainly when not given).
 */
export function ListingTerms({ terms, label = 'Ticket terms' }: { terms: ListingTermsValue; label?: string }) {
  return (
    <dl aria-label={label} className={list}>
      <div className={css({ display: 'flex', gap: '1' })}>
        <dt>Face value</dt>
        <dd>
          {terms.face_value === null
            ? 'not given'
            : formatMoney({ minor: terms.face_value, currency: terms.face_value_currency })}
        </dd>
      </div>
      <div className={css({ display: 'flex', gap: '1' })}>
        <dt>Seats</dt>
        <dd>{terms.seats ?? 'not given'}</dd>
      </div>
      <div className={css({ display: 'flex', gap: '1' })}>
        <dt>Restrictions</dt>
        <dd>
          {terms.restrictions.length === 0 ? 'none' : terms.restrictions.map((r) => RESTRICTION_LABELS[r]).join(', ')}
        </dd>
      </div>
    </dl>
  );
}
