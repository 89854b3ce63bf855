import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { type ApiScope, type ApiToken, apiTokensMachine } from '../../../machines/api-tokens.machine';
import { useViewActor } from '../../app/view-actor';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { CopyButton } from '../../ui/copy-button';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { ToneBadge } from '../../ui/tone-badge';

type Ref = ActorRefFrom<typeof apiTokensMachine>;

const card = css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '3' });
const SCOPES: readonly { scope: ApiScope; label: string }[] = [
  { scope: 'listings', label: 'Listings (inventory and holds)' },
  { scope: 'sales', label: 'Sales (orders)' },
  { scope: 'delivery', label: 'Delivery (ticket uploads)' },
];
const when = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));

/** Settings, API tokens: tokens for the seller's other systems (a point of sale, a channel manager). */
export default function ApiTokensPage() {
  const actor = useViewActor(apiTokensMachine, 'apiTokens');
  if (!actor) return null;
  return (
    <>
      <Tokens actor={actor} />
      <CreateDialog actor={actor} />
      <ShownDialog actor={actor} />
      <RevokeDialog actor={actor} />
    </>
  );
}

function Tokens({ actor }: { actor: Ref }) {
  const tokens = useSelector(actor, (s) => s.context.tokens);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const ready = useSelector(actor, (s) => s.matches('ready'));
  const problem = useSelector(actor, (s) => (s.matches('ready') ? s.context.problem : null));
  return (
    <section aria-labelledby="api-tokens" aria-busy={loading} className={card}>
      <h2 id="api-tokens" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        API tokens
      </h2>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        A token lets another system act for you within its scopes: send it as{' '}
        <code>Authorization: Bearer &lt;token&gt;</code>. See the <a href={routes.apiDocs.href({})}>API reference</a>.
      </p>
      {problem ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {problem}
        </p>
      ) : null}
      {loading && tokens.length === 0 ? (
        <Loading label="Loading the API tokens">
          <Skeleton height="60px" />
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => actor.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : tokens.length === 0 ? (
        <p className={css({ fontSize: 'sm' })}>No API token yet.</p>
      ) : (
        <ul className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '2' })}>
          {tokens.map((t) => (
            <TokenRow key={t.id} token={t} actor={actor} ready={ready} />
          ))}
        </ul>
      )}
      <div>
        <Button tone="primary" disabled={!ready} onClick={() => actor.send({ type: 'create.opened' })}>
          Create API token
        </Button>
      </div>
    </section>
  );
}

function TokenRow({ token: t, actor, ready }: { token: ApiToken; actor: Ref; ready: boolean }) {
  return (
    <li
      aria-label={`${t.name}, ending ${t.token_hint}`}
      className={css({
        display: 'flex',
        flexWrap: 'wrap',
        gap: '3',
        alignItems: 'center',
        borderTop: '1px solid {colors.border}',
        pt: '2',
      })}
    >
      <span className={css({ flex: '1', minWidth: '12rem', overflowWrap: 'anywhere', fontSize: 'sm' })}>
        <strong>{t.name}</strong> (…{t.token_hint}) · {t.scopes.join(', ')} · expires {when(t.expires_at)} ·{' '}
        {t.last_used_at ? `last used ${when(t.last_used_at)}` : 'never used'}
      </span>
      <ToneBadge tone={t.status === 'active' ? 'success' : t.status === 'revoked' ? 'danger' : 'neutral'}>
        {t.status === 'active' ? 'Active' : t.status === 'revoked' ? 'Revoked' : 'Expired'}
      </ToneBadge>
      {t.status === 'active' ? (
        <Button tone="secondary" disabled={!ready} onClick={() => actor.send({ type: 'revoke.opened', id: t.id })}>
          Revoke<span className={css({ srOnly: true })}> {t.name}</span>
        </Button>
      ) : null}
    </li>
  );
}

function CreateDialog({ actor }: { actor: Ref }) {
  const open = useSelector(actor, (s) => s.matches('creating') || s.matches('saving'));
  const busy = useSelector(actor, (s) => s.matches('saving'));
  const problem = useSelector(actor, (s) => (s.matches('creating') ? s.context.problem : null));
  const errors = useSelector(actor, (s) => (s.matches('creating') ? s.context.fieldErrors : []));
  if (!open) return null;
  const errorOf = (field: string) => errors.find((e) => e.path.startsWith(`/body/${field}`))?.message;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    actor.send({
      type: 'create.submitted',
      form: {
        name: String(data.get('name') ?? ''),
        scopes: data.getAll('scopes').map(String) as ApiScope[],
        expires_in_days: Number(data.get('expires_in_days') ?? 0),
      },
    });
  };
  return (
    <Modal open title="Create API token" onClose={() => actor.send({ type: 'change.cancelled' })}>
      <form onSubmit={submit} className={css({ display: 'grid', gap: '3' })} noValidate>
        <TextField label="What it is for" name="name" required maxLength={100} error={errorOf('name')} />
        <fieldset className={css({ display: 'grid', gap: '1', border: 'none', p: 0, m: 0 })}>
          <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>Scopes</legend>
          {SCOPES.map(({ scope, label }) => (
            <label key={scope} className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm' })}>
              <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === 'listings'} /> {label}
            </label>
          ))}
          {errorOf('scopes') ? (
            <span className={css({ color: 'error', fontSize: 'sm' })}>Choose at least one scope.</span>
          ) : null}
        </fieldset>
        <TextField
          label="Expires after (days)"
          name="expires_in_days"
          type="number"
          min={1}
          max={365}
          defaultValue={90}
          required
          error={errorOf('expires_in_days')}
        />
        {problem && errors.length === 0 ? (
          <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
            {problem}
          </p>
        ) : null}
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button tone="secondary" onClick={() => actor.send({ type: 'change.cancelled' })}>
            Cancel
          </Button>
          <Button tone="primary" type="submit" busy={busy}>
            Create token
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function ShownDialog({ actor }: { actor: Ref }) {
  const shown = useSelector(actor, (s) => (s.matches('showingToken') ? s.context.shown : null));
  if (!shown) return null;
  const close = () => actor.send({ type: 'token.dismissed' });
  return (
    <Modal open title="Your new API token" onClose={close}>
      <div className={css({ display: 'grid', gap: '3' })}>
        <p className={css({ fontSize: 'sm' })}>Copy it now: it will not be shown again.</p>
        <output
          aria-label="New API token"
          className={css({ fontFamily: 'mono', fontSize: 'sm', overflowWrap: 'anywhere', bg: 'bg.muted', p: '2' })}
        >
          {shown}
        </output>
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <CopyButton value={shown} label="token" />
          <Button tone="primary" onClick={close}>
            Done
          </Button>
        </div>
      </div>
    </Modal>
  );
}

function RevokeDialog({ actor }: { actor: Ref }) {
  const open = useSelector(actor, (s) => s.matches('confirmingRevoke') || s.matches('revoking'));
  const busy = useSelector(actor, (s) => s.matches('revoking'));
  const name = useSelector(actor, (s) => s.context.tokens.find((t) => t.id === s.context.target)?.name ?? '');
  if (!open) return null;
  return (
    <Modal open title="Revoke API token" onClose={() => actor.send({ type: 'change.cancelled' })}>
      <div className={css({ display: 'grid', gap: '3' })}>
        <p className={css({ fontSize: 'sm' })}>
          “{name}” stops working at once: whatever uses it gets 401 from its next call.
        </p>
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button tone="secondary" onClick={() => actor.send({ type: 'change.cancelled' })}>
            Cancel
          </Button>
          <Button tone="primary" busy={busy} onClick={() => actor.send({ type: 'revoke.confirmed' })}>
            Revoke token
          </Button>
        </div>
      </div>
    </Modal>
  );
}
