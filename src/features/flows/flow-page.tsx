import { useEffect, useMemo, useState } from 'react';
import { css } from 'styled-system/css';
import { Link, useRoute } from 'wouter';
import { activePaths, type LiveActor } from '../../lib/flows-live';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';
import { FlowChart } from './flow-chart';
import { type FlowFiles, loadFlow, machineFileHref, type StateJson } from './flow-data';
import { card } from './flows-page';
import { useLiveActors } from './use-live-actors';

type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'missing' } | { kind: 'ready'; flow: FlowFiles };

/** /flows/:id: one statechart drawn, its text view, its live state and its test paths as stories. */
export default function FlowPage() {
  const [, params] = useRoute<{ id: string }>(routes.flow.pattern);
  const id = params?.id ?? '';
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: Retry loads again by changing the attempt
  useEffect(() => {
    let live = true;
    setLoaded({ kind: 'loading' });
    loadFlow(id)
      .then((flow) => live && setLoaded(flow ? { kind: 'ready', flow } : { kind: 'missing' }))
      .catch(() => live && setLoaded({ kind: 'failed' }));
    return () => {
      live = false;
    };
  }, [id, attempt]);

  if (loaded.kind === 'loading')
    return (
      <section aria-label={`Flow ${id}`} className={card}>
        <Loading label="Loading the flow">
          <Skeleton height="24px" width="40%" />
          <Skeleton height="360px" radius="md" />
        </Loading>
      </section>
    );
  if (loaded.kind === 'missing')
    return (
      <section aria-label={`Flow ${id}`} className={card}>
        <p>
          There is no flow named “{id}”. <Link href="/flows">All flows</Link>
        </p>
      </section>
    );
  if (loaded.kind === 'failed')
    return (
      <section aria-label={`Flow ${id}`} className={card} role="alert">
        <p>The flow could not be loaded.</p>
        <Button tone="secondary" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </Button>
      </section>
    );
  return <Flow flow={loaded.flow} />;
}

function Flow({ flow }: { flow: FlowFiles }) {
  const { entry, machine, view, stories } = flow;
  const [tab, setTab] = useState<'chart' | 'text'>('chart');
  const live = useLiveActors().filter((a) => a.machineId === entry.id);
  const [chosen, setChosen] = useState<string | null>(null);
  const followed = live.find((a) => a.key === chosen) ?? live[0] ?? null;
  const active = useMemo(() => new Set(followed ? activePaths(followed.value) : []), [followed]);

  return (
    <div className={css({ display: 'grid', gap: '4', minWidth: 0 })}>
      <section aria-label={`Flow ${entry.id}`} className={card}>
        <h2 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{entry.id}</h2>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {entry.exportName} in {entry.file} · {entry.states} states, {entry.transitions} transitions
        </p>
        {entry.description ? <p className={css({ mt: '2', overflowWrap: 'anywhere' })}>{entry.description}</p> : null}
        <p className={css({ mt: '2', display: 'flex', gap: '4', flexWrap: 'wrap' })}>
          <a
            href={machineFileHref(entry.id)}
            download={`${entry.id}.machine.json`}
            className={css({ color: 'accent', textDecoration: 'underline' })}
          >
            Download for Stately (JSON)
          </a>
          <Link href="/flows" className={css({ color: 'accent', textDecoration: 'underline' })}>
            All flows
          </Link>
        </p>
        <div role="tablist" aria-label="View" className={css({ display: 'flex', gap: '2', mt: '4', mb: '3' })}>
          {(['chart', 'text'] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`flow-tab-${t}`}
              aria-selected={tab === t}
              aria-controls={`flow-panel-${t}`}
              onClick={() => setTab(t)}
              className={css({
                px: '3',
                py: '1.5',
                borderRadius: 'md',
                fontWeight: 'semibold',
                cursor: 'pointer',
                bg: tab === t ? 'accent' : 'bg.muted',
                color: tab === t ? 'accent.fg' : 'fg',
              })}
            >
              {t === 'chart' ? 'Chart' : 'Text'}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`flow-panel-${tab}`} aria-labelledby={`flow-tab-${tab}`}>
          {tab === 'chart' ? <FlowChart view={view} active={active} /> : <TextView machine={machine} active={active} />}
        </div>
      </section>

      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', desktop: '1fr 1fr' },
          minWidth: 0,
        })}
      >
        <LivePanel actors={live} followed={followed} onFollow={setChosen} />
        <StoriesPanel stories={stories} machineId={entry.id} />
      </div>
    </div>
  );
}

/** The same chart as nested lists, for screen readers and for reading: each state, its arrows, the current one said. */
function TextView({ machine, active }: { machine: StateJson; active: ReadonlySet<string> }) {
  return (
    <div className={css({ fontSize: 'sm', overflowWrap: 'anywhere' })}>
      <StateItems states={{ [machine.id]: machine }} prefix={null} active={active} />
    </div>
  );
}

const arrowsOf = (s: StateJson) => {
  const out: string[] = [];
  const say = (event: string, list: StateJson['always']) => {
    for (const t of list ?? []) {
      const guard = t.guard ? ` if ${t.guard}` : '';
      const to = t.target?.length ? ` → ${t.target.map((x) => x.replace(/^#/, '')).join(', ')}` : ' (stays)';
      const actions = t.actions?.length ? ` / ${t.actions.join(', ')}` : '';
      out.push(`${event}${guard}${to}${actions}`);
    }
  };
  for (const inv of s.invoke ?? []) {
    say(`${inv.id} done`, inv.onDone);
    say(`${inv.id} failed`, inv.onError);
  }
  for (const [delay, list] of Object.entries(s.after ?? {})) say(`after ${delay} ms`, list);
  say('always', s.always);
  for (const [event, list] of Object.entries(s.on ?? {})) say(event, list);
  return out;
};

function StateItems({
  states,
  prefix,
  active,
}: {
  states: Record<string, StateJson>;
  prefix: string | null;
  active: ReadonlySet<string>;
}) {
  return (
    <ul className={css({ pl: prefix === null ? '0' : '5', display: 'grid', gap: '2' })}>
      {Object.entries(states).map(([key, s]) => {
        const path = prefix === null ? '' : prefix ? `${prefix}.${key}` : key;
        const current = path !== '' && active.has(path);
        const kind = s.type ?? (s.states ? 'compound' : 'atomic');
        return (
          <li key={key} aria-current={current ? 'true' : undefined}>
            <strong className={css({ color: current ? 'accent' : 'fg' })}>{key}</strong>{' '}
            <span className={css({ color: 'fg.muted' })}>
              ({kind}
              {s.initial ? `, starts in ${s.initial}` : ''}
              {s.tags ? `, tags ${s.tags.join(', ')}` : ''})
            </span>
            {current ? <span className={css({ fontWeight: 'bold', color: 'accent' })}> (current)</span> : null}
            {s.description ? <p className={css({ color: 'fg.muted' })}>{s.description}</p> : null}
            {s.entry || s.exit || s.invoke ? (
              <p>
                {[
                  s.entry ? `on entry: ${s.entry.join(', ')}` : '',
                  s.exit ? `on exit: ${s.exit.join(', ')}` : '',
                  ...(s.invoke ?? []).map((i) => `runs ${i.src}`),
                ]
                  .filter(Boolean)
                  .join('; ')}
              </p>
            ) : null}
            {arrowsOf(s).length > 0 ? (
              <ul aria-label={`Transitions of ${key}`} className={css({ pl: '4', listStyle: 'disc' })}>
                {arrowsOf(s).map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ul>
            ) : null}
            {s.states ? <StateItems states={s.states} prefix={path} active={active} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

const describeValue = (a: LiveActor) =>
  activePaths(a.value)
    .filter((p, _, all) => !all.some((q) => q.startsWith(`${p}.`)))
    .join(' + ');

function LivePanel({
  actors,
  followed,
  onFollow,
}: {
  actors: LiveActor[];
  followed: LiveActor | null;
  onFollow: (key: string) => void;
}) {
  return (
    <section aria-label="Live" className={card}>
      <h2 className={css({ fontSize: 'md', fontWeight: 'bold', mb: '2' })}>Live</h2>
      {actors.length === 0 ? (
        <p className={css({ color: 'fg.muted' })}>
          Not running in any tab of this browser now. Use the app in another tab (or here) and its state shows here.
        </p>
      ) : (
        <>
          <p aria-live="polite" className={css({ mb: '2' })}>
            Current state: <strong data-testid="live-state">{followed ? describeValue(followed) : ''}</strong>
            {followed?.status === 'stopped' ? ' (ended)' : followed?.status === 'done' ? ' (done)' : ''}
          </p>
          {actors.length > 1 ? (
            <fieldset className={css({ mb: '2' })}>
              <legend className={css({ fontSize: 'sm', color: 'fg.muted' })}>Follow</legend>
              {actors.map((a) => (
                <label key={a.key} className={css({ display: 'block', fontSize: 'sm' })}>
                  <input
                    type="radio"
                    name="follow"
                    checked={a.key === followed?.key}
                    onChange={() => onFollow(a.key)}
                  />{' '}
                  {a.key}: {describeValue(a)}
                  {a.status === 'stopped' ? ' (ended)' : ''}
                </label>
              ))}
            </fieldset>
          ) : null}
          <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>Last events</h3>
          {followed && followed.events.length > 0 ? (
            <ol
              aria-label="Last events"
              className={css({ fontSize: 'sm', fontFamily: 'mono', pl: '5', listStyle: 'decimal' })}
            >
              {followed.events.map((e) => (
                <li key={`${e.at}-${e.type}`}>{e.type}</li>
              ))}
            </ol>
          ) : (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No events yet.</p>
          )}
        </>
      )}
    </section>
  );
}

function StoriesPanel({ stories, machineId }: { stories: FlowFiles['stories']; machineId: string }) {
  return (
    <section aria-label="Test paths" className={card}>
      <h2 className={css({ fontSize: 'md', fontWeight: 'bold', mb: '2' })}>Test paths as stories</h2>
      {!stories ? (
        <p className={css({ color: 'fg.muted' })}>No model test writes stories for this machine.</p>
      ) : (
        <>
          <p className={css({ fontSize: 'sm', mb: '2' })}>
            {stories.stories.length} paths from {stories.file}. Each step checks: {stories.invariant}
          </p>
          <p className={css({ fontSize: 'sm', mb: '3', color: 'fg.muted' })}>
            Run one: <code>npm run flows:path -- {machineId} &lt;number&gt;</code>
          </p>
          <ol
            className={css({
              display: 'grid',
              gap: '2',
              maxHeight: '60vh',
              overflowY: 'auto',
              pl: '6',
              listStyle: 'decimal',
            })}
          >
            {stories.stories.map((story) => (
              <li key={story.name} className={css({ fontSize: 'sm', overflowWrap: 'anywhere' })}>
                <details>
                  <summary className={css({ cursor: 'pointer' })}>
                    {story.path.split(' → ').at(-1)} ({(story.path.split(' → ').length - 1) / 2} steps)
                  </summary>
                  <p className={css({ fontFamily: 'mono', mt: '1' })}>{story.path}</p>
                  {story.group ? <p className={css({ color: 'fg.muted' })}>{story.group}</p> : null}
                </details>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
