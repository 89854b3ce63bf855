import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';
import { Loading, Skeleton } from '../../../ui/skeleton';
import type { AddRef, FormRef, SearchRef } from './add-listing-parts';
import { ChosenMatch } from './chosen-match';
import { Created } from './created';
import { ListingForm } from './listing-form';
import { MatchSearch } from './match-search';

export function Flow({ add }: { add: AddRef }) {
  const flow = useSelector(add, (s) => (s.value as { flow: string }).flow);
  const match = useSelector(add, (s) => s.context.match);
  const search = useSelector(add, (s) => s.children.matchSearch) as SearchRef | undefined;
  const form = useSelector(add, (s) => s.children.listingForm) as FormRef | undefined;
  if (flow === 'choosingMatch') return search ? <MatchSearch add={add} search={search} /> : null;
  return (
    <>
      {match ? <ChosenMatch add={add} match={match} /> : null}
      {flow === 'loadingBlocks' ? (
        <Loading label="Loading the stadium's categories">
          <Skeleton height="120px" />
        </Loading>
      ) : flow === 'blocksFailed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to load the stadium blocks</span>
          <Button tone="secondary" onClick={() => add.send({ type: 'blocks.retried' })}>
            Retry
          </Button>
        </div>
      ) : flow === 'editing' && form ? (
        <ListingForm add={add} form={form} />
      ) : flow === 'created' ? (
        <Created add={add} />
      ) : null}
    </>
  );
}
