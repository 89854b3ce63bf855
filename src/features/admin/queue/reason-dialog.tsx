import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { css, cx } from 'styled-system/css';
import { REASON_LIMITS } from '../../../../machines/admin/queues';
import { FormFooter } from '../../../ui/form-footer';
import { Modal } from '../../../ui/modal';
import { inputBox } from '../../../ui/text-field';
import type { QueueRef, QueueView } from './queue-types';

/** Reject with a reason: the reason is required (the dialog's button waits for it), and the seller reads it. */
export function ReasonDialog<Item>({ admin, view }: { admin: QueueRef<Item>; view: QueueView<Item> }) {
  const item = useSelector(admin, (s) =>
    s.matches({ decision: 'writingReason' }) || s.matches({ decision: 'rejecting' }) ? s.context.item : null,
  );
  const reason = useSelector(admin, (s) => s.context.reason);
  const rejecting = useSelector(admin, (s) => s.matches({ decision: 'rejecting' }));
  const canConfirm = useSelector(admin, (s) => s.can({ type: 'reject.confirmed' }));
  const problem = useSelector(admin, (s) => s.context.problem);
  const fieldId = useId();
  if (item === null) return null;
  const cancel = () => admin.send({ type: 'reject.cancelled' });
  return (
    <Modal open onClose={cancel} title={view.reject.title(item)}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          admin.send({ type: 'reject.confirmed' });
        }}
        className={css({ display: 'grid', gap: '3' })}
      >
        {problem ? (
          <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
            {problem}
          </p>
        ) : null}
        <label htmlFor={fieldId} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          {view.reject.reasonLabel}
        </label>
        <textarea
          id={fieldId}
          required
          value={reason}
          maxLength={REASON_LIMITS.maxLength}
          disabled={rejecting}
          onChange={(e) => admin.send({ type: 'reason.changed', reason: e.target.value })}
          // the shared input box, taller
          className={cx(inputBox, css({ minHeight: '6rem', py: '2', height: 'auto' }))}
        />
        <FormFooter onCancel={cancel} valid={canConfirm} submitting={rejecting} submitLabel={view.reject.submitLabel} />
      </form>
    </Modal>
  );
}
