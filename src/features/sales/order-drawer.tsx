import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { css } from 'styled-system/css';
import type { Delivery, PdfMode, SalesOrder } from '../../../machines/sales-api';
import { SALES_STATUS_LABELS } from '../../../machines/sales-statuses';
import { deadlineText } from '../../lib/deadline';
import type { FileRules } from '../../lib/file-rules';
import { orderLogTitle } from '../../lib/order-log';
import { saveFile } from '../../lib/save-file';
import { blockText } from '../../lib/seats';
import { Button } from '../../ui/button';
import { Drawer } from '../../ui/drawer';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FileField } from '../../ui/file-field';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { TICKET_TYPES } from '../../ui/ticket-type-icon';
import { UploadProgress } from '../../ui/upload-progress';
import { MobileDeliveryForm, TransferStatus } from './mobile-delivery-form';
import { type DrawerRef, Section, useDrawer } from './sales-context';
import { dateTime, matchWhen, money, TONE_COLOURS, toneOf } from './sales-format';

/** The contract's limits on delivery files (5 MB, the spec's default). */
export const PDF_RULES: FileRules = { types: ['pdf'], maxMb: 5 };
const PROOF_RULES: FileRules = { types: ['pdf', 'jpg', 'jpeg', 'png'], maxMb: 5 };
const PASS_RULES: FileRules = { types: ['pkpass'], maxMb: 5 };

const TICKET_TYPE_OPTIONS: Option<number>[] = Object.entries(TICKET_TYPES).map(([id, label]) => ({
  value: Number(id),
  label,
}));

const muted = css({ color: 'fg.muted', fontSize: 'sm', overflowWrap: 'anywhere' });
const list = css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '2' });
const row = css({ borderBottom: '1px solid {colors.border}', pb: '2', overflowWrap: 'anywhere' });
const textArea = css({
  width: '100%',
  minHeight: '5rem',
  border: '1px solid {colors.border}',
  borderRadius: 'md',
  p: '2',
  fontSize: 'sm',
  bg: 'bg',
});

/** The order drawer: details, lifecycle actions, delivery, notes and logs of the order the drawer machine holds. */
export function OrderDrawer() {
  const drawer = useDrawer();
  useEffect(() => {
    if (!drawer) return;
    const sub = drawer.on('tickets.ready', ({ file }) => saveFile(file.file, file.name));
    return () => sub.unsubscribe();
  }, [drawer]);
  const open = useSelector(drawer, (s) => (s ? !s.matches('closed') : false));
  const details = useSelector(drawer, (s) => s?.context.order ?? null);
  const loading = useSelector(drawer, (s) => s?.hasTag('loading') ?? false);
  const failed = useSelector(drawer, (s) => s?.matches({ open: 'failed' }) ?? false);
  if (!drawer) return null;
  return (
    <Drawer
      open={open}
      onClose={() => drawer.send({ type: 'order.closed' })}
      title={details ? `Order ${details.order.booking_no}` : 'Order'}
    >
      {loading ? (
        <Loading label="Loading the order">
          {[1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height="36px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => drawer.send({ type: 'order.retried' })}>
            Retry
          </Button>
        </div>
      ) : details ? (
        <OrderBody drawer={drawer} details={details} />
      ) : null}
    </Drawer>
  );
}

function OrderBody({ drawer, details }: { drawer: DrawerRef; details: SalesOrder }) {
  const { order } = details;
  const error = useSelector(drawer, (s) => s.context.error);
  const now = Date.now();
  const tone = toneOf(order.deliver_by, now);
  return (
    <div className={css({ display: 'grid', gap: '5' })}>
      <Section title="Match">
        <p>
          <strong>{order.match_name}</strong>
          <br />
          <span className={muted}>
            {matchWhen(order.match_date, order.match_time)} · {order.stadium_name}, {order.city_name} ·{' '}
            {order.tournament}
          </span>
        </p>
        <p className={muted}>
          Status: {SALES_STATUS_LABELS[order.status]} · ordered {dateTime(order.created_at)}
        </p>
        {order.status === 'pending' && order.accept_by ? (
          <p className={muted}>Accept by {dateTime(order.accept_by)}</p>
        ) : null}
        {order.deliver_by ? (
          <p data-testid="drawer-deadline" data-tone={tone} className={TONE_COLOURS[tone]}>
            Delivery deadline: {dateTime(order.deliver_by)} ({deadlineText(order.deliver_by, now)})
          </p>
        ) : null}
      </Section>
      {error ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {error}
        </p>
      ) : null}
      <Actions drawer={drawer} />
      <Tickets drawer={drawer} details={details} />
      <Section title="Guests">
        {details.guests.length === 0 ? (
          <p className={muted}>No guest names.</p>
        ) : (
          <ul aria-label="Guest names" className={list}>
            {details.guests.map((g) => (
              <li key={g.ticket_no}>
                Ticket {g.ticket_no}: {g.first_name} {g.last_name}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Amounts">
        <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '1', columnGap: '4' })}>
          <dt className={muted}>Price per ticket</dt>
          <dd>{money(details.amounts.unit_price, details.amounts.currency)}</dd>
          <dt className={muted}>Tickets</dt>
          <dd>{details.amounts.quantity}</dd>
          <dt className={muted}>Subtotal</dt>
          <dd>{money(details.amounts.subtotal, details.amounts.currency)}</dd>
          <dt className={muted}>Fees</dt>
          <dd>{money(details.amounts.seller_fee, details.amounts.currency)}</dd>
          <dt className={muted}>Your payout</dt>
          <dd className={css({ fontWeight: 'bold' })}>{money(details.amounts.payout, details.amounts.currency)}</dd>
        </dl>
      </Section>
      <DeliverySection drawer={drawer} details={details} />
      <Notes drawer={drawer} details={details} />
      <Logs drawer={drawer} />
    </div>
  );
}

function Actions({ drawer }: { drawer: DrawerRef }) {
  const canAccept = useSelector(drawer, (s) => s.can({ type: 'order.accepted' }));
  const canDecline = useSelector(drawer, (s) => s.can({ type: 'decline.requested' }));
  const declining = useSelector(drawer, (s) => s.matches({ open: { ready: { work: 'declining' } } }));
  const accepting = useSelector(drawer, (s) => s.matches({ open: { ready: { work: 'accepting' } } }));
  const sendingDecline = useSelector(drawer, (s) => s.matches({ open: { ready: { work: 'sendingDecline' } } }));
  const [reason, setReason] = useState('');
  const reasonId = useId();
  if (declining || sendingDecline) {
    const confirm = (e: FormEvent) => {
      e.preventDefault();
      drawer.send({ type: 'decline.confirmed', reason });
    };
    return (
      <form aria-label="Decline the order" onSubmit={confirm} className={css({ display: 'grid', gap: '2' })}>
        <label htmlFor={reasonId} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          Why do you decline this order? The buyer is refunded.
        </label>
        <textarea
          id={reasonId}
          className={textArea}
          value={reason}
          maxLength={500}
          required
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <div className={css({ display: 'flex', gap: '2' })}>
          <Button type="submit" busy={sendingDecline} disabled={sendingDecline || reason.trim() === ''}>
            Decline order
          </Button>
          <Button tone="secondary" disabled={sendingDecline} onClick={() => drawer.send({ type: 'decline.cancelled' })}>
            Cancel
          </Button>
        </div>
      </form>
    );
  }
  if (!canAccept && !canDecline && !accepting) return null;
  return (
    <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
      <Button busy={accepting} disabled={!canAccept} onClick={() => drawer.send({ type: 'order.accepted' })}>
        Accept order
      </Button>
      <Button tone="secondary" disabled={!canDecline} onClick={() => drawer.send({ type: 'decline.requested' })}>
        Decline
      </Button>
    </div>
  );
}

const DELIVERY_LABELS: Record<string, string> = {
  pdf: 'PDF',
  pdf_page: 'PDF page',
  transfer_link: 'Transfer link',
  wallet_pass: 'Wallet pass',
  courier: 'Courier',
  collection: 'Collection',
};

function Tickets({ drawer, details }: { drawer: DrawerRef; details: SalesOrder }) {
  const snapshot = useSelector(drawer, (s) => s);
  // a delivered ticket deleted goes back to not delivered and the buyer loses it: asked first, in place
  const [confirming, setConfirming] = useState<number | null>(null);
  const downloading = snapshot.hasTag('downloading');
  return (
    <Section title="Tickets">
      <TransferStatus
        transfer={details.transfer}
        sent={details.tickets.some((t) => t.delivery?.type === 'transfer_link')}
      />
      <ul aria-label="Tickets" className={list}>
        {details.tickets.map((t) => {
          const d = t.delivery;
          return (
            <li key={t.ticket_no} className={row} data-testid={`ticket-${t.ticket_no}`}>
              <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '2', flexWrap: 'wrap' })}>
                <span>
                  Ticket {t.ticket_no}: {blockText(t.ticket_block)}, row {t.row}
                  {t.seat ? `, seat ${t.seat}` : ''} · {details.order.ticket_type}
                </span>
                <span className={css({ fontWeight: 'semibold', color: t.delivered ? 'success' : 'fg.muted' })}>
                  {t.delivered ? 'Delivered' : 'Not delivered'}
                </span>
              </div>
              {d ? (
                <div className={muted}>
                  {DELIVERY_LABELS[d.type] ?? d.type}
                  {d.file ? `: ${d.file.name}${d.page ? `, page ${d.page}` : ''}` : ''}
                  {d.transfer_link ? `: ${d.transfer_link}` : ''}
                  {d.courier ? `: ${d.courier}, tracking ${d.tracking_number ?? '-'}` : ''} · {dateTime(d.delivered_at)}
                </div>
              ) : null}
              {snapshot.can({ type: 'ticket.deleted', ticketNo: t.ticket_no }) ? (
                confirming === t.ticket_no ? (
                  <fieldset className={css({ display: 'grid', gap: '2', border: 'none', p: '0', m: '0' })}>
                    <legend className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
                      Delete ticket {t.ticket_no}?
                    </legend>
                    <p className={css({ fontSize: 'sm' })}>
                      {t.delivered
                        ? 'It goes back to not delivered, and the buyer no longer has it.'
                        : 'Its file or details are removed.'}
                    </p>
                    <div className={css({ display: 'flex', gap: '2' })}>
                      <Button
                        tone="primary"
                        onClick={() => {
                          setConfirming(null);
                          drawer.send({ type: 'ticket.deleted', ticketNo: t.ticket_no });
                        }}
                      >
                        Delete ticket {t.ticket_no}
                      </Button>
                      <Button tone="ghost" onClick={() => setConfirming(null)}>
                        Keep it
                      </Button>
                    </div>
                  </fieldset>
                ) : (
                  <Button
                    tone="ghost"
                    aria-label={`Delete ticket ${t.ticket_no}`}
                    onClick={() => setConfirming(t.ticket_no)}
                  >
                    Delete
                  </Button>
                )
              ) : null}
            </li>
          );
        })}
      </ul>
      {snapshot.can({ type: 'tickets.downloaded' }) || downloading ? (
        <Button
          tone="secondary"
          busy={downloading}
          disabled={downloading}
          onClick={() => drawer.send({ type: 'tickets.downloaded' })}
        >
          Download all tickets (zip)
        </Button>
      ) : null}
    </Section>
  );
}

function DeliverySection({ drawer, details }: { drawer: DrawerRef; details: SalesOrder }) {
  const { order } = details;
  const snapshot = useSelector(drawer, (s) => s);
  const progress = snapshot.context.progress;
  const uploading = snapshot.hasTag('uploading');
  const busy = snapshot.hasTag('busy');
  const [files, setFiles] = useState<File[]>([]);
  const [mode, setMode] = useState<PdfMode>('per_ticket');
  const [courier, setCourier] = useState('');
  const [tracking, setTracking] = useState('');
  const [instructions, setInstructions] = useState<File | null>(null);
  const can = (delivery: Delivery) => snapshot.can({ type: 'delivery.sent', delivery });
  const send = (delivery: Delivery) => drawer.send({ type: 'delivery.sent', delivery });
  const probe = new File([], 'x.pdf');
  const deliverable = can({ kind: 'pdf', files: [probe], mode: 'per_ticket' });
  const instructable = can({ kind: 'instructions', file: probe });
  const canChangeType = TICKET_TYPE_OPTIONS.some((o) =>
    snapshot.can({ type: 'ticketType.changed', ticketTypeId: o.value }),
  );
  if (!deliverable && !instructable && !canChangeType) return null;
  return (
    <Section title="Delivery">
      {canChangeType ? (
        <Dropdown
          label="Ticket type"
          searchable={false}
          options={TICKET_TYPE_OPTIONS}
          value={order.ticket_type_id}
          disabled={busy}
          onChange={(v) => (v ? drawer.send({ type: 'ticketType.changed', ticketTypeId: v }) : undefined)}
        />
      ) : null}
      {deliverable && order.delivery_method === 'pdf' ? (
        <form
          aria-label="Upload e-tickets"
          className={css({ display: 'grid', gap: '2' })}
          onSubmit={(e) => {
            e.preventDefault();
            if (files.length > 0) send({ kind: 'pdf', files, mode });
          }}
        >
          <FileField
            multiple
            label="PDF e-tickets (one per ticket, or one file with a page per ticket)"
            rules={PDF_RULES}
            files={files}
            disabled={busy}
            onFilesChange={setFiles}
          />
          <fieldset className={css({ border: 'none', p: 0, m: 0, display: 'flex', gap: '3', flexWrap: 'wrap' })}>
            <legend className={css({ srOnly: true })}>How the PDF holds the tickets</legend>
            <label>
              <input type="radio" checked={mode === 'per_ticket'} onChange={() => setMode('per_ticket')} /> One file per
              ticket
            </label>
            <label>
              <input type="radio" checked={mode === 'split'} onChange={() => setMode('split')} /> One file, a page per
              ticket
            </label>
          </fieldset>
          <Button type="submit" busy={uploading} disabled={busy || files.length === 0}>
            Upload tickets
          </Button>
        </form>
      ) : null}
      {deliverable && order.delivery_method === 'mobile' ? (
        <MobileDeliveryForm
          quantity={order.quantity - order.delivered}
          files={files}
          busy={busy}
          uploading={uploading}
          rules={PASS_RULES}
          onFiles={setFiles}
          send={send}
        />
      ) : null}
      {deliverable && order.delivery_method === 'courier' ? (
        <form
          aria-label="Paper tickets by courier"
          className={css({ display: 'grid', gap: '2' })}
          onSubmit={(e) => {
            e.preventDefault();
            send({ kind: 'courier', courier, trackingNumber: tracking, proof: files[0] ?? null });
          }}
        >
          <TextField label="Courier" required value={courier} onChange={(e) => setCourier(e.currentTarget.value)} />
          <TextField
            label="Tracking number"
            required
            value={tracking}
            onChange={(e) => setTracking(e.currentTarget.value)}
          />
          <FileField
            label="Proof of posting (optional)"
            rules={PROOF_RULES}
            file={files[0] ?? null}
            disabled={busy}
            onFileChange={(f) => setFiles(f ? [f] : [])}
          />
          <Button type="submit" busy={uploading} disabled={busy || courier.trim() === '' || tracking.trim().length < 3}>
            Save courier details
          </Button>
        </form>
      ) : null}
      {instructable ? (
        <form
          aria-label="Instruction file"
          className={css({ display: 'grid', gap: '2' })}
          onSubmit={(e) => {
            e.preventDefault();
            if (instructions) send({ kind: 'instructions', file: instructions });
          }}
        >
          {details.instruction_file ? <span className={muted}>Uploaded: {details.instruction_file.name}</span> : null}
          <FileField
            label="Instruction file for the buyer (pdf, jpg or png)"
            rules={PROOF_RULES}
            file={instructions}
            disabled={busy}
            onFileChange={setInstructions}
          />
          <Button type="submit" tone="secondary" busy={uploading} disabled={busy || !instructions}>
            Upload instruction file
          </Button>
        </form>
      ) : null}
      {progress !== null ? (
        <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
          <div className={css({ flex: 1 })}>
            <UploadProgress progress={progress} label="Ticket upload progress" />
          </div>
          <Button tone="ghost" onClick={() => drawer.send({ type: 'upload.cancelled' })}>
            Cancel upload
          </Button>
        </div>
      ) : null}
    </Section>
  );
}

function Notes({ drawer, details }: { drawer: DrawerRef; details: SalesOrder }) {
  const saving = useSelector(drawer, (s) => s.hasTag('savingNotes'));
  const busy = useSelector(drawer, (s) => s.hasTag('busy'));
  const [notes, setNotes] = useState(details.notes ?? '');
  const id = useId();
  return (
    <Section title="Notes">
      <form
        aria-label="Notes"
        className={css({ display: 'grid', gap: '2' })}
        onSubmit={(e) => {
          e.preventDefault();
          drawer.send({ type: 'notes.saved', notes });
        }}
      >
        <label htmlFor={id} className={css({ srOnly: true })}>
          Notes on this order
        </label>
        <textarea
          id={id}
          className={textArea}
          maxLength={2000}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
        />
        {details.notes_updated_at ? <span className={muted}>Saved {dateTime(details.notes_updated_at)}</span> : null}
        <Button type="submit" tone="secondary" busy={saving} disabled={busy}>
          Save notes
        </Button>
      </form>
    </Section>
  );
}

function Logs({ drawer }: { drawer: DrawerRef }) {
  const logs = useSelector(drawer, (s) => s.context.logs);
  const loading = useSelector(drawer, (s) => s.hasTag('loadingLogs'));
  const failed = useSelector(drawer, (s) => s.hasTag('logsError'));
  if (failed)
    return (
      <Section title="Order log">
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => drawer.send({ type: 'logs.retried' })}>
            Retry
          </Button>
        </div>
      </Section>
    );
  if (loading || !logs)
    return (
      <Loading label="Loading the logs">
        <Skeleton height="32px" />
      </Loading>
    );
  return (
    <>
      <Section title="Order log">
        {logs.order.length === 0 ? (
          <p className={muted}>No changes yet.</p>
        ) : (
          <ol aria-label="Order log" className={list}>
            {logs.order.map((l) => (
              <li key={l.log_id} className={row}>
                <div className={css({ fontWeight: 'semibold' })}>{orderLogTitle(l)}</div>
                {l.reason ? <div>{l.reason}</div> : null}
                {l.detail ? <div className={muted}>{l.detail}</div> : null}
                <div className={muted}>
                  {l.user_name ?? l.actor} · {dateTime(l.created_at)}
                </div>
              </li>
            ))}
          </ol>
        )}
      </Section>
      <Section title="Inventory log">
        {logs.inventory.length === 0 ? (
          <p className={muted}>No changes yet.</p>
        ) : (
          <ol aria-label="Inventory log" className={list}>
            {logs.inventory.map((l) => (
              <li key={l.log_id} className={row}>
                <div className={css({ fontWeight: 'semibold' })}>
                  {l.action.replaceAll('_', ' ')}
                  {l.field ? ` ${l.field}` : ''}
                  {l.old_value !== null || l.new_value !== null
                    ? `: ${l.old_value ?? '-'} → ${l.new_value ?? '-'}`
                    : ''}
                </div>
                <div className={muted}>
                  {l.user_name} · {dateTime(l.created_at)}
                </div>
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}
