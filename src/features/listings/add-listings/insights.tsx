import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';
import { muted } from '../listing-styles';
import type { AddRef } from './add-listing-parts';
import { InsightLines } from './insight-lines';

export function Insights({ add }: { add: AddRef }) {
  const state = useSelector(add, (s) => (s.value as { insights: string }).insights);
  const insights = useSelector(add, (s) => s.context.insights);
  return (
    <section
      aria-label="Market insights"
      aria-live="polite"
      className={css({ bg: 'bg.muted', borderRadius: 'md', p: '3', display: 'grid', gap: '1', fontSize: 'sm' })}
    >
      {state === 'idle' ? (
        <p className={muted}>Choose the category and type a price to see what you receive and where it ranks.</p>
      ) : state === 'waiting' || state === 'loading' ? (
        <p className={muted}>Checking the market…</p>
      ) : state === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => add.send({ type: 'insights.retried' })}>
            Retry
          </Button>
        </div>
      ) : insights ? (
        <InsightLines insights={insights} />
      ) : null}
    </section>
  );
}
