import { css } from 'styled-system/css';
import type { CatalogueMatch } from '../../../../machines/add-listing.machine';
import { Button } from '../../../ui/button';
import { matchWhen } from '../listing-format';
import { card, muted, sectionTitle } from '../listing-styles';
import type { AddRef } from './add-listing-parts';

export function ChosenMatch({ add, match }: { add: AddRef; match: CatalogueMatch }) {
  return (
    <section aria-label="Match" className={card}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <div className={css({ minWidth: 0 })}>
          <h2 className={sectionTitle}>{match.match_name}</h2>
          <p className={muted}>
            {matchWhen(match.match_date, match.match_time)} · {match.stadium_name}, {match.city_name}
          </p>
        </div>
        <Button tone="secondary" onClick={() => add.send({ type: 'match.cleared' })}>
          Change match
        </Button>
      </div>
    </section>
  );
}
