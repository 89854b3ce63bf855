import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { bankAccountsMachine, type SettingsBankAccount } from '../../../machines/bank-accounts.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';

type Ref = ActorRefFrom<typeof bankAccountsMachine>;

const card = css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '3' });

/** Settings, bank accounts: where payouts go; each change confirmed by the password and told by email. */
export default function BankAccountsPage() {
  const actor = useViewActor(bankAccountsMachine, 'bankAccounts');
  if (!actor) return null;
  return (
    <>
      <Accounts actor={actor} />
      <AddDialog actor={actor} />
      <ConfirmDialog actor={actor} />
    </>
  );
}

function Accounts({ actor }: { actor: Ref }) {
  const all = useSelector(actor, (s) => s.context.accounts);
  const accounts = all.filter((a) => !a.removed_at);
  const removed = all.filter((a) => a.removed_at);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const ready = useSelector(actor, (s) => s.matches('ready'));
  const problem = useSelector(actor, (s) => (s.matches('ready') ? s.context.problem : null));
  return (
    <section aria-labelledby="bank-accounts" aria-busy={loading} className={card}>
      <h2 id="bank-accounts" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Payout bank accounts
      </h2>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Payouts go to the payout account. Every change needs your password, and we email you about it.
      </p>
      {problem ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {problem}
        </p>
      ) : null}
      {loading && accounts.length === 0 ? (
        <Loading label="Loading the bank accounts">
          <Skeleton height="60px" />
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => actor.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : accounts.length === 0 ? (
        <p className={css({ fontSize: 'sm' })}>No bank account yet.</p>
      ) : (
        <ul className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '2' })}>
          {accounts.map((a: SettingsBankAccount) => (
            <li
              key={a.id}
              className={css({
                display: 'flex',
                flexWrap: 'wrap',
                gap: '3',
                alignItems: 'center',
                borderTop: '1px solid {colors.border}',
                pt: '2',
              })}
            >
              <span className={css({ flex: '1', minWidth: '12rem', overflowWrap: 'anywhere' })}>
                {a.holder_name}, IBAN {a.iban_masked}, SWIFT/BIC {a.bic}
                {a.is_default ? <strong> (payout account)</strong> : null}
              </span>
              {a.is_default ? null : (
                <>
                  <Button
                    tone="secondary"
                    disabled={!ready}
                    onClick={() => actor.send({ type: 'default.opened', id: a.id })}
                  >
                    Make payout account<span className={css({ srOnly: true })}> ending {a.iban_last4}</span>
                  </Button>
                  <Button
                    tone="secondary"
                    disabled={!ready}
                    onClick={() => actor.send({ type: 'delete.opened', id: a.id })}
                  >
                    Remove<span className={css({ srOnly: true })}> the account ending {a.iban_last4}</span>
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button tone="primary" disabled={!ready} onClick={() => actor.send({ type: 'add.opened' })}>
          Add bank account
        </Button>
      </div>
      {removed.length > 0 ? <RemovedAccounts removed={removed} /> : null}
    </section>
  );
}

/** Removed accounts that payouts were made to: the payout history names them, so they are listed as removed. */
function RemovedAccounts({ removed }: { removed: SettingsBankAccount[] }) {
  return (
    <>
      <h3 id="removed-accounts" className={css({ fontSize: 'sm', fontWeight: 'bold', mt: '2' })}>
        Removed accounts
      </h3>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Payouts were made to these accounts before you removed them; Payouts lists them as removed. Nothing is paid to
        them any more.
      </p>
      <ul
        aria-labelledby="removed-accounts"
        className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '2' })}
      >
        {removed.map((a) => (
          <li key={a.id} className={css({ fontSize: 'sm', overflowWrap: 'anywhere' })}>
            {a.holder_name}, IBAN {a.iban_masked}, SWIFT/BIC {a.bic} (removed{' '}
            {new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(
              new Date(a.removed_at as string),
            )}
            )
          </li>
        ))}
      </ul>
    </>
  );
}

function AddDialog({ actor }: { actor: Ref }) {
  const open = useSelector(actor, (s) => s.matches('adding') || (s.matches('saving') && s.context.target === null));
  const busy = useSelector(actor, (s) => s.hasTag('saving'));
  const problem = useSelector(actor, (s) => (s.matches('adding') ? s.context.problem : null));
  const errors = useSelector(actor, (s) => (s.matches('adding') ? s.context.fieldErrors : []));
  if (!open) return null;
  const errorOf = (field: string) => errors.find((e) => e.path === `/body/${field}`)?.message;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    actor.send({
      type: 'change.submitted',
      change: {
        kind: 'add',
        form: {
          account_holder: text('account_holder'),
          iban: text('iban'),
          swift: text('swift'),
          password: text('password'),
          make_default: data.get('make_default') === 'on',
        },
      },
    });
  };
  return (
    <Modal open title="Add bank account" onClose={() => actor.send({ type: 'change.cancelled' })}>
      <form onSubmit={submit} className={css({ display: 'grid', gap: '3' })} noValidate>
        <TextField
          label="Account holder"
          name="account_holder"
          required
          maxLength={100}
          autoComplete="name"
          error={errorOf('account_holder')}
        />
        <TextField label="IBAN" name="iban" required maxLength={50} error={errorOf('iban')} />
        <TextField label="SWIFT/BIC" name="swift" required maxLength={14} error={errorOf('swift')} />
        <label className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm' })}>
          <input type="checkbox" name="make_default" /> Make it the payout account
        </label>
        <TextField
          label="Your password"
          name="password"
          type="password"
          required
          maxLength={128}
          autoComplete="current-password"
          error={errorOf('password')}
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
            Save bank account
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function ConfirmDialog({ actor }: { actor: Ref }) {
  const mode = useSelector(actor, (s) =>
    s.matches('confirmingDefault') ? 'default' : s.matches('confirmingDelete') ? 'delete' : null,
  );
  const target = useSelector(actor, (s) => s.context.target);
  if (!mode || target === null) return null;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('password') ?? '');
    actor.send({ type: 'change.submitted', change: { kind: mode, id: target, password } });
  };
  return (
    <Modal
      open
      title={mode === 'default' ? 'Make it the payout account' : 'Remove bank account'}
      onClose={() => actor.send({ type: 'change.cancelled' })}
    >
      <form onSubmit={submit} className={css({ display: 'grid', gap: '3' })} noValidate>
        <TextField
          label="Your password"
          name="password"
          type="password"
          required
          maxLength={128}
          autoComplete="current-password"
        />
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button tone="secondary" onClick={() => actor.send({ type: 'change.cancelled' })}>
            Cancel
          </Button>
          <Button tone="primary" type="submit">
            Confirm
          </Button>
        </div>
      </form>
    </Modal>
  );
}
