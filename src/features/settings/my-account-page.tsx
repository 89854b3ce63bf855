import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  ACCOUNT_LOAD_ERROR,
  type Account,
  CITIES_ERROR,
  type myAccountFormMachine,
  myAccountLimits,
  settingsAccountMachine,
} from '../../../machines/settings-account.machine';
import type { components } from '../../../openapi/schema';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FormFooter } from '../../ui/form-footer';
import { TextField } from '../../ui/text-field';
import { SessionsSection } from './sessions-section';
import { formGrid, Panel, PanelFailed, PanelLoading } from './settings-parts';
import { TwoFactorSection } from './two-factor-section';

type Language = components['schemas']['LanguageCode'];
type CurrencyCode = components['schemas']['CurrencyCode'];

const LANGUAGES: ReadonlyArray<Option<Language>> = [
  { value: 'en', label: 'English' },
  { value: 'ar', label: 'العربية (Arabic)' },
  { value: 'de', label: 'Deutsch (German)' },
  { value: 'es', label: 'Español (Spanish)' },
  { value: 'fr', label: 'Français (French)' },
  { value: 'it', label: 'Italiano (Italian)' },
];

const accountType = (account: Account) =>
  account.user_type === 'team_members' ? 'Team member' : account.user_type === 'admin' ? 'Administrator' : 'Seller';

/** /settings/myAccount: the caller's details, edited on the shared form (machines/settings-account.machine.ts). */
export default function MyAccountPage() {
  const page = useViewActor(settingsAccountMachine, 'settings-account');
  const loading = useSelector(page, (s) => s?.hasTag('loading') ?? true);
  const failed = useSelector(page, (s) => s?.matches('failed') ?? false);
  const form = useSelector(
    page,
    (s) => s?.children.myAccountForm as ActorRefFrom<typeof myAccountFormMachine> | undefined,
  );
  return (
    <div className={css({ display: 'grid', gap: '4', minWidth: 0 })}>
      <Panel label="Account details">
        {failed && page ? (
          <PanelFailed message={ACCOUNT_LOAD_ERROR} onRetry={() => page.send({ type: 'retry' })} />
        ) : loading || !page || !form ? (
          <PanelLoading label="Loading your account" rows={6} />
        ) : (
          <AccountForm page={page} form={form} />
        )}
      </Panel>
      <TwoFactorSection />
      <SessionsSection />
    </div>
  );
}

function AccountForm({
  page,
  form,
}: {
  page: ActorRefFrom<typeof settingsAccountMachine>;
  form: ActorRefFrom<typeof myAccountFormMachine>;
}) {
  const account = useSelector(page, (s) => s.context.account) as Account;
  const countries = useSelector(page, (s) => s.context.countries);
  const currencies = useSelector(page, (s) => s.context.currencies);
  const cities = useSelector(page, (s) => s.context.cities);
  const citiesLoading = useSelector(page, (s) => s.hasTag('loadingCities'));
  const citiesFailed = useSelector(page, (s) => s.hasTag('citiesError'));
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));

  const dialingCodes: Option<string>[] = [...new Set(countries.map((c) => c.dialing_code).filter((d) => d !== ''))]
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)) || a.localeCompare(b))
    .map((code) => ({
      value: code,
      label: `${code} (${countries
        .filter((c) => c.dialing_code === code)
        .map((c) => c.short_name)
        .slice(0, 3)
        .join(', ')})`,
    }));
  const countryOptions: Option<number>[] = countries.map((c) => ({ value: c.id, label: c.name }));
  const cityOptions: Option<number>[] = cities.map((c) => ({ value: c.id, label: c.name }));
  const currencyOptions: Option<CurrencyCode>[] = currencies.map((c) => ({
    value: c.code as CurrencyCode,
    label: `${c.code} (${c.name})`,
  }));

  const set = (field: keyof typeof values, value: unknown) => form.send({ type: 'field.changed', field, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };

  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '4' })}>
      <dl className={formGrid}>
        <div>
          <dt className={css({ color: 'fg.muted', fontSize: 'sm' })}>Email</dt>
          <dd className={css({ fontWeight: 'medium' })}>{account.email}</dd>
        </div>
        <div>
          <dt className={css({ color: 'fg.muted', fontSize: 'sm' })}>Account type</dt>
          <dd className={css({ fontWeight: 'medium' })}>{accountType(account)}</dd>
        </div>
      </dl>
      {refusal ? (
        <div role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {refusal}
        </div>
      ) : null}
      <div className={formGrid}>
        <TextField
          label="First name"
          name="first_name"
          required
          autoComplete="given-name"
          maxLength={myAccountLimits.first_name?.maxLength}
          value={values.first_name}
          error={errors.first_name}
          onChange={(e) => set('first_name', e.target.value)}
        />
        <TextField
          label="Last name"
          name="last_name"
          required
          autoComplete="family-name"
          maxLength={myAccountLimits.last_name?.maxLength}
          value={values.last_name}
          error={errors.last_name}
          onChange={(e) => set('last_name', e.target.value)}
        />
        <Dropdown
          label="Dialing code"
          name="phone_dialing_code"
          options={dialingCodes}
          value={values.phone_dialing_code}
          error={errors.phone_dialing_code}
          onChange={(code) => set('phone_dialing_code', code)}
        />
        <TextField
          label="Phone number"
          name="phone_number"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          maxLength={myAccountLimits.phone_number?.maxLength}
          value={values.phone_number ?? ''}
          error={errors.phone_number}
          onChange={(e) => set('phone_number', e.target.value.trim() === '' ? null : e.target.value)}
        />
        <Dropdown
          label="Country"
          name="country_id"
          options={countryOptions}
          value={values.country_id}
          error={errors.country_id}
          onChange={(countryId) => page.send({ type: 'country.changed', countryId })}
        />
        <div className={css({ display: 'grid', gap: '2' })}>
          <Dropdown
            label="City"
            name="city_id"
            options={cityOptions}
            loading={citiesLoading}
            disabled={values.country_id === null || citiesFailed}
            placeholder={values.country_id === null ? 'Choose a country first' : undefined}
            value={values.city_id}
            error={errors.city_id}
            onChange={(cityId) => set('city_id', cityId)}
          />
          {citiesFailed ? (
            <div role="alert" className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
              <span className={css({ color: 'error', fontSize: 'sm' })}>{CITIES_ERROR}</span>
              <Button tone="secondary" onClick={() => page.send({ type: 'cities.retried' })}>
                Retry
              </Button>
            </div>
          ) : null}
        </div>
        <Dropdown
          label="Currency"
          name="currency"
          required
          options={currencyOptions}
          value={values.currency}
          error={errors.currency}
          onChange={(code) => set('currency', code)}
        />
        <Dropdown
          label="Language"
          name="language"
          required
          options={LANGUAGES}
          value={values.language}
          error={errors.language}
          onChange={(language) => set('language', language)}
        />
      </div>
      <FormFooter
        valid={!submitting}
        submitting={submitting}
        submitLabel="Save changes"
        cancelLabel="Undo changes"
        onCancel={() => form.send({ type: 'form.reset' })}
      />
    </form>
  );
}
