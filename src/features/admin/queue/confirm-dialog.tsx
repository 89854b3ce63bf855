import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { css, cx } from 'styled-system/css';
import { REASON_LIMITS } from '../../../../machines/admin/queues';
import { Dropdown } from '../../../ui/dropdown';
import { FormFooter } from '../../../ui/form-footer';
import { Modal } from '../../../ui/modal';
import { inputBox, TextField } from '../../../ui/text-field';
import type { ApprovalField, QueueRef, QueueView } from './queue-types';

/**
 * The confirmation before an approval: it restates what Approve will do (the amount it credits, sends or refunds)
 * and waits for Confirm; Cancel leaves the item as it was. A refusal (another admin was first) shows here.
 */
export function ConfirmDialog<Item>({ admin, view }: { admin: QueueRef<Item>; view: QueueView<Item> }) {
  const item = useSelector(admin, (s) =>
    s.matches({ decision: 'confirming' }) || s.matches({ decision: 'approving' }) ? s.context.item : null,
  );
  const approving = useSelector(admin, (s) => s.matches({ decision: 'approving' }));
  const problem = useSelector(admin, (s) => s.context.problem);
  const values = useSelector(admin, (s) => s.context.values);
  if (item === null) return null;
  const cancel = () => admin.send({ type: 'approve.cancelled' });
  return (
    <Modal open onClose={cancel} title={view.approve.title(item)}>
      <form
        noValidate
        className={css({ display: 'grid', gap: '3' })}
        onSubmit={(e) => {
          e.preventDefault();
          admin.send({ type: 'approve.confirmed' });
        }}
      >
        <div className={css({ fontSize: 'sm' })}>{view.approve.restates(item)}</div>
        {problem ? (
          <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
            {problem}
          </p>
        ) : null}
        {(view.approve.fields ?? []).map((f) => (
          <Field
            key={f.name}
            field={f}
            options={f.options?.(item) ?? []}
            value={values[f.name] ?? ''}
            disabled={approving}
            onChange={(value) => admin.send({ type: 'value.changed', name: f.name, value })}
          />
        ))}
        <FormFooter
          onCancel={cancel}
          valid={!approving}
          submitting={approving}
          submitLabel={view.approve.confirmLabel(item)}
        />
      </form>
    </Modal>
  );
}

function Field({
  field,
  options,
  value,
  disabled,
  onChange,
}: {
  field: ApprovalField;
  options: ReadonlyArray<{ value: string; label: string }>;
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  if (field.kind === 'choice') {
    return (
      <Dropdown
        label={field.label}
        searchable={false}
        options={options}
        value={value === '' ? null : value}
        disabled={disabled}
        onChange={(v) => onChange(v ?? '')}
      />
    );
  }
  if (field.kind === 'time') {
    return (
      <TextField
        label={field.label}
        type="time"
        required
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    );
  }
  return (
    <>
      <label htmlFor={id} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
        {field.label}
      </label>
      <textarea
        id={id}
        required
        value={value}
        maxLength={REASON_LIMITS.maxLength}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className={cx(inputBox, css({ minHeight: '6rem', py: '2', height: 'auto' }))}
      />
    </>
  );
}
