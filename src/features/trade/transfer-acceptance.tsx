import { useState } from 'react';
import { css } from 'styled-system/css';
import { acceptTransfer, type Booking } from '../../../machines/trade-search.machine';
import { messageOf } from '../../../openapi/client';
import { formatDate } from '../../lib/format-date';
import { Button } from '../../ui/button';
import { muted } from './trade-styles';

type Delivery = NonNullable<Booking['delivery']>;

const when = (iso: string) => `${formatDate(iso.slice(0, 10))} ${iso.slice(11, 16)} UTC`;

/**
 * Mobile tickets travel as the club's transfer: the buyer sees when the club opens transfers, opens the link the
 * seller sent, accepts it in the club's app, then says so here (the reminders stop, the seller sees it).
 */
export function TransferAcceptance({ booking, delivery }: { booking: Booking; delivery: Delivery }) {
  const [accepted, setAccepted] = useState<string | null>(delivery.transfer?.accepted_at ?? null);
  const [key] = useState(() => globalThis.crypto.randomUUID());
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const transfer = delivery.transfer;
  if (!transfer) return null;
  const links = [...new Set(delivery.tickets.flatMap((t) => (t.transfer_link ? [t.transfer_link] : [])))];
  const waiting = transfer.opens_at && Date.parse(transfer.opens_at) > Date.now();
  const accept = async () => {
    setSending(true);
    setProblem(null);
    try {
      const answer = await acceptTransfer(booking.booking_id, key);
      setAccepted(answer.delivery?.transfer?.accepted_at ?? new Date().toISOString());
    } catch (error) {
      setProblem(messageOf(error, 'That did not go through. Please try again.'));
    } finally {
      setSending(false);
    }
  };
  return (
    <>
      <dt>Transfer</dt>
      <dd className={css({ display: 'grid', gap: '1', justifyItems: 'start' })}>
        {transfer.opens_at ? (
          <span className={muted}>
            {waiting ? 'The club releases transfers from' : 'The club released transfers on'} {when(transfer.opens_at)}.
          </span>
        ) : null}
        {links.map((link, i) => (
          <a
            key={link}
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            className={css({ overflowWrap: 'anywhere' })}
          >
            {links.length === 1 ? 'Open the transfer' : `Open transfer ${i + 1}`}
          </a>
        ))}
        {accepted ? (
          <span>Accepted on {when(accepted)}.</span>
        ) : links.length > 0 ? (
          <>
            <span className={muted}>Accept the transfer in the club's app, then tell us here.</span>
            <Button tone="secondary" busy={sending} disabled={sending} onClick={accept}>
              I have accepted the transfer
            </Button>
          </>
        ) : (
          <span className={muted}>The seller has not sent the transfer yet.</span>
        )}
        {problem ? (
          <span role="alert" className={css({ color: 'error' })}>
            {problem}
          </span>
        ) : null}
      </dd>
    </>
  );
}
