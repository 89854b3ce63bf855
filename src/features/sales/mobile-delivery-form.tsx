import { useId, useState } from 'react';
import { css } from 'styled-system/css';
import type { Delivery, SalesOrder } from '../../../machines/sales-api';
import type { FileRules } from '../../lib/file-rules';
import { Button } from '../../ui/button';
import { FileField } from '../../ui/file-field';

const textArea = css({
  width: '100%',
  minHeight: '5rem',
  border: '1px solid {colors.border}',
  borderRadius: 'md',
  p: '2',
  fontSize: 'sm',
  bg: 'bg',
});
const label = css({ fontSize: 'sm', fontWeight: 'medium', display: 'grid', gap: '1' });
const muted = css({ color: 'fg.muted', fontSize: 'sm', overflowWrap: 'anywhere' });

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * Mobile tickets: transfer links (one per ticket, or the one link a club's ticketing system issues for a whole
 * booking) or wallet passes.
 */
export function MobileDeliveryForm({
  quantity,
  files,
  busy,
  uploading,
  rules,
  onFiles,
  send,
}: {
  /** the tickets still to deliver */
  quantity: number;
  files: File[];
  busy: boolean;
  uploading: boolean;
  /** what a wallet pass may be */
  rules: FileRules;
  onFiles: (files: File[]) => void;
  send: (delivery: Delivery) => void;
}) {
  const [links, setLinks] = useState('');
  const [wholeOrder, setWholeOrder] = useState(quantity > 1);
  const hint = useId();
  const lines = links
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const tooMany = wholeOrder && lines.length > 1;
  return (
    <form
      aria-label="Send mobile tickets"
      className={css({ display: 'grid', gap: '2' })}
      onSubmit={(e) => {
        e.preventDefault();
        if (tooMany) return;
        if (lines.length > 0) send({ kind: 'mobile', links: lines, wholeOrder });
        else if (files.length > 0) send({ kind: 'wallet', files });
      }}
    >
      {quantity > 1 ? (
        <fieldset className={css({ border: 'none', p: 0, m: 0, display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>Transfer links</legend>
          <label>
            <input type="radio" checked={wholeOrder} onChange={() => setWholeOrder(true)} /> One link for the whole
            order
          </label>
          <label>
            <input type="radio" checked={!wholeOrder} onChange={() => setWholeOrder(false)} /> One link per ticket
          </label>
        </fieldset>
      ) : null}
      <label className={label}>
        {wholeOrder
          ? `Transfer link for all ${quantity} tickets`
          : 'Transfer links (one https link per line, in ticket order)'}
        <textarea
          className={textArea}
          value={links}
          aria-describedby={hint}
          aria-invalid={tooMany || undefined}
          onChange={(e) => setLinks(e.currentTarget.value)}
        />
      </label>
      <span id={hint} className={muted} role={tooMany ? 'alert' : undefined}>
        {tooMany
          ? 'One link for the whole order: give exactly one transfer link.'
          : wholeOrder
            ? 'The link your club sent for the whole booking delivers every ticket.'
            : 'One link per line; the first goes to the first ticket not yet delivered.'}
      </span>
      <FileField
        multiple
        label="Or wallet passes (.pkpass)"
        rules={rules}
        files={files}
        disabled={busy}
        onFilesChange={onFiles}
      />
      <Button type="submit" busy={uploading} disabled={busy || tooMany || (lines.length === 0 && files.length === 0)}>
        Send mobile tickets
      </Button>
    </form>
  );
}

/** The club transfer of a mobile order as the seller follows it: when transfers open, and the buyer's acceptance. */
export function TransferStatus({ transfer, sent }: { transfer: SalesOrder['transfer']; sent: boolean }) {
  if (!transfer || (!sent && !transfer.opens_at)) return null;
  const reminded =
    transfer.reminders > 0 ? ` (reminded ${transfer.reminders} time${transfer.reminders === 1 ? '' : 's'})` : '';
  return (
    <div className={css({ display: 'grid', gap: '1', fontSize: 'sm' })} data-testid="transfer-status">
      {transfer.opens_at ? <span className={muted}>The club opens transfers on {when(transfer.opens_at)}.</span> : null}
      {sent ? (
        <span>
          {transfer.accepted_at
            ? `Transfer accepted by the buyer on ${when(transfer.accepted_at)}.`
            : `Transfer not yet accepted by the buyer${reminded}. A correct transfer counts as delivered on time.`}
        </span>
      ) : null}
    </div>
  );
}
