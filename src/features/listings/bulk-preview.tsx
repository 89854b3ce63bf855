import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { BulkPreviewRow } from '../../../machines/bulk-upload.machine';
import { formatMoney } from '../../lib/money';
import { Button } from '../../ui/button';
import type { BulkRef } from './bulk-listings-page';
import { card, muted, sectionTitle } from './listing-styles';

const ACTION_TEXT: Record<BulkPreviewRow['action'], string> = { create: 'Create', skip: 'Skip', refuse: 'Refuse' };
const count = (n: number, what: string) => `${n.toLocaleString('en-GB')} ${what}${n === 1 ? '' : 's'}`;

/** What a row lists: the match, where, how many, at what price (as far as the row could be read). */
function listingText(r: BulkPreviewRow): string {
  const where = [r.category, r.ticket_block, r.seat_row ? `row ${r.seat_row}` : ''].filter(Boolean).join(', ');
  const what =
    r.quantity !== undefined && r.price !== undefined && r.currency
      ? `${r.quantity} × ${formatMoney({ minor: r.price, currency: r.currency })}`
      : '';
  return [r.match, where, what].filter(Boolean).join(' · ');
}

const reasonText = (r: BulkPreviewRow['reasons'][number]) =>
  r.column ? `${r.column}${r.value ? ` '${r.value}'` : ''}: ${r.message}` : r.message;

/**
 * The preview of a checked file: every row with what the upload will do with it (create, skip, refuse) and why,
 * and the Confirm that creates the rows marked Create. Nothing is written before Confirm.
 */
export function BulkPreviewSection({ bulk }: { bulk: BulkRef }) {
  const preview = useSelector(bulk, (s) => (s.hasTag('preview') ? s.context.preview : null));
  const canConfirm = useSelector(bulk, (s) => s.can({ type: 'preview.confirmed' }));
  if (!preview) return null;
  const { to_create: create, to_skip: skip, to_refuse: refuse } = preview;
  return (
    <section aria-labelledby="bulk-preview" className={card}>
      <h2 id="bulk-preview" className={sectionTitle}>
        3. Check what the upload will do
      </h2>
      <p role="status">
        {count(create, 'listing')} to create, {count(skip, 'row')} skipped, {count(refuse, 'row')} refused. Nothing is
        listed until you confirm.
      </p>
      {refuse > 0 ? (
        <p className={muted}>
          Refused rows are left out. Fix them and upload the file again later: the rows already listed are then skipped,
          not listed twice.
        </p>
      ) : null}
      <div className={css({ overflowX: 'auto', maxHeight: '60vh', overflowY: 'auto' })}>
        <table aria-label="What the upload will do, row by row" className={previewTable}>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Action</th>
              <th scope="col">Listing</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r) => (
              <tr key={r.row} data-action={r.action}>
                <td>{r.row}</td>
                <td>
                  <span className={badge[r.action]}>{ACTION_TEXT[r.action]}</span>
                </td>
                <td className={css({ overflowWrap: 'anywhere' })}>{listingText(r)}</td>
                <td className={css({ overflowWrap: 'anywhere' })}>
                  {r.reasons.length === 1 ? (
                    reasonText(r.reasons[0] as BulkPreviewRow['reasons'][number])
                  ) : r.reasons.length > 1 ? (
                    <ul className={css({ pl: '4', listStyle: 'disc' })}>
                      {r.reasons.map((x) => (
                        <li key={`${x.column}-${x.message}`}>{reasonText(x)}</li>
                      ))}
                    </ul>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {create === 0 ? (
        <p id="bulk-confirm-why" className={muted}>
          Nothing to create: every row is skipped or refused. Fix the file and check it again.
        </p>
      ) : null}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <Button
          disabled={!canConfirm}
          aria-describedby={create === 0 ? 'bulk-confirm-why' : undefined}
          onClick={() => bulk.send({ type: 'preview.confirmed' })}
        >
          {create > 0 ? `Confirm: create ${count(create, 'listing')}` : 'Confirm'}
        </Button>
        <Button tone="secondary" onClick={() => bulk.send({ type: 'file.cleared' })}>
          Choose another file
        </Button>
      </div>
    </section>
  );
}

const pill = {
  display: 'inline-block',
  px: '2',
  py: '0.5',
  borderRadius: 'pill',
  fontSize: 'xs',
  fontWeight: 'semibold',
  border: '1px solid',
} as const;
const badge: Record<BulkPreviewRow['action'], string> = {
  create: css({ ...pill, color: 'success', borderColor: 'success' }),
  skip: css({ ...pill, color: 'fg', borderColor: 'border', bg: 'bg.muted' }),
  refuse: css({ ...pill, color: 'error', borderColor: 'error' }),
};

const previewTable = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});
