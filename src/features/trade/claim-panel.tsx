import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { css } from 'styled-system/css';
import { CLAIM_REASONS, claimMachine } from '../../../machines/claim.machine';
import type { Booking } from '../../../machines/trade-search.machine';
import { notify } from '../../app/notify-bridge';
import { formatDate } from '../../lib/format-date';
import { Button } from '../../ui/button';
import { Dropdown } from '../../ui/dropdown';
import { muted } from './trade-styles';

type Delivery = NonNullable<Booking['delivery']>;

const when = (iso: string) => `${formatDate(iso.slice(0, 10))} ${iso.slice(11, 16)} UTC`;
const STATUS: Record<NonNullable<Delivery['claim']>['status'], string> = {
  open: 'open: the back office is looking into it',
  refunded: 'upheld: you were refunded',
  replaced: 'upheld: your tickets are replaced',
  rejected: 'rejected',
};

/**
 * A claim on the booking (docs/decisions/disputes.md): the claim as it stands, or Open a claim while its window is
 * open (a reason and what happened), the flow in machines/claim.machine.ts.
 */
export function ClaimPanel({ booking, delivery }: { booking: Booking; delivery: Delivery }) {
  const actor = useActorRef(claimMachine, { input: { bookingId: booking.booking_id } });
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  const submitting = useSelector(actor, (s) => s.hasTag('submitting'));
  const canSend = useSelector(actor, (s) => s.can({ type: 'claim.submitted' }));
  const id = useId();
  useEffect(() => {
    const sub = actor.on('notify', (e) => notify(e));
    return () => sub.unsubscribe();
  }, [actor]);
  const claim = context.claim ?? delivery.claim;
  if (claim) {
    return (
      <p className={muted}>
        Claim ({CLAIM_REASONS.find((r) => r.value === claim.reason)?.label}) opened {when(claim.opened_at)}:{' '}
        {STATUS[claim.status]}
        {claim.resolution_note ? `. ${claim.resolution_note}` : ''}
      </p>
    );
  }
  if (!delivery.claim_until) return null;
  if (state === 'closed') {
    return (
      <div>
        <Button tone="secondary" onClick={() => actor.send({ type: 'claim.started' })}>
          Open a claim<span className={css({ srOnly: true })}> on {booking.booking_no}</span>
        </Button>
        <span className={muted}> Until {when(delivery.claim_until)}.</span>
      </div>
    );
  }
  return (
    <form
      aria-label={`Claim on ${booking.booking_no}`}
      className={css({ display: 'grid', gap: '2', maxWidth: '480px' })}
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'claim.submitted' });
      }}
    >
      <Dropdown
        label="What went wrong"
        searchable={false}
        options={CLAIM_REASONS}
        value={context.reason}
        onChange={(reason) => {
          if (reason) actor.send({ type: 'reason.changed', reason });
        }}
      />
      <label htmlFor={`${id}-description`}>What happened</label>
      <textarea
        id={`${id}-description`}
        maxLength={1000}
        value={context.description}
        onChange={(e) => actor.send({ type: 'description.changed', description: e.target.value })}
      />
      {context.problem ? <p role="alert">{context.problem}</p> : null}
      <div className={css({ display: 'flex', gap: '2' })}>
        <Button type="submit" disabled={!canSend || submitting} whyDisabled="Say what happened first.">
          Send claim
        </Button>
        <Button tone="secondary" type="button" onClick={() => actor.send({ type: 'claim.cancelled' })}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
