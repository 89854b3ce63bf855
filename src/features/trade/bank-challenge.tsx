import { useEffect, useRef } from 'react';
import { css } from 'styled-system/css';
import { formatMinorUnits } from '../../lib/money';
import { Button } from '../../ui/button';

export const CHALLENGE_TITLE = 'Your bank asks you to confirm this payment';

const box = css({
  display: 'grid',
  gap: '3',
  border: '2px solid {colors.border}',
  borderRadius: 'md',
  p: '4',
  scrollMarginTop: '4',
});

/**
 * The card's bank asks the buyer to confirm a payment (3-D Secure, Strong Customer Authentication). The sandbox
 * stands in for the bank's page: Confirm answers the challenge (whether it passes is the test card's), Cancel
 * gives it up and nothing is charged. Adyen's challenge needs its web component, which is not built in: the
 * panel says so and the buyer pays another way.
 */
export function BankChallenge({
  gateway,
  amount,
  currency,
  busy = false,
  onConfirm,
  onCancel,
}: {
  gateway: 'sandbox' | 'adyen' | 'stripe';
  amount: number;
  currency: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    ref.current?.focus();
  }, []);
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby="bank-challenge-title" className={box}>
      <h4 id="bank-challenge-title" className={css({ fontWeight: 'semibold' })}>
        {CHALLENGE_TITLE}
      </h4>
      {gateway === 'adyen' ? (
        <p role="alert">
          Your bank's check cannot be shown here. Nothing was charged: cancel and pay by SB Pay or a new card.
        </p>
      ) : (
        <>
          <p>
            3-D Secure: confirm the payment of {currency} {formatMinorUnits(amount)} as your bank asks. Nothing is
            charged until you do.
          </p>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Sandbox: this stands in for your bank's page. Card 4000 0027 6000 3184 passes the check, 4000 0027 6000 3192
            fails it.
          </p>
        </>
      )}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        {gateway === 'adyen' ? null : (
          <Button tone="primary" busy={busy} disabled={busy} onClick={onConfirm}>
            Confirm payment
          </Button>
        )}
        <Button disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
