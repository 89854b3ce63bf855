import { useSelector } from '@xstate/react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { css } from 'styled-system/css';
import * as v from 'valibot';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import {
  addListingMachine,
  type CatalogueMatch,
  emptyMatchSearch,
  type eventRequestFormMachine,
  type ListingValues,
  type listingFormMachine,
  type MarketInsights,
  type MatchSearchFilters,
  type matchSearchMachine,
} from '../../../machines/add-listing.machine';
import { listingSchema, PRICE_BOUNDS } from '../../../machines/listings-api';
import { currencyCodeValues, listingRestrictionValues } from '../../../openapi/schema';
import { Session } from '../../app/session';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { DatePicker } from '../../ui/date-picker';
import { Dropdown } from '../../ui/dropdown';
import { FieldError, FieldLabel, fieldStack } from '../../ui/field';
import { FileField } from '../../ui/file-field';
import { FormFooter } from '../../ui/form-footer';
import { CurrencyInput, NumericInput } from '../../ui/numeric-input';
import { PriceCapChecks } from '../../ui/price-cap-checks';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { TICKET_TYPES, TicketTypeIcon } from '../../ui/ticket-type-icon';
import { InHandDateField } from './in-hand-date-field';
import { matchWhen, money, SPLIT_OPTIONS } from './listing-format';
import { card, choice, fieldGrid, muted, sectionTitle, stack } from './listing-styles';
import { TemplatePicker, type TemplatesStatus } from './template-picker';

type AddRef = ActorRefFrom<typeof addListingMachine>;
type SearchRef = ActorRefFrom<typeof matchSearchMachine>;
type FormRef = ActorRefFrom<typeof listingFormMachine>;
type RequestRef = ActorRefFrom<typeof eventRequestFormMachine>;

const TICKET_FILE_RULES = { types: ['pdf', 'jpg', 'jpeg', 'png'], maxMb: 5 };
const RESTRICTION_LABELS: Record<(typeof listingRestrictionValues)[number], string> = {
  restricted_view: 'Restricted view',
  age_restriction: 'Age restriction',
  home_fans_only: 'Home fans only',
  away_fans_only: 'Away fans only',
  members_only: 'Members only',
  id_required: 'ID required',
  wheelchair_access: 'Wheelchair access',
  alcohol_free: 'Alcohol-free area',
};
const REQUEST_STATUS: Record<string, string> = { pending: 'Pending review', approved: 'Added', rejected: 'Rejected' };

/** add-listings, Add Inventory: find the match, fill the listing with the market beside the price, or ask for the event. */
export default function AddListingsPage() {
  const currency = Session.useSelector((s) => s.context.account?.currency) as ListingValues['currency'] | undefined;
  const add = useViewActor(addListingMachine, 'add-listing', { currency: currency ?? 'GBP' });
  if (!add) return null;
  return (
    <div className={stack}>
      <Flow add={add} />
      <RequestEvent add={add} />
    </div>
  );
}

function Flow({ add }: { add: AddRef }) {
  const flow = useSelector(add, (s) => (s.value as { flow: string }).flow);
  const match = useSelector(add, (s) => s.context.match);
  const search = useSelector(add, (s) => s.children.matchSearch) as SearchRef | undefined;
  const form = useSelector(add, (s) => s.children.listingForm) as FormRef | undefined;
  if (flow === 'choosingMatch') return search ? <MatchSearch add={add} search={search} /> : null;
  return (
    <>
      {match ? <ChosenMatch add={add} match={match} /> : null}
      {flow === 'loadingBlocks' ? (
        <Loading label="Loading the stadium's categories">
          <Skeleton height="120px" />
        </Loading>
      ) : flow === 'blocksFailed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to load the stadium blocks</span>
          <Button tone="secondary" onClick={() => add.send({ type: 'blocks.retried' })}>
            Retry
          </Button>
        </div>
      ) : flow === 'editing' && form ? (
        <ListingForm add={add} form={form} />
      ) : flow === 'created' ? (
        <Created add={add} />
      ) : null}
    </>
  );
}

function MatchSearch({ add, search }: { add: AddRef; search: SearchRef }) {
  const [draft, setDraft] = useState<MatchSearchFilters>(emptyMatchSearch());
  const items = useSelector(search, (s) => s.context.items);
  const page = useSelector(search, (s) => s.context.page);
  const lastPage = useSelector(search, (s) => s.context.lastPage);
  const state = useSelector(search, (s) =>
    s.hasTag('loadingFirst') ? 'loading' : s.matches('failed') ? 'failed' : s.matches('empty') ? 'empty' : 'shown',
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    search.send({ type: 'filters.changed', filters: draft });
  };
  return (
    <section aria-labelledby="find-match" className={card}>
      <h2 id="find-match" className={sectionTitle}>
        Find the match
      </h2>
      <form aria-label="Find the match" onSubmit={submit} className={fieldGrid}>
        <TextField
          label="Match"
          type="search"
          placeholder="Name, team or competition"
          maxLength={100}
          value={draft.q}
          onChange={(e) => {
            const q = e.currentTarget.value;
            setDraft((d) => ({ ...d, q }));
          }}
        />
        <DatePicker
          mode="range"
          label="Match dates"
          onChange={({ start, end }) => setDraft((d) => ({ ...d, date_from: start, date_to: end }))}
        />
        <div className={css({ display: 'flex', alignItems: 'flex-end' })}>
          <Button type="submit">Search</Button>
        </div>
      </form>
      {state === 'loading' ? (
        <Loading label="Searching the matches">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="48px" />
          ))}
        </Loading>
      ) : state === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => search.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : state === 'empty' ? (
        <p className={muted}>No upcoming match found. Not in the catalogue yet? Use Request an event below.</p>
      ) : (
        <>
          <ul aria-label="Matches" className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0, m: 0 })}>
            {items.map((m) => (
              <li
                key={m.match_id}
                className={css({
                  display: 'flex',
                  gap: '3',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  flexWrap: 'wrap',
                  borderTop: '1px solid {colors.border}',
                  pt: '2',
                })}
              >
                <div className={css({ minWidth: 0 })}>
                  <div className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{m.match_name}</div>
                  <div className={muted}>
                    {matchWhen(m.match_date, m.match_time)} · {m.stadium_name}, {m.city_name} · {m.tournament}
                  </div>
                </div>
                <Button tone="secondary" onClick={() => add.send({ type: 'match.chosen', match: m })}>
                  Sell tickets<span className={css({ srOnly: true })}> for {m.match_name}</span>
                </Button>
              </li>
            ))}
          </ul>
          {lastPage > 1 ? (
            <nav aria-label="Match pages" className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
              <Button
                tone="secondary"
                disabled={page <= 1}
                onClick={() => search.send({ type: 'page.requested', page: page - 1 })}
              >
                Previous
              </Button>
              <span className={css({ fontSize: 'sm' })}>
                Page {page} of {lastPage}
              </span>
              <Button
                tone="secondary"
                disabled={page >= lastPage}
                onClick={() => search.send({ type: 'page.requested', page: page + 1 })}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}

function ChosenMatch({ add, match }: { add: AddRef; match: CatalogueMatch }) {
  return (
    <section aria-label="Match" className={card}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <div className={css({ minWidth: 0 })}>
          <h2 className={sectionTitle}>{match.match_name}</h2>
          <p className={muted}>
            {matchWhen(match.match_date, match.match_time)} · {match.stadium_name}, {match.city_name}
          </p>
        </div>
        <Button tone="secondary" onClick={() => add.send({ type: 'match.cleared' })}>
          Change match
        </Button>
      </div>
    </section>
  );
}

/** A group of radio buttons labelled by a legend-like label, with the field's error. */
function Choices({
  label,
  required,
  error,
  children,
}: {
  label: string;
  required?: boolean;
  error?: string | null;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className={fieldStack}>
      <FieldLabel id={`${id}-label`} required={required}>
        {label}
      </FieldLabel>
      <div
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${id}-error` : undefined}
        className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}
      >
        {children}
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

function ListingForm({ add, form }: { add: AddRef; form: FormRef }) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const formError = useSelector(form, (s) => s.context.formError);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const showErrors = useSelector(form, (s) => !s.matches({ editing: 'pristine' }));
  const blocks = useSelector(add, (s) => s.context.blocks);
  const templatesStatus = useSelector(add, (s) => (s.value as { templates: TemplatesStatus }).templates);
  const templates = useSelector(add, (s) => s.context.templates);
  const blockListId = useId();
  const set = (field: keyof ListingValues & string, value: unknown) =>
    add.send({ type: 'listing.changed', field, value });
  const categories = blocks?.categories ?? [];
  const blockSuggestions = categories.find((c) => c.name === values.category)?.blocks ?? [];
  const restrictions = values.restrictions ? values.restrictions.split(',') : [];
  const complete = v.safeParse(listingSchema, values).success;
  const err = (field: string) => errors[field] ?? null;
  return (
    <form
      aria-label="Listing"
      noValidate
      className={card}
      onSubmit={(e) => {
        e.preventDefault();
        add.send({ type: 'listing.submitted' });
      }}
    >
      {formError ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {formError}
        </p>
      ) : null}
      <h2 className={sectionTitle}>Where</h2>
      <div className={fieldGrid}>
        <Dropdown
          label="Category"
          required
          options={categories.map((c) => ({ label: c.name, value: c.name }))}
          value={values.category || null}
          onChange={(category) => set('category', category ?? '')}
          error={err('category')}
          showErrors={showErrors}
        />
        <div>
          <TextField
            label="Block"
            required
            list={blockListId}
            maxLength={50}
            value={values.ticket_block}
            onChange={(e) => set('ticket_block', e.currentTarget.value)}
            error={err('ticket_block')}
            showErrors={showErrors}
          />
          <datalist id={blockListId}>
            {blockSuggestions.map((b) => (
              <option key={b} value={b} />
            ))}
          </datalist>
        </div>
        <TextField
          label="Row"
          required
          maxLength={20}
          value={values.row}
          onChange={(e) => set('row', e.currentTarget.value)}
          error={err('row')}
          showErrors={showErrors}
        />
        <TextField
          label="Seats (optional)"
          maxLength={100}
          placeholder="12-15"
          value={values.seats ?? ''}
          onChange={(e) => set('seats', e.currentTarget.value)}
          error={err('seats')}
          showErrors={showErrors}
        />
      </div>
      <h2 className={sectionTitle}>What</h2>
      <Choices label="Ticket type" required error={showErrors ? err('ticket_type_id') : null}>
        {Object.entries(TICKET_TYPES).map(([id, name]) => (
          <label key={id} className={choice}>
            <input
              type="radio"
              name="ticket_type_id"
              value={id}
              checked={values.ticket_type_id === Number(id)}
              onChange={() => set('ticket_type_id', Number(id))}
              className={css({ srOnly: true })}
            />
            {/* the label's text names the type: the icon is a picture of it */}
            <span aria-hidden="true" className={css({ display: 'inline-flex' })}>
              <TicketTypeIcon typeId={Number(id)} />
            </span>
            {name}
          </label>
        ))}
      </Choices>
      <div className={fieldGrid}>
        <NumericInput
          label="Quantity"
          required
          allowDecimal={false}
          allowNegative={false}
          maxLength={4}
          value={values.quantity === undefined ? '' : String(values.quantity)}
          onValueChange={(text) => set('quantity', text === '' ? undefined : Number(text))}
          error={err('quantity')}
          showErrors={showErrors}
        />
      </div>
      <Choices label="Split" required error={showErrors ? err('split_type') : null}>
        {SPLIT_OPTIONS.map((o) => (
          <label key={o.value} className={choice}>
            <input
              type="radio"
              name="split_type"
              value={o.value}
              checked={values.split_type === o.value}
              onChange={() => set('split_type', o.value)}
              className={css({ srOnly: true })}
            />
            {o.label}
          </label>
        ))}
      </Choices>
      <h2 className={sectionTitle}>Price</h2>
      <div className={fieldGrid}>
        <Dropdown
          label="Currency"
          required
          searchable={false}
          options={currencyCodeValues.map((c) => ({ label: c, value: c }))}
          value={values.currency}
          onChange={(currency) => set('currency', currency ?? 'GBP')}
          error={err('currency')}
          showErrors={showErrors}
        />
        <CurrencyInput
          label="Price per ticket"
          required
          currency={values.currency}
          allowNegative={false}
          hint={PRICE_BOUNDS.text}
          value={values.price ?? null}
          onValueChange={(minor) => set('price', minor ?? undefined)}
          error={err('price')}
          showErrors={showErrors}
        />
        <CurrencyInput
          label="Face value (optional)"
          currency={values.currency}
          allowNegative={false}
          value={values.face_value ?? null}
          onValueChange={(minor) => set('face_value', minor ?? undefined)}
          error={err('face_value')}
          showErrors={showErrors}
        />
      </div>
      <Insights add={add} />
      <h2 className={sectionTitle}>Restrictions and notes</h2>
      <fieldset className={css({ border: 'none', p: 0, m: 0 })}>
        <legend className={css({ srOnly: true })}>Restrictions</legend>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
          {listingRestrictionValues.map((r) => (
            <label key={r} className={choice}>
              <input
                type="checkbox"
                checked={restrictions.includes(r)}
                onChange={(e) => {
                  const next = e.currentTarget.checked ? [...restrictions, r] : restrictions.filter((x) => x !== r);
                  set('restrictions', listingRestrictionValues.filter((x) => next.includes(x)).join(','));
                }}
              />
              {RESTRICTION_LABELS[r]}
            </label>
          ))}
        </div>
      </fieldset>
      <Notes
        value={values.notes ?? ''}
        onChange={(notes) => set('notes', notes)}
        error={showErrors ? err('notes') : null}
      />
      <InHandDateField
        value={values.in_hand_date}
        onChange={(d) => set('in_hand_date', d ?? undefined)}
        error={err('in_hand_date')}
      />
      <TemplatePicker
        status={templatesStatus}
        templates={templates}
        onRetry={() => add.send({ type: 'templates.retried' })}
        value={values.additional_template_ids ? values.additional_template_ids.split(',').map(Number) : []}
        onChange={(ids) => set('additional_template_ids', ids.join(','))}
        error={showErrors ? err('additional_template_ids') : null}
      />
      <FileField
        label="Ticket files (optional)"
        rules={TICKET_FILE_RULES}
        file={values.files?.[0] instanceof File ? values.files[0] : null}
        onFileChange={(file) => set('files', file ? [file] : [])}
        error={err('files')}
        showErrors={showErrors}
      />
      <FormFooter
        valid={complete && !submitting}
        submitting={submitting}
        submitLabel="List tickets"
        onCancel={() => add.send({ type: 'match.cleared' })}
      />
    </form>
  );
}

/** Notes of an event request (500 characters). */
function RequestNotes(props: { value: string; onChange: (v: string) => void; error: string | null }) {
  return <Notes {...props} label="Notes for the back office (optional)" maxLength={500} />;
}

function Notes({
  value,
  onChange,
  error,
  label = 'Notes for the buyer (optional)',
  maxLength = 1000,
}: {
  value: string;
  onChange: (v: string) => void;
  error: string | null;
  label?: string;
  maxLength?: number;
}) {
  const id = useId();
  return (
    <div className={fieldStack}>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <textarea
        id={id}
        rows={3}
        maxLength={maxLength}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        className={css({
          border: '1px solid {colors.border}',
          borderRadius: 'md',
          p: '2',
          fontSize: 'md',
          bg: 'bg',
          color: 'fg',
        })}
      />
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

function Insights({ add }: { add: AddRef }) {
  const state = useSelector(add, (s) => (s.value as { insights: string }).insights);
  const insights = useSelector(add, (s) => s.context.insights);
  return (
    <section
      aria-label="Market insights"
      aria-live="polite"
      className={css({ bg: 'bg.muted', borderRadius: 'md', p: '3', display: 'grid', gap: '1', fontSize: 'sm' })}
    >
      {state === 'idle' ? (
        <p className={muted}>Choose the category and type a price to see what you receive and where it ranks.</p>
      ) : state === 'waiting' || state === 'loading' ? (
        <p className={muted}>Checking the market…</p>
      ) : state === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => add.send({ type: 'insights.retried' })}>
            Retry
          </Button>
        </div>
      ) : insights ? (
        <InsightLines insights={insights} />
      ) : null}
    </section>
  );
}

const POSITION: Record<string, string> = {
  only: 'the only listing in this category',
  lowest: 'the lowest price in this category',
  below_median: 'below the median of this category',
  median: 'at the median of this category',
  above_median: 'above the median of this category',
  highest: 'the highest price in this category',
};

function InsightLines({ insights: m }: { insights: MarketInsights }) {
  const price = (minor: number | null) => (minor === null ? '-' : money(minor, m.currency));
  return (
    <>
      {m.payout ? (
        <p>
          <strong>You receive {price(m.payout.seller_receives)}</strong> for {m.payout.quantity}{' '}
          {m.payout.quantity === 1 ? 'ticket' : 'tickets'} (the buyer pays {price(m.payout.buyer_pays.grand_total)} with
          fees).
        </p>
      ) : null}
      {m.your_price ? (
        <p>
          Your price ranks #{m.your_price.rank} of {m.your_price.cheaper_count + m.your_price.dearer_count + 1}:{' '}
          {POSITION[m.your_price.position] ?? m.your_price.position}.
        </p>
      ) : null}
      <p className={muted}>
        Other sellers: {m.listings_count} {m.listings_count === 1 ? 'listing' : 'listings'}, lowest{' '}
        {price(m.lowest_price)}, median {price(m.median_price)}, highest {price(m.highest_price)}; {m.sold_recently}{' '}
        sold in the last {m.sold_recently_days} days.
      </p>
      <PriceCapChecks checks={m.price_caps} />
    </>
  );
}

function Created({ add }: { add: AddRef }) {
  const created = useSelector(add, (s) => s.context.created);
  const templates = useSelector(add, (s) => s.context.templates);
  if (!created) return null;
  // the server's answer says which templates the listing carries; their names are the seller's list
  const carried = templates.filter((t) => created.additional_template_ids.includes(t.template_id)).map((t) => t.name);
  return (
    <section aria-labelledby="listing-created" className={card}>
      <h2 id="listing-created" className={sectionTitle}>
        Listing created
      </h2>
      <p>
        {created.quantity} × {created.Category}, block {created.ticket_block}, row {created.row} at{' '}
        {money(created.price, created.currency)} each: {created.status === 'published' ? 'on sale now' : 'unpublished'}.
      </p>
      {carried.length > 0 ? <p className={muted}>With the templates: {carried.join(', ')}.</p> : null}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
        <Button onClick={() => add.send({ type: 'listing.another' })}>Add another</Button>
        <Link href={routes.myListings.pattern}>See it in Inventory</Link>
      </div>
    </section>
  );
}

function RequestEvent({ add }: { add: AddRef }) {
  const open = useSelector(add, (s) => s.matches({ request: 'open' }));
  const requests = useSelector(add, (s) => s.context.requests);
  const form = useSelector(add, (s) => s.children.eventRequestForm) as RequestRef | undefined;
  return (
    <section aria-labelledby="request-event" className={card}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <h2 id="request-event" className={sectionTitle}>
          Match not in the catalogue?
        </h2>
        {open ? null : (
          <Button tone="secondary" onClick={() => add.send({ type: 'request.opened' })}>
            Request an event
          </Button>
        )}
      </div>
      {open && form ? <RequestForm add={add} form={form} /> : null}
      {requests.length > 0 ? (
        <ul aria-label="Your event requests" className={css({ display: 'grid', gap: '1', listStyle: 'none', p: 0 })}>
          {requests.map((r) => (
            <li key={r.request_id} className={css({ fontSize: 'sm' })}>
              {r.match_name}, {formatDate(r.match_date)}
              {r.match_time ? ` ${r.match_time}` : ''}, {r.stadium_name}
              {r.tournament ? ` (${r.tournament})` : ''}: <strong>{REQUEST_STATUS[r.status] ?? r.status}</strong>
              {r.status_reason ? ` (${r.status_reason})` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function RequestForm({ add, form }: { add: AddRef; form: RequestRef }) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const formError = useSelector(form, (s) => s.context.formError);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const showErrors = useSelector(form, (s) => !s.matches({ editing: 'pristine' }));
  const set = (field: keyof typeof values & string, value: string) =>
    form.send({ type: 'field.changed', field, value });
  const valid = values.match_name.trim().length >= 3 && values.match_date !== '' && values.stadium_name.trim() !== '';
  return (
    <form
      aria-label="Request an event"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        form.send({ type: 'form.submitted' });
      }}
      className={stack}
    >
      {formError ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {formError}
        </p>
      ) : null}
      <div className={fieldGrid}>
        <TextField
          label="Event name"
          required
          maxLength={150}
          value={values.match_name}
          onChange={(e) => set('match_name', e.currentTarget.value)}
          error={errors.match_name}
          showErrors={showErrors}
        />
        <DatePicker
          label="Event date"
          required
          onChange={(date) => set('match_date', date)}
          error={errors.match_date}
          showErrors={showErrors}
        />
        <TextField
          label="Venue"
          required
          maxLength={150}
          value={values.stadium_name}
          onChange={(e) => set('stadium_name', e.currentTarget.value)}
          error={errors.stadium_name}
          showErrors={showErrors}
        />
        <TextField
          label="City (optional)"
          maxLength={100}
          value={values.city_name ?? ''}
          onChange={(e) => set('city_name', e.currentTarget.value)}
          error={errors.city_name}
          showErrors={showErrors}
        />
        <TextField
          label="Home team (optional)"
          maxLength={100}
          value={values.home_team ?? ''}
          onChange={(e) => set('home_team', e.currentTarget.value)}
          error={errors.home_team}
          showErrors={showErrors}
        />
        <TextField
          label="Away team (optional)"
          maxLength={100}
          value={values.away_team ?? ''}
          onChange={(e) => set('away_team', e.currentTarget.value)}
          error={errors.away_team}
          showErrors={showErrors}
        />
        <TextField
          label="Competition (optional)"
          maxLength={100}
          value={values.tournament ?? ''}
          onChange={(e) => set('tournament', e.currentTarget.value)}
          error={errors.tournament}
          showErrors={showErrors}
        />
        <TextField
          label="Kick-off time (optional)"
          type="time"
          value={values.match_time ?? ''}
          // an emptied time is no time (the contract's pattern takes HH:MM only)
          onChange={(e) =>
            form.send({ type: 'field.changed', field: 'match_time', value: e.currentTarget.value || undefined })
          }
          error={errors.match_time}
          showErrors={showErrors}
        />
      </div>
      <RequestNotes
        value={values.notes ?? ''}
        onChange={(notes) => set('notes', notes)}
        error={showErrors ? (errors.notes ?? null) : null}
      />
      <FormFooter
        valid={valid && !submitting}
        submitting={submitting}
        submitLabel="Send request"
        onCancel={() => add.send({ type: 'request.closed' })}
      />
    </form>
  );
}
