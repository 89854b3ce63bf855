import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type disableByCodeForm,
  type disableByPasswordForm,
  disableLimits,
  type enableFormMachine,
  TWO_FACTOR_LOAD_ERROR,
  twoFactorMachine,
} from '../../../machines/two-factor.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import { Panel, PanelFailed, PanelLoading } from './settings-parts';

type Flow = NonNullable<ReturnType<typeof useViewActor<typeof twoFactorMachine>>>;
type CodeForm =
  | ActorRefFrom<typeof enableFormMachine>
  | ActorRefFrom<typeof disableByPasswordForm>
  | ActorRefFrom<typeof disableByCodeForm>;

const row = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' });
const muted = css({ color: 'fg.muted', fontSize: 'sm' });
const heading = css({ fontSize: 'lg', fontWeight: 'bold' });

/**
 * My Account › Two-factor authentication (machines/two-factor.machine.ts): Turn on → the QR code (drawn by the
 * server, shown as an image) and the secret → the first code → the recovery codes once → on; Turn off with the
 * password or a code.
 */
export function TwoFactorSection() {
  const flow = useViewActor(twoFactorMachine, 'two-factor');
  const state = useSelector(flow, (s) => s);
  let body: React.ReactNode;
  if (!flow || !state || state.hasTag('loading'))
    body = <PanelLoading label="Loading two-factor authentication" rows={2} />;
  else if (state.matches('failed'))
    body = <PanelFailed message={TWO_FACTOR_LOAD_ERROR} onRetry={() => flow.send({ type: 'retry' })} />;
  else if (state.matches('off') || state.matches('startingSetup'))
    body = (
      <div className={css({ display: 'grid', gap: '3' })}>
        <p className={muted}>
          Off. With it on, logging in asks for your password and a code from an authenticator app on your phone (Google
          Authenticator, Microsoft Authenticator, 1Password and others).
        </p>
        <div>
          <Button busy={state.hasTag('busy')} onClick={() => flow.send({ type: 'setup.requested' })}>
            Turn on
          </Button>
        </div>
      </div>
    );
  else if (state.matches('confirming')) body = <Confirming flow={flow} />;
  else if (state.matches('showingCodes'))
    body = (
      <div className={css({ display: 'grid', gap: '3' })}>
        <p>
          Two-factor authentication is on. Save these recovery codes somewhere safe: each logs you in once if you lose
          your phone. They are shown only now.
        </p>
        <ul
          aria-label="Recovery codes"
          className={css({
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(12rem, 1fr))',
            gap: '1',
            fontFamily: 'mono',
            bg: 'bg.subtle',
            p: '3',
            borderRadius: 'md',
          })}
        >
          {state.context.recoveryCodes?.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div>
          <Button onClick={() => flow.send({ type: 'codes.saved' })}>I saved them</Button>
        </div>
      </div>
    );
  else if (state.matches('on'))
    body = (
      <div className={css({ display: 'grid', gap: '3' })}>
        <p>On. {state.context.status?.recovery_codes_left ?? 0} of 10 recovery codes left.</p>
        <div>
          <Button tone="secondary" onClick={() => flow.send({ type: 'disable.requested' })}>
            Turn off
          </Button>
        </div>
      </div>
    );
  else body = <Disabling flow={flow} byCode={state.matches({ disabling: 'byCode' })} />;
  return (
    <Panel label="Two-factor authentication">
      <h2 className={heading}>Two-factor authentication</h2>
      {body}
    </Panel>
  );
}

function Confirming({ flow }: { flow: Flow }) {
  const setup = useSelector(flow, (s) => s.context.setup);
  const form = useSelector(flow, (s) => s.children.enableForm) as CodeForm | undefined;
  if (!setup) return null;
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <p>Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
        alt="QR code of your two-factor secret"
        width={200}
        height={200}
        className={css({ bg: 'white', borderRadius: 'md' })}
      />
      <p className={muted}>
        Cannot scan it? Type this key into the app instead:{' '}
        <code data-testid="two-factor-secret" className={css({ fontFamily: 'mono', overflowWrap: 'anywhere' })}>
          {setup.secret}
        </code>
      </p>
      {form ? (
        <CodeFields
          form={form}
          field="code"
          label="Code from the app"
          submitLabel="Turn on"
          onCancel={() => flow.send({ type: 'setup.cancelled' })}
        />
      ) : null}
    </div>
  );
}

function Disabling({ flow, byCode }: { flow: Flow; byCode: boolean }) {
  const form = useSelector(flow, (s) => s.children.disableByPassword ?? s.children.disableByCode) as
    | CodeForm
    | undefined;
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <p>
        {byCode
          ? 'Enter a code from your app, or a recovery code, to turn it off.'
          : 'Enter your password to turn it off.'}
      </p>
      {form ? (
        <CodeFields
          key={byCode ? 'code' : 'password'}
          form={form}
          field={byCode ? 'code' : 'password'}
          label={byCode ? 'Code' : 'Password'}
          submitLabel="Turn off"
          onCancel={() => flow.send({ type: 'disable.cancelled' })}
        />
      ) : null}
      <div>
        <button
          type="button"
          className={css({ color: 'accent', textDecoration: 'underline', cursor: 'pointer', fontSize: 'sm' })}
          onClick={() => flow.send({ type: byCode ? 'disable.byPassword' : 'disable.byCode' })}
        >
          {byCode ? 'Use my password instead' : 'Use a code instead'}
        </button>
      </div>
    </div>
  );
}

function CodeFields({
  form,
  field,
  label,
  submitLabel,
  onCancel,
}: {
  form: CodeForm;
  field: 'code' | 'password';
  label: string;
  submitLabel: string;
  onCancel: () => void;
}) {
  const value = useSelector(form, (s) => (s.context.values as Record<string, string | undefined>)[field] ?? '');
  const error = useSelector(form, (s) => s.context.errors[field]);
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));
  const submitting = useSelector(form, (s) => s.hasTag('submitting') || s.status === 'done');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '3', maxWidth: '24rem' })}>
      {refusal ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {refusal}
        </p>
      ) : null}
      <TextField
        label={label}
        name={field}
        type={field === 'password' ? 'password' : 'text'}
        autoComplete={field === 'password' ? 'current-password' : 'one-time-code'}
        inputMode={field === 'code' && label !== 'Code' ? 'numeric' : undefined}
        required
        maxLength={disableLimits[field]?.maxLength}
        value={value}
        error={error}
        onChange={(e) =>
          (form.send as (event: { type: 'field.changed'; field: string; value: unknown }) => void)({
            type: 'field.changed',
            field,
            value: field === 'code' ? e.target.value.trim() : e.target.value,
          })
        }
      />
      <div className={row}>
        <Button type="submit" busy={submitting}>
          {submitLabel}
        </Button>
        <Button tone="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
