import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useId } from 'react';
import { css, cx } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  FEATURE_REQUEST_SENT,
  type FeatureCategory,
  type FeatureRequestValues,
  featureRequestLimits,
  type requestFeatureFormMachine,
  requestFeatureMachine,
} from '../../../machines/request-feature.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FieldError, FieldLabel, fieldStack } from '../../ui/field';
import { inputBox, TextField } from '../../ui/text-field';
import { Panel, PanelLoading } from './settings-parts';

const CATEGORIES: ReadonlyArray<Option<FeatureCategory>> = [
  { value: 'listings', label: 'Listings and inventory' },
  { value: 'sales', label: 'Sales and delivery' },
  { value: 'payouts', label: 'Payouts and SB Pay' },
  { value: 'reports', label: 'Reports' },
  { value: 'purchases', label: 'Buying tickets' },
  { value: 'account', label: 'Account and settings' },
  { value: 'other', label: 'Something else' },
];

/** /settings/request-feature: a feature request (title, description, category), confirmed once stored. */
export default function RequestFeaturePage() {
  const page = useViewActor(requestFeatureMachine, 'settings-request-feature');
  const sent = useSelector(page, (s) => (s?.matches('sent') ? s.context.sent : null));
  const form = useSelector(
    page,
    (s) => s?.children.requestFeatureForm as ActorRefFrom<typeof requestFeatureFormMachine> | undefined,
  );
  return (
    <Panel label="Request a feature">
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Tell us what would make SB Portal better for you. Our product team reads every request (up to 5 a day).
      </p>
      {sent ? (
        <div role="status" className={css({ display: 'grid', gap: '3', justifyItems: 'start' })}>
          <p>
            {FEATURE_REQUEST_SENT} We received “{sent.title}”.
          </p>
          <Button tone="secondary" onClick={() => page?.send({ type: 'another.requested' })}>
            Send another request
          </Button>
        </div>
      ) : form ? (
        <FeatureForm form={form} />
      ) : (
        <PanelLoading label="Loading the form" rows={3} />
      )}
    </Panel>
  );
}

function FeatureForm({ form }: { form: ActorRefFrom<typeof requestFeatureFormMachine> }) {
  const values = useSelector(form, (s) => s.context.values) as unknown as FeatureRequestValues;
  const errors = useSelector(form, (s) => s.context.errors);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));
  const descriptionId = useId();
  useEffect(() => {
    const sub = form.on('form.invalid', ({ field }) => {
      document.querySelector<HTMLElement>(`[name="${CSS.escape(field)}"]`)?.focus();
    });
    return () => sub.unsubscribe();
  }, [form]);
  const set = (field: keyof FeatureRequestValues, value: unknown) => form.send({ type: 'field.changed', field, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
  const max = featureRequestLimits.description?.maxLength ?? 2000;
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '4' })} aria-busy={submitting}>
      {refusal ? (
        <div role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {refusal}
        </div>
      ) : null}
      <TextField
        label="Title"
        name="title"
        required
        maxLength={featureRequestLimits.title?.maxLength}
        value={values.title}
        error={errors.title}
        onChange={(e) => set('title', e.target.value)}
      />
      <Dropdown
        label="Category"
        name="category"
        required
        searchable={false}
        options={CATEGORIES}
        value={values.category === '' ? null : values.category}
        error={errors.category}
        onChange={(value) => set('category', value ?? '')}
      />
      <div className={fieldStack}>
        <FieldLabel htmlFor={descriptionId} required>
          Description
        </FieldLabel>
        <textarea
          id={descriptionId}
          name="description"
          required
          rows={6}
          maxLength={max}
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`${descriptionId}-count${errors.description ? ` ${descriptionId}-error` : ''}`}
          className={cx(inputBox, css({ minHeight: '8rem', py: '2', height: 'auto', resize: 'vertical' }))}
        />
        <span id={`${descriptionId}-count`} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          {values.description.length} of {max.toLocaleString('en-GB')} characters
        </span>
        <FieldError id={`${descriptionId}-error`} error={errors.description} />
      </div>
      <div className={css({ _phone: { '& > button': { width: '100%' } } })}>
        <Button type="submit" busy={submitting}>
          Send request
        </Button>
      </div>
    </form>
  );
}
