import { css } from 'styled-system/css';
import type { components } from '../../openapi/schema';

type Check = components['schemas']['PriceCapCheck'];

/**
 * The resale caps of a listing's match, each as the server checked it against the price and face value: within
 * it, over it (the listing would be refused), or waiting for a face value.
 */
export function PriceCapChecks({ checks }: { checks: readonly Check[] }) {
  if (checks.length === 0) return null;
  return (
    <ul aria-label="Resale price caps" className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
      {checks.map((c) => (
        <li key={`${c.scope}-${c.market}`} className={css({ color: c.within === false ? 'error' : undefined })}>
          {c.message}
        </li>
      ))}
    </ul>
  );
}
