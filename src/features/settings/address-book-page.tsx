import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  ADDRESS_LOAD_ERROR,
  type Address,
  type AddressValues,
  addressBookMachine,
  type addressFormMachine,
  addressLimits,
  type addressListMachine,
  CITIES_ERROR,
  COUNTRIES_ERROR,
} from '../../../machines/settings-address-book.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Drawer } from '../../ui/drawer';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { formGrid, Panel, PanelEmpty, PanelFailed, PanelLoading } from './settings-parts';

type Book = ActorRefFrom<typeof addressBookMachine>;

const TYPES: ReadonlyArray<Option<Address['address_type']>> = [
  { value: 'billing', label: 'Billing' },
  { value: 'shipping', label: 'Shipping' },
  { value: 'home', label: 'Home' },
  { value: 'office', label: 'Office' },
];

/** /settings/address-book: the caller's addresses (the billing addresses of its purchases), one primary. */
export default function AddressBookPage() {
  const book = useViewActor(addressBookMachine, 'settings-address-book');
  return book ? <AddressBook book={book} /> : <PanelLoading label="Loading your addresses" />;
}

function AddressBook({ book }: { book: Book }) {
  const list = useSelector(book, (s) => s.children.addressList as ActorRefFrom<typeof addressListMachine> | undefined);
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const loading = useSelector(list, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(list, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(list, (s) => s?.matches('empty') ?? false);
  const busy = useSelector(book, (s) => s.hasTag('busy'));
  const countriesFailed = useSelector(book, (s) => s.hasTag('countriesError'));
  const browsing = useSelector(book, (s) => s.matches('browsing'));
  const confirming = useSelector(book, (s) => (s.matches('confirmingDelete') ? s.context.target : null));
  const form = useSelector(book, (s) => s.children.addressForm as ActorRefFrom<typeof addressFormMachine> | undefined);

  return (
    <Panel label="Address book">
      <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
        <p className={css({ flex: '1 1 16rem', color: 'fg.muted', fontSize: 'sm' })}>
          Billing addresses for your purchases. The primary address is chosen first at checkout.
        </p>
        <Button disabled={!browsing} onClick={() => book.send({ type: 'address.adding' })}>
          Add address
        </Button>
      </div>
      {countriesFailed ? (
        <PanelFailed message={COUNTRIES_ERROR} onRetry={() => book.send({ type: 'countries.retried' })} />
      ) : null}
      {failed ? (
        <PanelFailed message={ADDRESS_LOAD_ERROR} onRetry={() => list?.send({ type: 'list.retried' })} />
      ) : loading ? (
        <PanelLoading label="Loading your addresses" rows={3} />
      ) : empty ? (
        <PanelEmpty>No addresses yet. Add one to check out faster.</PanelEmpty>
      ) : (
        <ul aria-label="Addresses" className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '3' })}>
          {items.map((a) => (
            <li
              key={a.id}
              className={css({
                border: '1px solid {colors.border}',
                borderRadius: 'md',
                p: '4',
                display: 'grid',
                gap: '2',
                minWidth: 0,
              })}
            >
              <div className={css({ display: 'flex', gap: '2', alignItems: 'baseline', flexWrap: 'wrap' })}>
                <strong className={css({ overflowWrap: 'anywhere' })}>
                  {a.first_name} {a.last_name}
                </strong>
                <span className={css({ fontSize: 'xs', color: 'fg.muted', textTransform: 'capitalize' })}>
                  {a.address_type}
                </span>
                {a.primary_address === 1 ? (
                  <span className={css({ fontSize: 'xs', fontWeight: 'semibold', color: 'success' })}>Primary</span>
                ) : null}
              </div>
              <p className={css({ overflowWrap: 'anywhere', fontSize: 'sm' })}>
                {a.address}, {a.zip_code}
                {a.city_name ? `, ${a.city_name}` : ''}, {a.country_name}
              </p>
              <p className={css({ overflowWrap: 'anywhere', fontSize: 'sm', color: 'fg.muted' })}>
                {a.email}
                {a.mobile_number ? ` · ${a.country_code ?? ''} ${a.mobile_number}` : ''}
              </p>
              <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                <Button
                  tone="secondary"
                  disabled={!browsing || busy}
                  aria-label={`Edit the address of ${a.first_name} ${a.last_name}, ${a.address}`}
                  onClick={() => book.send({ type: 'address.editing', address: a })}
                >
                  Edit
                </Button>
                {a.primary_address === 1 ? null : (
                  <Button
                    tone="secondary"
                    disabled={!browsing || busy}
                    aria-label={`Make ${a.address} the primary address`}
                    onClick={() => book.send({ type: 'primary.requested', address: a })}
                  >
                    Make primary
                  </Button>
                )}
                <Button
                  tone="ghost"
                  disabled={!browsing || busy}
                  aria-label={`Delete the address ${a.address}`}
                  onClick={() => book.send({ type: 'delete.requested', address: a })}
                >
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={confirming !== null}
        title="Delete this address?"
        onClose={() => book.send({ type: 'delete.cancelled' })}
        footer={
          <FormFooter
            valid
            submitLabel="Delete"
            onSubmit={() => book.send({ type: 'delete.confirmed' })}
            onCancel={() => book.send({ type: 'delete.cancelled' })}
          />
        }
      >
        <p className={css({ overflowWrap: 'anywhere' })}>
          {confirming ? `${confirming.address}, ${confirming.zip_code}, ${confirming.country_name}` : ''}
        </p>
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>Bookings keep the address they were made with.</p>
      </Modal>
      <Drawer
        open={form !== undefined}
        title={useSelector(book, (s) => (s.context.draft.id === null ? 'Add address' : 'Edit address'))}
        onClose={() => book.send({ type: 'form.closed' })}
      >
        {form ? <AddressForm book={book} form={form} /> : null}
      </Drawer>
    </Panel>
  );
}

function AddressForm({ book, form }: { book: Book; form: ActorRefFrom<typeof addressFormMachine> }) {
  const countries = useSelector(book, (s) => s.context.countries);
  const cities = useSelector(book, (s) => s.context.cities);
  const citiesLoading = useSelector(book, (s) => s.hasTag('loadingCities'));
  const citiesFailed = useSelector(book, (s) => s.hasTag('citiesError'));
  const values = useSelector(form, (s) => s.context.values) as unknown as AddressValues;
  const errors = useSelector(form, (s) => s.context.errors);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));
  const set = (field: keyof AddressValues, value: unknown) =>
    form.send({ type: 'field.changed', field: field as 'first_name', value });
  const text = (field: keyof AddressValues, label: string, props: { required?: boolean; type?: string } = {}) => (
    <TextField
      label={label}
      name={field}
      required={props.required}
      type={props.type}
      maxLength={addressLimits[field]?.maxLength}
      value={String(values[field] ?? '')}
      error={errors[field]}
      onChange={(e) => set(field, e.target.value)}
    />
  );
  const dialingCodes: Option<string>[] = [...new Set(countries.map((c) => c.dialing_code).filter((d) => d !== ''))]
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
    .map((code) => ({ value: code, label: code }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '4' })}>
      {refusal ? (
        <div role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {refusal}
        </div>
      ) : null}
      <div className={formGrid}>
        {text('first_name', 'First name', { required: true })}
        {text('last_name', 'Last name', { required: true })}
        {text('email', 'Email', { required: true, type: 'email' })}
        <Dropdown
          label="Dialing code"
          name="country_code"
          options={dialingCodes}
          value={values.country_code || null}
          error={errors.country_code}
          onChange={(code) => set('country_code', code ?? '')}
        />
        {text('mobile_number', 'Mobile number', { type: 'tel' })}
        {text('address', 'Address', { required: true })}
        {text('zip_code', 'Postal code', { required: true })}
        <Dropdown
          label="Country"
          name="country_id"
          required
          options={countries.map((c) => ({ value: c.id, label: c.name }))}
          value={values.country_id}
          error={errors.country_id}
          onChange={(countryId) => book.send({ type: 'country.changed', countryId })}
        />
        <div className={css({ display: 'grid', gap: '2' })}>
          <Dropdown
            label="City"
            name="city_id"
            options={cities.map((c) => ({ value: c.id, label: c.name }))}
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
              <Button tone="secondary" onClick={() => book.send({ type: 'cities.retried' })}>
                Retry
              </Button>
            </div>
          ) : null}
        </div>
        <Dropdown
          label="Type"
          name="address_type"
          options={TYPES}
          value={values.address_type}
          onChange={(type) => set('address_type', type ?? 'billing')}
        />
      </div>
      <label className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm' })}>
        <input
          type="checkbox"
          name="primary_address"
          checked={values.primary_address === 1}
          onChange={(e) => set('primary_address', e.target.checked ? 1 : 0)}
        />
        Primary address (chosen first at checkout)
      </label>
      <FormFooter
        valid={!submitting}
        submitting={submitting}
        submitLabel="Save address"
        onCancel={() => book.send({ type: 'form.closed' })}
      />
    </form>
  );
}
