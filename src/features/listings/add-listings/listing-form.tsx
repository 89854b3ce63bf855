import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import * as v from 'valibot';
import type { ListingValues } from '../../../../machines/add-listing.machine';
import { listingSchema, PRICE_BOUNDS } from '../../../../machines/listings-api';
import { currencyCodeValues, listingRestrictionValues } from '../../../../openapi/schema';
import { Dropdown } from '../../../ui/dropdown';
import { FileField } from '../../../ui/file-field';
import { FormFooter } from '../../../ui/form-footer';
import { CurrencyInput, NumericInput } from '../../../ui/numeric-input';
import { TextField } from '../../../ui/text-field';
import { TICKET_TYPES, TicketTypeIcon } from '../../../ui/ticket-type-icon';
import { InHandDateField } from '../in-hand-date-field';
import { SPLIT_OPTIONS } from '../listing-format';
import { card, choice, fieldGrid, sectionTitle } from '../listing-styles';
import { TemplatePicker, type TemplatesStatus } from '../template-picker';
import { type AddRef, type FormRef, RESTRICTION_LABELS, TICKET_FILE_RULES } from './add-listing-parts';
import { Choices } from './choices';
import { Insights } from './insights';
import { Notes } from './notes';

export function ListingForm({ add, form }: { add: AddRef; form: FormRef }) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const formError = useSelector(form, (s) => s.context.formError);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const showErrors = useSelector(form, (s) => !s.matches({ editing: 'pristine' }));
  const blocks = useSelector(add, (s) => s.context.blocks);
  const templatesStatus = useSelector(add, (s) => (s.value as { templates: TemplatesStatus }).templates);
  const templates = useSelector(add, (s) => s.context.templates);
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
        <Dropdown
          freeText
          label="Block"
          required
          options={blockSuggestions.map((b) => ({ label: b, value: b }))}
          value={values.ticket_block}
          onChange={(block) => set('ticket_block', (block ?? '').slice(0, 50))}
          error={err('ticket_block')}
          showErrors={showErrors}
        />
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
