import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { css, cx } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type AdditionalTemplate,
  TEMPLATE_LIMITS,
  type templateFormMachine,
  type templatesListMachine,
  templatesMachine,
} from '../../../machines/templates.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { Button } from '../../ui/button';
import { FieldError, FieldLabel, fieldStack } from '../../ui/field';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { inputBox, TextField } from '../../ui/text-field';
import { card, muted, sectionTitle, stack } from './listing-styles';

type TemplatesRef = ActorRefFrom<typeof templatesMachine>;
type ListRef = ActorRefFrom<typeof templatesListMachine>;
type FormRef = ActorRefFrom<typeof templateFormMachine>;

const listingsOf = (n: number) => `${n} ${n === 1 ? 'listing carries' : 'listings carry'} it`;

/** Settings › Templates: the seller's additional templates, which a listing picks in Add Inventory. */
export default function TemplatesPage() {
  const templates = useViewActor(templatesMachine, 'templates');
  if (!templates) return null;
  return (
    <div className={stack}>
      <TemplateList templates={templates} />
      <TemplateDialog templates={templates} />
      <DeleteDialog templates={templates} />
    </div>
  );
}

function TemplateList({ templates }: { templates: TemplatesRef }) {
  const list = useSelector(templates, (s) => s.children.templatesList) as ListRef | undefined;
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const loading = useSelector(list, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(list, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(list, (s) => s?.matches('empty') ?? false);
  const idle = useSelector(templates, (s) => s.matches('idle'));
  return (
    <section aria-labelledby="templates-title" aria-busy={loading} className={card}>
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: '3',
          flexWrap: 'wrap',
        })}
      >
        <h2 id="templates-title" className={sectionTitle}>
          Additional templates
        </h2>
        <Button disabled={!idle} onClick={() => templates.send({ type: 'template.addRequested' })}>
          Add template
        </Button>
      </div>
      <p className={muted}>
        Reusable texts (collection point, entry rules...) that a listing carries: pick them in Add Inventory.
      </p>
      {loading ? (
        <Loading label="Loading the templates">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="56px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => list?.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : empty ? (
        <p className={muted}>No templates yet. Add one to offer it in Add Inventory.</p>
      ) : (
        <ul aria-label="Templates" className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0, m: 0 })}>
          {items.map((t: AdditionalTemplate) => (
            <li
              key={t.template_id}
              aria-label={t.name}
              className={css({
                display: 'flex',
                gap: '3',
                justifyContent: 'space-between',
                flexWrap: 'wrap',
                borderTop: '1px solid {colors.border}',
                pt: '2',
              })}
            >
              <div className={css({ minWidth: 0, flex: '1 1 20rem' })}>
                <div className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{t.name}</div>
                <p className={css({ fontSize: 'sm', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' })}>{t.content}</p>
                <div className={muted}>
                  {listingsOf(t.listings_count)} · updated {formatDate(t.updated_at)}
                  {t.file ? ` · file ${t.file.name}` : ''}
                </div>
              </div>
              <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-start' })}>
                <Button
                  tone="secondary"
                  disabled={!idle}
                  aria-label={`Edit ${t.name}`}
                  onClick={() => templates.send({ type: 'template.editRequested', template: t })}
                >
                  Edit
                </Button>
                <Button
                  tone="secondary"
                  disabled={!idle}
                  aria-label={`Delete ${t.name}`}
                  onClick={() => templates.send({ type: 'template.deleteRequested', template: t })}
                >
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TemplateDialog({ templates }: { templates: TemplatesRef }) {
  const open = useSelector(templates, (s) => s.matches('adding') || s.matches('editing'));
  const adding = useSelector(templates, (s) => s.matches('adding'));
  const form = useSelector(templates, (s) => s.children.templateForm) as FormRef | undefined;
  const close = () => templates.send({ type: 'form.closed' });
  return (
    <Modal open={open} onClose={close} title={adding ? 'Add template' : 'Edit template'}>
      {form ? <TemplateForm form={form} onCancel={close} /> : null}
    </Modal>
  );
}

function TemplateForm({ form, onCancel }: { form: FormRef; onCancel: () => void }) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const formError = useSelector(form, (s) => s.context.formError);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const showErrors = useSelector(form, (s) => !s.matches({ editing: 'pristine' }));
  const contentId = useId();
  const valid = values.name.trim() !== '' && values.content.trim() !== '';
  return (
    <form
      aria-label="Template"
      noValidate
      className={css({ display: 'grid', gap: '3' })}
      onSubmit={(e) => {
        e.preventDefault();
        form.send({ type: 'form.submitted' });
      }}
    >
      {formError ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {formError}
        </p>
      ) : null}
      <TextField
        label="Name"
        required
        maxLength={TEMPLATE_LIMITS.name?.maxLength}
        value={values.name}
        onChange={(e) => form.send({ type: 'field.changed', field: 'name', value: e.currentTarget.value })}
        error={errors.name}
        showErrors={showErrors}
      />
      <div className={fieldStack}>
        <FieldLabel htmlFor={contentId} required>
          Text
        </FieldLabel>
        <textarea
          id={contentId}
          required
          rows={5}
          maxLength={TEMPLATE_LIMITS.content?.maxLength}
          value={values.content}
          onChange={(e) => form.send({ type: 'field.changed', field: 'content', value: e.currentTarget.value })}
          aria-invalid={showErrors && errors.content ? true : undefined}
          aria-describedby={showErrors && errors.content ? `${contentId}-error` : undefined}
          className={cx(inputBox, css({ minHeight: '7rem', py: '2', height: 'auto' }))}
        />
        <FieldError id={`${contentId}-error`} error={errors.content} showErrors={showErrors} />
      </div>
      <FormFooter valid={valid && !submitting} submitting={submitting} submitLabel="Save" onCancel={onCancel} />
    </form>
  );
}

function DeleteDialog({ templates }: { templates: TemplatesRef }) {
  const open = useSelector(templates, (s) => s.matches('confirmingDelete') || s.matches('deleting'));
  const template = useSelector(templates, (s) => s.context.template);
  const deleting = useSelector(templates, (s) => s.hasTag('deleting'));
  return (
    <Modal open={open} onClose={() => templates.send({ type: 'delete.cancelled' })} title="Delete template">
      <div className={css({ display: 'grid', gap: '3' })}>
        <p>
          Delete <strong>{template?.name}</strong>?
          {template && template.listings_count > 0
            ? ` ${listingsOf(template.listings_count)}; they will no longer.`
            : ''}
        </p>
        <FormFooter
          valid={!deleting}
          submitting={deleting}
          submitLabel="Delete"
          onSubmit={() => templates.send({ type: 'delete.confirmed' })}
          onCancel={() => templates.send({ type: 'delete.cancelled' })}
        />
      </div>
    </Modal>
  );
}
