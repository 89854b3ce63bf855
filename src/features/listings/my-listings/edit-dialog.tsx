import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { css } from 'styled-system/css';
import type { Listing, ListingUpdate } from '../../../../machines/inventory.machine';
import { FormFooter } from '../../../ui/form-footer';
import { Modal } from '../../../ui/modal';
import { NumericInput } from '../../../ui/numeric-input';
import { TextField } from '../../../ui/text-field';
import { InHandDateField } from '../in-hand-date-field';
import { stack } from '../listing-styles';
import { TemplatePicker, type TemplatesStatus } from '../template-picker';
import type { InventoryRef } from './inventory-context';

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((id, i) => id === [...b].sort((x, y) => x - y)[i]);

/**
 * The listing's where and how many and its additional templates, edited in a dialog; only the fields changed are
 * sent (the templates as the whole new set).
 */
export function EditDialog({
  inventory,
  listing: l,
  sending,
  error,
  onCancel,
  onSave,
}: {
  inventory: InventoryRef;
  listing: Listing;
  sending: boolean;
  error: string | null;
  onCancel: () => void;
  onSave: (edit: ListingUpdate) => void;
}) {
  const [block, setBlock] = useState(l.ticket_block);
  const [row, setRow] = useState(l.row);
  const [seats, setSeats] = useState(l.seats ?? '');
  const [quantity, setQuantity] = useState(String(l.quantity));
  const [notes, setNotes] = useState(l.notes ?? '');
  const [inHand, setInHand] = useState(l.in_hand_date ?? null);
  const [templateIds, setTemplateIds] = useState<number[]>(l.additional_template_ids);
  const templatesStatus = useSelector(inventory, (s) => (s.value as { templates: TemplatesStatus }).templates);
  const templates = useSelector(inventory, (s) => s.context.templates);
  const edit: ListingUpdate = {
    ...(block.trim() !== l.ticket_block ? { ticket_block: block.trim() } : {}),
    ...(row.trim() !== l.row ? { row: row.trim() } : {}),
    ...(seats.trim() !== (l.seats ?? '') ? { seats: seats.trim() || null } : {}),
    ...(quantity !== '' && Number(quantity) !== l.quantity ? { quantity: Number(quantity) } : {}),
    ...(notes !== (l.notes ?? '') ? { notes: notes || null } : {}),
    ...(inHand !== (l.in_hand_date ?? null) ? { in_hand_date: inHand } : {}),
    ...(sameIds(templateIds, l.additional_template_ids) ? {} : { template_ids: templateIds }),
  };
  const valid = Object.keys(edit).length > 0 && block.trim() !== '' && row.trim() !== '' && quantity !== '';
  return (
    <Modal
      open
      onClose={onCancel}
      title="Edit listing"
      footer={
        <FormFooter
          valid={valid && !sending}
          submitting={sending}
          submitLabel="Save"
          onCancel={onCancel}
          onSubmit={() => onSave(edit)}
        />
      }
    >
      <div className={stack}>
        <TextField
          label="Block"
          required
          maxLength={50}
          value={block}
          onChange={(e) => setBlock(e.currentTarget.value)}
        />
        <TextField label="Row" required maxLength={20} value={row} onChange={(e) => setRow(e.currentTarget.value)} />
        <TextField
          label="Seats (optional)"
          maxLength={100}
          value={seats}
          onChange={(e) => setSeats(e.currentTarget.value)}
        />
        <NumericInput
          label="Quantity"
          required
          allowDecimal={false}
          allowNegative={false}
          maxLength={4}
          value={quantity}
          onValueChange={setQuantity}
        />
        <TextField
          label="Notes (optional)"
          maxLength={1000}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
        />
        <InHandDateField value={inHand} matchDate={l.match_date} onChange={setInHand} />
        <TemplatePicker
          status={templatesStatus}
          templates={templates}
          onRetry={() => inventory.send({ type: 'templates.retried' })}
          value={templateIds}
          onChange={setTemplateIds}
          error={null}
        />
        {error ? (
          <p role="alert" className={css({ color: 'error' })}>
            {error}
          </p>
        ) : null}
      </div>
    </Modal>
  );
}
