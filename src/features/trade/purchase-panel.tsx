import { useSelector } from '@xstate/react';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import { useLocation } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { cardPaymentMachine } from '../../../machines/card-payment.machine';
import {
  BILLING_LIMITS,
  type BillingField,
  type GuestField,
  holdSecondsLeft,
  latestBirthDate,
  type PaymentMethodCode,
  type PriceBreakdown,
  purchaseMachine,
} from '../../../machines/purchase.machine';
import { selectAllowedPermissions } from '../../../machines/session.machine';
import type { CurrencyCode, PurchaseListing } from '../../../machines/trade-search.machine';
import { drawers } from '../../app/drawers';
import { Session } from '../../app/session';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMinorUnits } from '../../lib/money';
import { blockText } from '../../lib/seats';
import { href } from '../../routes';
import { Button } from '../../ui/button';
import { DatePicker } from '../../ui/date-picker';
import { Drawer } from '../../ui/drawer';
import { Dropdown } from '../../ui/dropdown';
import { ListingTerms } from '../../ui/listing-terms';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { TicketTypeIcon } from '../../ui/ticket-type-icon';
import { BankChallenge } from './bank-challenge';
import { muted, sectionTitle } from './trade-styles';

/** The card step and Stripe's packages: their own chunk, loaded only when a card payment starts. */
const CardStep = lazy(() => import('./card-step'));
const TopUpDrawer = drawers.topUp;

type PurchaseRef = ActorRefFrom<typeof purchaseMachine>;
type CardRef = ActorRefFrom<typeof cardPaymentMachine>;

export const PANEL_TITLE = 'Confirm Purchase';
/** No payment-method surcharge (docs/decisions/no-payment-surcharge.md): said where the method is chosen. */
export const SAME_PRICE_TEXT = 'Same price by SB Pay or card: no card surcharge';
const METHOD_LABELS: Record<PaymentMethodCode, string> = { 1: 'SB Pay', 2: 'Card', 3: 'Stored card' };
const GUEST_LABELS: Record<GuestField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  contact_email: 'Email',
  contact_phone: 'Phone',
  date_of_birth: 'Date of birth',
  passport_number: 'Passport number',
  gender: 'Gender',
  country_of_residence: 'Country of residence',
  street_name: 'Street',
  additional_street_name: 'Street (line 2)',
  province: 'Province',
  city: 'City',
  zip: 'Postal code',
};

/** Minor units shown with two decimals, '0.00' for zero (spec section 3). */
const amount = (minor: number) => formatMinorUnits(minor);

let opened = 0;

/** The 'Confirm Purchase' panel for a listing (a right-side drawer); closed when `listing` is null. */
export function PurchasePanel({
  listing,
  currency,
  onClose,
}: {
  listing: PurchaseListing | null;
  currency: CurrencyCode;
  onClose: () => void;
}) {
  return (
    <Drawer open={listing !== null} onClose={onClose} title={PANEL_TITLE}>
      {listing ? <PurchaseBody listing={listing} currency={currency} onClose={onClose} /> : null}
    </Drawer>
  );
}

function PurchaseBody({
  listing,
  currency,
  onClose,
}: {
  listing: PurchaseListing;
  currency: CurrencyCode;
  onClose: () => void;
}) {
  const [key] = useState(() => `purchase-${++opened}`);
  const purchase = useViewActor(purchaseMachine, key, {
    sellTicketId: listing.sNo,
    matchId: listing.matchId,
    currency,
    // the quantity its all-in price was shown for: the panel's total to pay is that price
    quantity: listing.all_in_quantity,
  });
  const output = useSelector(purchase, (s) => (s?.status === 'done' ? s.output : null));
  const [, navigate] = useLocation();
  useEffect(() => {
    if (output?.status === 'confirmed') navigate(href.purchaseSuccess(output.bookingNo));
    else if (output?.status === 'cancelled') onClose();
  }, [output, navigate, onClose]);
  if (!purchase) return null;
  return <PurchaseSections purchase={purchase} />;
}

function PurchaseSections({ purchase }: { purchase: PurchaseRef }) {
  const loading = useSelector(purchase, (s) => s.matches('loading'));
  const loadFailed = useSelector(purchase, (s) => s.matches('loadFailed'));
  if (loading)
    return (
      <Loading label="Loading the purchase">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height="64px" />
        ))}
      </Loading>
    );
  if (loadFailed)
    return (
      <p role="alert">
        Failed to load address and payment details{' '}
        <Button onClick={() => purchase.send({ type: 'panel.retried' })}>Retry</Button>
      </p>
    );
  return (
    <div className={css({ display: 'grid', gap: '6' })}>
      <CheckoutSteps purchase={purchase} />
      <Hold purchase={purchase} />
      <ReviewPurchase purchase={purchase} />
      <BillingAddress purchase={purchase} />
      <GuestDetails purchase={purchase} />
      <Payment purchase={purchase} />
    </div>
  );
}

const stepList = css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center', fontSize: 'sm' });
const step = css({ color: 'fg.muted', '&[aria-current=step]': { color: 'fg', fontWeight: 'semibold' } });

/** The checkout as one path: review (quantity, address, method), then pay (guests first when asked). */
function CheckoutSteps({ purchase }: { purchase: PurchaseRef }) {
  const paying = useSelector(purchase, (s) => !s.matches('editing') && !s.matches('submitting'));
  return (
    <nav aria-label="Review and pay">
      <ol className={stepList}>
        <li className={step} aria-current={paying ? undefined : 'step'}>
          1. Review
        </li>
        <li aria-hidden="true">→</li>
        <li className={step} aria-current={paying ? 'step' : undefined}>
          2. Pay
        </li>
      </ol>
    </nav>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section aria-labelledby={id} className={css({ display: 'grid', gap: '3' })}>
      <h3 id={id} className={sectionTitle}>
        {title}
      </h3>
      {children}
    </section>
  );
}

/** The hold's time left, counting down; said plainly when it has run out. */
function Hold({ purchase }: { purchase: PurchaseRef }) {
  const deadline = useSelector(purchase, (s) => s.context.holdDeadline);
  const expired = useSelector(purchase, (s) => s.matches('expired'));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null || expired) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [deadline, expired]);
  if (expired)
    return (
      <div role="alert" className={css({ color: 'error', display: 'grid', gap: '2' })}>
        <strong>Your hold on these tickets has run out: they have been released.</strong>
        <Button onClick={() => purchase.send({ type: 'purchase.restarted' })}>Start again</Button>
      </div>
    );
  const left = holdSecondsLeft({ holdDeadline: deadline }, now);
  if (left === null) return null;
  const mm = String(Math.floor(left / 60)).padStart(2, '0');
  const ss = String(left % 60).padStart(2, '0');
  return (
    <p role="timer" aria-live="off" className={css({ fontWeight: 'semibold' })}>
      Tickets held for {mm}:{ss}
    </p>
  );
}

function BreakdownRows({ b }: { b: PriceBreakdown }) {
  const rows: Array<[string, string]> = [
    ['Ticket price', amount(b.ticket_price)],
    ['Quantity', String(b.ticket_quantity)],
    ['Sub total', amount(b.sub_total)],
    ['Service fee', amount(b.service_fee)],
    ['Shipping fee', amount(b.shipping_fee)],
    ['Tax', amount(b.tax)],
    ['Grand total', amount(b.grand_total)],
    ['Payment fee', amount(b.payment_fee)],
  ];
  return (
    <dl
      aria-label="Price breakdown"
      className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', gap: '1', fontSize: 'sm' })}
    >
      {rows.map(([label, value]) => (
        <div key={label} className={css({ display: 'contents' })}>
          <dt>{label}</dt>
          <dd className={css({ textAlign: 'right' })}>{label === 'Quantity' ? value : `${b.currency} ${value}`}</dd>
        </div>
      ))}
      <div className={css({ display: 'contents', fontWeight: 'bold' })}>
        <dt>Total to pay</dt>
        <dd className={css({ textAlign: 'right' })}>
          {b.currency} {amount(b.total_with_payment_fee)}
        </dd>
      </div>
    </dl>
  );
}

function ReviewPurchase({ purchase }: { purchase: PurchaseRef }) {
  const listing = useSelector(purchase, (s) => s.context.listing);
  const breakdown = useSelector(purchase, (s) => s.context.breakdown);
  const quantity = useSelector(purchase, (s) => s.context.quantity);
  const editing = useSelector(purchase, (s) => s.matches('editing'));
  const pricing = useSelector(purchase, (s) => s.hasTag('pricing'));
  if (!listing) return null;
  return (
    <Section title="Review Purchase">
      <div className={css({ display: 'grid', gap: '1' })}>
        <strong className={css({ overflowWrap: 'anywhere' })}>{listing.match_name}</strong>
        <span className={muted}>
          {formatDate(listing.match_date)} {listing.match_time} · {listing.stadium_name}, {listing.city_name},{' '}
          {listing.country_name}
        </span>
        <span className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
          <TicketTypeIcon typeId={listing.ticket_type_id} name={listing.Ticket_type} />
          <span className={muted}>
            {listing.Category} · {blockText(listing.ticket_block, true)} · Row {listing.row} · {listing.Ticket_type}
          </span>
        </span>
        {listing.in_hand_date ? (
          <span className={muted}>
            Tickets in hand from {formatDate(listing.in_hand_date)}: the seller sends them from that day.
          </span>
        ) : null}
        <ListingTerms terms={listing} />
      </div>
      <Dropdown
        label="Quantity"
        searchable={false}
        disabled={!editing}
        // each quantity with what it costs all in, fees included (the server's prices)
        options={listing.split_list.map((n, i) => {
          const total = listing.all_in_prices[i];
          return {
            label: total === undefined ? String(n) : `${n} · ${listing.currency} ${amount(total)} all in`,
            value: n,
          };
        })}
        value={quantity}
        onChange={(value) => value !== null && purchase.send({ type: 'quantity.changed', quantity: value })}
      />
      {breakdown ? (
        <div aria-busy={pricing || undefined}>
          <BreakdownRows b={breakdown} />
        </div>
      ) : null}
    </Section>
  );
}

const BILLING_FIELDS: Array<[BillingField, string, boolean]> = [
  ['first_name', 'First name', true],
  ['last_name', 'Last name', true],
  ['email', 'Email', true],
  ['dialing_code', 'Dialing code', false],
  ['mobile_no', 'Mobile number', false],
  ['address', 'Address', true],
  ['postal_code', 'Postal code', true],
];

function BillingAddress({ purchase }: { purchase: PurchaseRef }) {
  const addresses = useSelector(purchase, (s) => s.context.addresses);
  const choice = useSelector(purchase, (s) => s.context.addressChoice);
  const editing = useSelector(purchase, (s) => s.matches('editing'));
  const other = useSelector(purchase, (s) => s.matches({ editing: { billing: 'other' } }));
  return (
    <Section title="Billing Address">
      <fieldset disabled={!editing} className={css({ display: 'grid', gap: '2', border: 'none', p: 0, m: 0 })}>
        <legend className={muted}>Choose the billing address</legend>
        {addresses.length === 0 ? <p className={muted}>You have no saved address: add one below.</p> : null}
        {addresses.map((a) => (
          <label key={a.address_id} className={css({ display: 'flex', gap: '2', alignItems: 'start' })}>
            <input
              type="radio"
              name="billing-address"
              checked={choice === a.address_id}
              onChange={() => purchase.send({ type: 'address.chosen', address: a.address_id })}
            />
            <span className={css({ overflowWrap: 'anywhere' })}>
              {a.first_name} {a.last_name}, {a.address}, {a.city_name ? `${a.city_name}, ` : ''}
              {a.zip_code}, {a.country_name}
              {a.primary_address === 1 ? ' (primary)' : ''}
            </span>
          </label>
        ))}
        <label className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
          <input
            type="radio"
            name="billing-address"
            checked={choice === 'other'}
            onChange={() => purchase.send({ type: 'address.chosen', address: 'other' })}
          />
          Other
        </label>
      </fieldset>
      {other && editing ? <BillingForm purchase={purchase} /> : null}
    </Section>
  );
}

function BillingForm({ purchase }: { purchase: PurchaseRef }) {
  const values = useSelector(purchase, (s) => s.context.billing);
  const errors = useSelector(purchase, (s) => s.context.billingErrors);
  const countries = useSelector(purchase, (s) => s.context.countries);
  const cities = useSelector(purchase, (s) => s.context.cities);
  const loadingCountries = useSelector(purchase, (s) =>
    s.matches({ editing: { billing: { other: 'loadingCountries' } } }),
  );
  const loadingCities = useSelector(purchase, (s) => s.matches({ editing: { billing: { other: 'loadingCities' } } }));
  const change = (field: BillingField, value: string | number | null) =>
    purchase.send({ type: 'billing.changed', field, value });
  return (
    <fieldset
      aria-label="New billing address"
      className={css({
        border: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: '3',
        gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 14rem), 1fr))',
      })}
    >
      {BILLING_FIELDS.map(([field, label, isRequired]) => (
        <TextField
          key={field}
          label={label}
          required={isRequired}
          value={String(values[field] ?? '')}
          maxLength={BILLING_LIMITS[field]?.maxLength}
          error={errors[field]}
          onChange={(e) => change(field, e.currentTarget.value)}
        />
      ))}
      <Dropdown
        label="Country"
        required
        loading={loadingCountries}
        options={countries.map((c) => ({ label: c.name, value: c.id }))}
        value={values.country}
        error={errors.country}
        onChange={(value) => change('country', value)}
      />
      <Dropdown
        label="City"
        loading={loadingCities}
        disabled={values.country === null}
        options={cities.map((c) => ({ label: c.name, value: c.id }))}
        value={values.city}
        onChange={(value) => change('city', value)}
      />
    </fieldset>
  );
}

function GuestDetails({ purchase }: { purchase: PurchaseRef }) {
  const list = useSelector(purchase, (s) => s.context.booking?.guest_data.list ?? []);
  const guests = useSelector(purchase, (s) => s.context.guests);
  const errors = useSelector(purchase, (s) => s.context.guestErrors);
  const open = useSelector(purchase, (s) => s.matches('guests'));
  const sending = useSelector(purchase, (s) => s.matches('sendingGuests'));
  const needed = list.filter((g) => g.required_fields.length > 0);
  if (needed.length === 0 || !(open || sending)) return null;
  const latest = latestBirthDate(new Date());
  return (
    <Section title="Guest Details">
      <Button onClick={() => purchase.send({ type: 'guests.copied' })} disabled={!open}>
        Copy my details to all guests
      </Button>
      {needed.map((g) => (
        <fieldset key={g.index} className={css({ display: 'grid', gap: '2', border: 'none', p: 0, m: 0 })}>
          <legend className={css({ fontWeight: 'semibold' })}>Guest {g.index}</legend>
          {g.required_fields.map((field) => {
            const label = `${GUEST_LABELS[field]} (guest ${g.index})`;
            const value = guests[g.index]?.[field] ?? '';
            const error = errors[`${g.index}.${field}`];
            const send = (v: string) => purchase.send({ type: 'guest.changed', index: g.index, field, value: v });
            if (field === 'gender')
              return (
                <Dropdown
                  key={field}
                  label={label}
                  required
                  searchable={false}
                  options={[
                    { label: 'Male', value: 'male' },
                    { label: 'Female', value: 'female' },
                    { label: 'Other', value: 'other' },
                  ]}
                  value={value || null}
                  error={error}
                  onChange={(v) => send(v ?? '')}
                />
              );
            if (field === 'date_of_birth')
              return (
                <DatePicker
                  key={`${field}-${value}`}
                  label={label}
                  required
                  min="1900-01-01"
                  max={latest}
                  defaultValue={value || null}
                  error={error}
                  onChange={send}
                />
              );
            return (
              <TextField
                key={field}
                label={label}
                required
                value={value}
                maxLength={200}
                error={error}
                onChange={(e) => send(e.currentTarget.value)}
              />
            );
          })}
        </fieldset>
      ))}
      <Button tone="primary" busy={sending} onClick={() => purchase.send({ type: 'guests.submitted' })}>
        Submit guest details
      </Button>
    </Section>
  );
}

function Payment({ purchase }: { purchase: PurchaseRef }) {
  const methods = useSelector(purchase, (s) => s.context.paymentMethods);
  const method = useSelector(purchase, (s) => s.context.method);
  const storedCard = useSelector(purchase, (s) => s.context.storedCard);
  const editing = useSelector(purchase, (s) => s.matches('editing'));
  const payable = useSelector(purchase, (s) => s.matches('payable'));
  const submitting = useSelector(purchase, (s) => s.hasTag('submitting') || s.hasTag('paying'));
  const canSubmit = useSelector(purchase, (s) => s.can({ type: 'purchase.submitted' }) && !s.hasTag('pricing'));
  const canPay = useSelector(purchase, (s) => s.can({ type: 'payment.started' }));
  const failure = useSelector(purchase, (s) => (s.matches('payable') ? s.context.failure : null));
  const card = useSelector(purchase, (s) =>
    s.matches({ paying: 'card' }) ? (s.children.cardPayment as CardRef) : null,
  );
  const action = useSelector(purchase, (s) => s.context.action);
  const answering = useSelector(purchase, (s) => s.matches({ paying: 'answeringChallenge' }));
  const total = useSelector(purchase, (s) => s.context.breakdown);
  const canTopUp = Session.useSelector((s) => selectAllowedPermissions(s).includes('lmt-pay'));
  const [topUp, setTopUp] = useState(false);
  if (!methods) return null;
  const choosing = editing || payable;
  return (
    <Section title="Payment">
      <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
        <span>
          SB Pay balance:{' '}
          <strong>
            {methods.wallet.currencyIcons}
            {amount(methods.wallet.amount)}
          </strong>
        </span>
        {canTopUp ? <Button onClick={() => setTopUp(true)}>Deposit</Button> : null}
      </div>
      <fieldset disabled={!choosing} className={css({ display: 'grid', gap: '2', border: 'none', p: 0, m: 0 })}>
        <legend className={muted}>Payment method</legend>
        {methods.methods.map((m) => (
          <label key={m.payment_method} className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
            <input
              type="radio"
              name="payment-method"
              checked={method === m.payment_method}
              disabled={m.available !== 1}
              onChange={() => purchase.send({ type: 'method.changed', method: m.payment_method })}
            />
            {METHOD_LABELS[m.payment_method]}
          </label>
        ))}
        <p className={muted}>{SAME_PRICE_TEXT}</p>
      </fieldset>
      {method === 3 && methods.linked_cards.data.length > 0 ? (
        <Dropdown
          label="Stored card"
          searchable={false}
          disabled={!choosing}
          options={methods.linked_cards.data.map((c) => ({
            label: `${c.brand} ${c.number}`,
            value: c.recurringDetailReference,
          }))}
          value={storedCard}
          onChange={(value) => value && purchase.send({ type: 'storedCard.chosen', reference: value })}
        />
      ) : null}
      {failure ? (
        <p role="alert" className={css({ color: 'error' })}>
          {failure}
        </p>
      ) : null}
      {action ? (
        <BankChallenge
          gateway={action.gateway}
          amount={total?.total_with_payment_fee ?? 0}
          currency={total?.currency ?? ''}
          busy={answering}
          onConfirm={() =>
            purchase.send({ type: 'challenge.completed', details: { threeDSResult: action.token ?? '' } })
          }
          onCancel={() => purchase.send({ type: 'challenge.cancelled' })}
        />
      ) : null}
      {card ? (
        <Suspense fallback={<Skeleton height="160px" />}>
          <CardStep card={card} />
        </Suspense>
      ) : null}
      {editing ? (
        <Button
          tone="primary"
          busy={submitting}
          disabled={!canSubmit}
          onClick={() => purchase.send({ type: 'purchase.submitted' })}
        >
          Confirm Purchase
        </Button>
      ) : null}
      {payable ? (
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <Button tone="primary" disabled={!canPay} onClick={() => purchase.send({ type: 'payment.started' })}>
            Pay now
          </Button>
          <Button onClick={() => purchase.send({ type: 'booking.cancelled' })}>Cancel booking</Button>
        </div>
      ) : null}
      {submitting && !card && !action ? <p aria-live="polite">Processing…</p> : null}
      {topUp ? (
        <Suspense fallback={null}>
          <TopUpDrawer open={topUp} onClose={() => setTopUp(false)} currency={methods.wallet.currency} />
        </Suspense>
      ) : null}
    </Section>
  );
}
