import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useId } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  PARTNER_LOAD_ERROR,
  type PartnerSettingsValues,
  type partnerSettingsFormMachine,
  partnerSettingsLimits,
  partnerSettingsMachine,
} from '../../../machines/partner-settings.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import { Panel, PanelFailed, PanelLoading } from './settings-parts';

const muted = css({ fontSize: 'sm', color: 'fg.muted' });

/** /settings/partner-settings: API access, the webhook address and the partner email, on the shared form. */
export default function PartnerSettingsPage() {
  const page = useViewActor(partnerSettingsMachine, 'settings-partner');
  const loading = useSelector(page, (s) => s?.hasTag('loading') ?? true);
  const failed = useSelector(page, (s) => s?.matches('failed') ?? false);
  const updatedAt = useSelector(page, (s) => s?.context.settings?.updated_at ?? null);
  const form = useSelector(
    page,
    (s) => s?.children.partnerSettingsForm as ActorRefFrom<typeof partnerSettingsFormMachine> | undefined,
  );
  return (
    <Panel label="Partner settings">
      <p className={muted}>
        For partners who connect their own systems to SB Portal. API tokens for the seller API are made under Settings,
        API Tokens. We record what you ask for here: webhooks are not sent yet, and our partner team writes to the email
        below first.
      </p>
      {failed && page ? (
        <PanelFailed message={PARTNER_LOAD_ERROR} onRetry={() => page.send({ type: 'retry' })} />
      ) : loading || !form ? (
        <PanelLoading label="Loading your partner settings" rows={3} />
      ) : (
        <PartnerForm form={form} updatedAt={updatedAt} />
      )}
    </Panel>
  );
}

function PartnerForm({
  form,
  updatedAt,
}: {
  form: ActorRefFrom<typeof partnerSettingsFormMachine>;
  updatedAt: string | null;
}) {
  const values = useSelector(form, (s) => s.context.values) as PartnerSettingsValues;
  const errors = useSelector(form, (s) => s.context.errors);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));
  const apiId = useId();
  useEffect(() => {
    const sub = form.on('form.invalid', ({ field }) => {
      document.querySelector<HTMLInputElement>(`input[name="${CSS.escape(field)}"]`)?.focus();
    });
    return () => sub.unsubscribe();
  }, [form]);
  const set = (field: keyof PartnerSettingsValues, value: unknown) =>
    form.send({ type: 'field.changed', field, value });
  // an emptied text field means none (null), as the contract says
  const text = (field: 'webhook_url' | 'notification_email') => (e: { target: { value: string } }) =>
    set(field, e.target.value === '' ? null : e.target.value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '4' })} aria-busy={submitting}>
      {refusal ? (
        <div role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {refusal}
        </div>
      ) : null}
      <label
        htmlFor={apiId}
        className={css({ display: 'flex', gap: '2', alignItems: 'flex-start', cursor: 'pointer' })}
      >
        <input
          id={apiId}
          type="checkbox"
          name="api_access"
          checked={values.api_access}
          onChange={(e) => set('api_access', e.target.checked)}
          className={css({ width: '20px', height: '20px', mt: '0.5', flexShrink: 0 })}
        />
        <span>
          API access
          <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted' })}>
            Ask for keys to read your listings and sales from your own systems.
          </span>
        </span>
      </label>
      <TextField
        label="Webhook URL"
        name="webhook_url"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.com/hooks/sb"
        maxLength={partnerSettingsLimits.webhook_url?.maxLength}
        value={values.webhook_url ?? ''}
        error={errors.webhook_url}
        onChange={text('webhook_url')}
      />
      <TextField
        label="Partner notification email"
        name="notification_email"
        type="email"
        inputMode="email"
        autoComplete="email"
        maxLength={partnerSettingsLimits.notification_email?.maxLength}
        value={values.notification_email ?? ''}
        error={errors.notification_email}
        onChange={text('notification_email')}
      />
      <div
        className={css({
          display: 'flex',
          gap: '3',
          alignItems: 'center',
          flexWrap: 'wrap',
          _phone: { '& > button': { width: '100%' } },
        })}
      >
        <Button type="submit" busy={submitting}>
          Save partner settings
        </Button>
        {updatedAt ? <span className={muted}>Last saved {formatDate(updatedAt)}</span> : null}
      </div>
    </form>
  );
}
