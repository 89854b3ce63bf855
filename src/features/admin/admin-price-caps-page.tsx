import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { type PriceCap, priceCapsMachine, restate, ruleOf } from '../../../machines/admin/price-caps.machine';
import { transferWindowsMachine } from '../../../machines/admin/transfer-windows.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { dateTime, muted } from './queue/cells';

type CapsRef = ActorRefFrom<typeof priceCapsMachine>;
/** The events to come found by a search: the transfer windows' list, read only here. */
type FinderRef = ActorRefFrom<typeof transferWindowsMachine>;

const MARKUP_ERROR = 'A markup from 0 to 1000%, with at most two decimals.';

/** The markup typed in percent, as basis points; null when it is out of range or not a number. */
export function markupBps(text: string): number | null {
  const t = text.trim().replace(/%$/, '').trim();
  if (!/^\d{1,4}(\.\d{1,2})?$/.test(t)) return null;
  const bps = Math.round(Number(t) * 100);
  return bps <= 100_000 ? bps : null;
}

const panel = css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '4' });
const rowBox = css({
  display: 'grid',
  gap: '3',
  alignItems: 'end',
  gridTemplateColumns: { base: '1fr', desktop: 'minmax(0, 2fr) minmax(0, 1fr) auto auto' },
  borderBottom: '1px solid {colors.border}',
  pb: '3',
});

/**
 * /admin/price-caps: the operator's resale price caps, per country (the events held there) or per event. Each
 * change (a new cap, a markup, off or on) is restated in a confirmation before it is saved.
 */
export default function AdminPriceCapsPage() {
  const caps = useViewActor(priceCapsMachine, 'priceCaps');
  const finder = useViewActor(transferWindowsMachine, 'priceCapEvents');
  if (!caps || !finder) return null;
  return <PriceCaps caps={caps} finder={finder} />;
}

function PriceCaps({ caps, finder }: { caps: CapsRef; finder: FinderRef }) {
  const list = useSelector(caps, (s) => s.context.caps);
  const loading = useSelector(caps, (s) => s.hasTag('loading'));
  const failed = useSelector(caps, (s) => s.hasTag('error'));
  return (
    <section aria-labelledby="price-caps" className={panel}>
      <div className={css({ display: 'grid', gap: '1' })}>
        <h1 id="price-caps" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
          Resale price caps
        </h1>
        <p className={muted}>
          Cap a ticket’s price at its face value, or face value plus a markup, for the events held in a country or for
          one event. An active cap refuses new listings and price changes over it; listings already on sale stay.
        </p>
      </div>
      {loading ? (
        <Loading label="Loading the caps">
          {[1, 2].map((i) => (
            <Skeleton key={i} height="64px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => caps.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : (
        <>
          <AddCap caps={caps} finder={finder} />
          <h2 className={css({ fontSize: 'md', fontWeight: 'semibold' })}>Caps</h2>
          {list.length === 0 ? (
            <p className={muted}>No cap yet.</p>
          ) : (
            <ul aria-label="Caps" className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '3' })}>
              {list.map((c) => (
                <CapRow key={`${c.id}-${c.updated_at}`} caps={caps} cap={c} />
              ))}
            </ul>
          )}
        </>
      )}
      <ConfirmChange caps={caps} />
    </section>
  );
}

const SCOPES: Option<'event' | 'country'>[] = [
  { value: 'event', label: 'One event' },
  { value: 'country', label: 'The events in a country' },
];

function AddCap({ caps, finder }: { caps: CapsRef; finder: FinderRef }) {
  const countries = useSelector(caps, (s) => s.context.countries);
  const q = useSelector(finder, (s) => s.context.q);
  const events = useSelector(finder, (s) => s.context.events);
  const [scope, setScope] = useState<'country' | 'event'>('event');
  const [target, setTarget] = useState('');
  const [markup, setMarkup] = useState('0');
  const bps = markupBps(markup);
  const options =
    scope === 'country'
      ? countries.map((c) => ({ id: c.id, name: c.name }))
      : events.map((e) => ({ id: e.id, name: e.match_name }));
  const chosen = options.find((o) => String(o.id) === target);
  return (
    <form
      aria-label="Add a cap"
      noValidate
      className={css({ display: 'grid', gap: '3', maxWidth: '560px' })}
      onSubmit={(e) => {
        e.preventDefault();
        if (bps === null || !chosen) return;
        caps.send({
          type: 'cap.proposed',
          proposal: { scope, id: chosen.id, market: chosen.name, markup_bps: bps, active: 1 },
        });
      }}
    >
      <h2 className={css({ fontSize: 'md', fontWeight: 'semibold' })}>Add a cap</h2>
      <Dropdown<'event' | 'country'>
        label="Applies to"
        searchable={false}
        options={SCOPES}
        value={scope}
        onChange={(v) => {
          if (!v) return;
          setScope(v);
          setTarget('');
        }}
      />
      {scope === 'event' ? (
        <TextField
          label="Find an event"
          type="search"
          value={q}
          maxLength={100}
          placeholder="Match, team or tournament"
          onChange={(e) => finder.send({ type: 'search.changed', q: e.currentTarget.value })}
        />
      ) : null}
      <Dropdown
        label={scope === 'country' ? 'Country' : 'Event'}
        placeholder={options.length === 0 ? 'None found' : 'Choose…'}
        options={options.map((o) => ({ value: String(o.id), label: o.name }))}
        value={target === '' ? null : target}
        onChange={(v) => setTarget(v ?? '')}
      />
      <TextField
        label="Markup over face value (%)"
        inputMode="decimal"
        value={markup}
        error={bps === null ? MARKUP_ERROR : null}
        onChange={(e) => setMarkup(e.currentTarget.value)}
      />
      <div>
        <Button type="submit" disabled={bps === null || !chosen}>
          Add cap
        </Button>
      </div>
    </form>
  );
}

function CapRow({ caps, cap }: { caps: CapsRef; cap: PriceCap }) {
  const [markup, setMarkup] = useState(String(cap.markup_bps / 100));
  const saved = useSelector(caps, (s) => s.context.saved?.id === cap.id);
  const bps = markupBps(markup);
  const propose = (markup_bps: number, active: 0 | 1) =>
    caps.send({
      type: 'cap.proposed',
      proposal: {
        scope: cap.scope,
        id: (cap.scope === 'country' ? cap.country_id : cap.event_id) ?? 0,
        market: cap.market,
        markup_bps,
        active,
      },
    });
  return (
    <li className={rowBox} aria-label={cap.market}>
      <div className={css({ display: 'grid', gap: '1', minWidth: 0 })}>
        <span className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{cap.market}</span>
        <span className={muted}>
          {cap.scope === 'country' ? 'Events in this country' : 'One event'} · at most {cap.rule} ·{' '}
          {cap.active ? 'Active' : 'Inactive'}
        </span>
        <span className={muted} role={saved ? 'status' : undefined}>
          {saved ? 'Saved. ' : ''}Updated {dateTime(cap.updated_at)}
        </span>
      </div>
      <TextField
        label="Markup (%)"
        inputMode="decimal"
        value={markup}
        error={bps === null ? MARKUP_ERROR : null}
        onChange={(e) => setMarkup(e.currentTarget.value)}
      />
      <Button
        tone="secondary"
        disabled={bps === null || bps === cap.markup_bps}
        onClick={() => bps !== null && propose(bps, cap.active === 1 ? 1 : 0)}
      >
        Save markup
      </Button>
      <Button tone="secondary" onClick={() => propose(cap.markup_bps, cap.active ? 0 : 1)}>
        {cap.active ? 'Turn off' : 'Turn on'}
      </Button>
    </li>
  );
}

function ConfirmChange({ caps }: { caps: CapsRef }) {
  const proposal = useSelector(caps, (s) => s.context.proposal);
  const saving = useSelector(caps, (s) => s.hasTag('saving'));
  const problem = useSelector(caps, (s) => s.context.problem);
  if (!proposal) return null;
  const cancel = () => caps.send({ type: 'proposal.cancelled' });
  return (
    <Modal open onClose={saving ? () => {} : cancel} title={`Cap: ${proposal.market}`}>
      <form
        noValidate
        className={css({ display: 'grid', gap: '3' })}
        onSubmit={(e) => {
          e.preventDefault();
          caps.send({ type: 'proposal.confirmed' });
        }}
      >
        <p className={css({ fontSize: 'sm' })}>{restate(proposal)}</p>
        {problem ? (
          <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
            {problem}
          </p>
        ) : null}
        <FormFooter
          onCancel={cancel}
          valid={!saving}
          submitting={saving}
          submitLabel={proposal.active ? `Cap at ${ruleOf(proposal.markup_bps)}` : 'Turn off'}
        />
      </form>
    </Modal>
  );
}
