import { CardElement, Elements } from '@stripe/react-stripe-js';
import type { StripeCardElement } from '@stripe/stripe-js';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { CARD_TEXT, type cardPaymentMachine, type PaymentConfig } from '../../../machines/card-payment.machine';
import { useNotify } from '../../app/notify-bridge';
import { formatMinorUnits } from '../../lib/money';
import { Button } from '../../ui/button';
import { Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { BankChallenge } from './bank-challenge';

type CardRef = ActorRefFrom<typeof cardPaymentMachine>;
type SandboxTestCard = NonNullable<PaymentConfig['sandbox_test_cards']>[number];

const box = css({ display: 'grid', gap: '3', border: '1px solid {colors.border}', borderRadius: 'md', p: '3' });

/**
 * The card form of payment method 2 (loaded only for it, with Stripe's React bindings in this chunk):
 * 'Payment Details' (Stripe Elements, or the sandbox's plain card form), 'Processing Payment...',
 * 'Payment Failed' with Retry Payment and Cancel. The card-payment machine does the work; this only shows it.
 */
export default function CardStep({ card }: { card: CardRef }) {
  // the card step is the purchase's child, outside the app's actor system: its toasts come through here
  useNotify(card);
  // after the line above: the step asks for its configuration once its toasts are heard
  useEffect(() => card.send({ type: 'card.viewReady' }), [card]);
  const view = useSelector(card, (s) =>
    s.hasTag('loading')
      ? 'loading'
      : s.matches('loadFailed')
        ? 'loadFailed'
        : s.matches('details')
          ? 'details'
          : s.hasTag('challenge')
            ? 'challenge'
            : s.matches('processing') || s.matches('authenticating')
              ? 'processing'
              : s.matches('failed')
                ? 'failed'
                : 'done',
  );
  const failure = useSelector(card, (s) => s.context.failure);
  const amount = useSelector(card, (s) => s.context.amount);
  const currency = useSelector(card, (s) => s.context.currency);
  // the card form in view when the step opens (the panel is long; the step is at its end)
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, []);
  return (
    <section ref={ref} aria-label="Card payment" className={box}>
      {view === 'loading' ? <Skeleton height="120px" /> : null}
      {view === 'loadFailed' ? (
        <div role="alert" className={css({ display: 'grid', gap: '2' })}>
          <strong>{CARD_TEXT.loadFailed}</strong>
          <div className={css({ display: 'flex', gap: '2' })}>
            <Button onClick={() => card.send({ type: 'card.retried' })}>Try again</Button>
            <Button onClick={() => card.send({ type: 'card.cancelled' })}>Cancel</Button>
          </div>
        </div>
      ) : null}
      {/* the card form stays mounted while the payment is processed: Stripe.js confirms with the mounted card
          Element (an unmounted one is an IntegrationError), so processing only hides it */}
      {view === 'details' || view === 'processing' || view === 'challenge' ? (
        <div hidden={view !== 'details'}>
          <Details card={card} />
        </div>
      ) : null}
      {view === 'challenge' ? (
        <BankChallenge
          gateway="sandbox"
          amount={amount}
          currency={currency}
          onConfirm={() => card.send({ type: 'challenge.completed' })}
          onCancel={() => card.send({ type: 'challenge.cancelled' })}
        />
      ) : null}
      {view === 'processing' ? (
        <p role="status" className={css({ fontWeight: 'semibold' })}>
          {CARD_TEXT.processing}
        </p>
      ) : null}
      {view === 'failed' ? (
        <div role="alert" className={css({ display: 'grid', gap: '2' })}>
          <h4 className={css({ fontWeight: 'semibold', color: 'error' })}>{CARD_TEXT.failed}</h4>
          {failure ? <p>{failure}</p> : null}
          <div className={css({ display: 'flex', gap: '2' })}>
            <Button tone="primary" onClick={() => card.send({ type: 'card.retried' })}>
              {CARD_TEXT.retry}
            </Button>
            <Button onClick={() => card.send({ type: 'card.cancelled' })}>Cancel</Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function Details({ card }: { card: CardRef }) {
  const gateway = useSelector(card, (s) => s.context.config?.gateway ?? 'sandbox');
  const stripe = useSelector(card, (s) => s.context.stripe);
  const error = useSelector(card, (s) => s.context.cardError);
  const amount = useSelector(card, (s) => s.context.amount);
  const currency = useSelector(card, (s) => s.context.currency);
  return (
    <form
      aria-label={CARD_TEXT.details}
      className={css({ display: 'grid', gap: '3' })}
      onSubmit={(e) => {
        e.preventDefault();
        card.send({ type: 'card.submitted' });
      }}
    >
      <h4 className={css({ fontWeight: 'semibold' })}>{CARD_TEXT.details}</h4>
      {gateway === 'stripe' ? (
        <Elements stripe={stripe}>
          <div className={css({ border: '1px solid {colors.border}', borderRadius: 'md', p: '3' })}>
            <CardElement
              onReady={(element) => card.send({ type: 'card.elementReady', element: element as StripeCardElement })}
              onChange={(e) =>
                card.send({ type: 'card.changed', complete: e.complete, error: e.error?.message ?? null })
              }
            />
          </div>
        </Elements>
      ) : (
        <SandboxCard card={card} />
      )}
      {error ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {error}
        </p>
      ) : null}
      <div className={css({ display: 'flex', gap: '2' })}>
        <Button type="submit" tone="primary">
          Pay {currency} {formatMinorUnits(amount)}
        </Button>
        <Button onClick={() => card.send({ type: 'card.cancelled' })}>Cancel</Button>
      </div>
    </form>
  );
}

const OUTCOME_TEXT: Record<SandboxTestCard['outcome'], string> = {
  succeeded: 'pays',
  card_declined: 'is declined',
  insufficient_funds: 'has insufficient funds',
  challenge_passes: 'asks your bank to confirm (passes)',
  challenge_fails: 'asks your bank to confirm (fails)',
};

/** The sandbox's test cards, each a button that types its number (any future expiry and CVC). */
function SandboxTestCards({ card }: { card: CardRef }) {
  const cards = useSelector(card, (s) => s.context.config?.sandbox_test_cards ?? []);
  if (cards.length === 0) return null;
  return (
    <div className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
      <p id="sandbox-test-cards" className={css({ color: 'fg.muted' })}>
        Sandbox test cards (any future expiry, any CVC):
      </p>
      <ul aria-labelledby="sandbox-test-cards" className={css({ display: 'grid', gap: '1' })}>
        {cards.map((c) => (
          <li key={c.number} className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
            <Button
              aria-label={`Use test card ${c.number}`}
              onClick={() => {
                card.send({ type: 'sandbox.changed', field: 'number', value: c.number });
                if (!card.getSnapshot().context.sandboxCard.expiry)
                  card.send({ type: 'sandbox.changed', field: 'expiry', value: '12/34' });
                if (!card.getSnapshot().context.sandboxCard.cvc)
                  card.send({ type: 'sandbox.changed', field: 'cvc', value: '123' });
              }}
            >
              {c.number}
            </Button>
            <span>{OUTCOME_TEXT[c.outcome]}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The sandbox gateway's plain card form, with its test cards listed. */
function SandboxCard({ card }: { card: CardRef }) {
  const value = useSelector(card, (s) => s.context.sandboxCard);
  return (
    <>
      <SandboxTestCards card={card} />
      <div
        className={css({
          display: 'grid',
          gap: '3',
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 9rem), 1fr))',
        })}
      >
        <TextField
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          maxLength={23}
          value={value.number}
          onChange={(e) => card.send({ type: 'sandbox.changed', field: 'number', value: e.currentTarget.value })}
        />
        <TextField
          label="Expiry (MM/YY)"
          autoComplete="cc-exp"
          maxLength={7}
          value={value.expiry}
          onChange={(e) => card.send({ type: 'sandbox.changed', field: 'expiry', value: e.currentTarget.value })}
        />
        <TextField
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={4}
          value={value.cvc}
          onChange={(e) => card.send({ type: 'sandbox.changed', field: 'cvc', value: e.currentTarget.value })}
        />
      </div>
    </>
  );
}
