import { useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';
import { type FlowIndexEntry, loadIndex } from './flow-data';

export const card = css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '6' }, minWidth: 0 });

/** /flows: every statechart of the app, with what it does; one click opens it drawn. */
export default function FlowsPage() {
  const [machines, setMachines] = useState<FlowIndexEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: Retry loads again by changing the attempt
  useEffect(() => {
    let live = true;
    setFailed(false);
    loadIndex()
      .then((list) => live && setMachines(list))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [attempt]);

  return (
    <section aria-label="Flows" className={card}>
      <p className={css({ color: 'fg.muted', mb: '4' })}>
        The statecharts that run the portal, drawn from the code. Open one to see it laid out, follow it live while you
        use the app in another tab, read its test paths as stories, or take it to Stately's editor.
      </p>
      {failed ? (
        <div role="alert" className={css({ display: 'grid', gap: '2', justifyItems: 'start' })}>
          <p>The list of flows could not be loaded.</p>
          <Button tone="secondary" onClick={() => setAttempt((n) => n + 1)}>
            Retry
          </Button>
        </div>
      ) : machines === null ? (
        <Loading label="Loading flows">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height="56px" radius="md" />
          ))}
        </Loading>
      ) : (
        <ul
          className={css({
            display: 'grid',
            gap: '3',
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 18rem), 1fr))',
          })}
        >
          {machines.map((m) => (
            <li
              key={m.id}
              className={css({ border: '1px solid', borderColor: 'border', borderRadius: 'md', p: '4', minWidth: 0 })}
            >
              <Link
                href={`/flows/${encodeURIComponent(m.id)}`}
                className={css({ fontWeight: 'semibold', color: 'accent', textDecoration: 'underline' })}
              >
                {m.id}
              </Link>
              <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>
                {m.states} states, {m.transitions} transitions · {m.file}
              </p>
              {m.description ? (
                <p className={css({ fontSize: 'sm', mt: '2', overflowWrap: 'anywhere' })}>{m.description}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
