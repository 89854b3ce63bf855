import { purchaseSetup } from './actions';
import { PURCHASE_TEXT } from './api';
import { answeringChallenge, challenge, storedCard } from './stored-card';
import type { PaymentOutcome } from './types';

/**
 * What the server's answer to a confirmation (SB Pay, or the booking after a card payment) does: confirmed,
 * the hold over, or back to payable with the server's message (a new key for the next attempt); a failed call
 * goes back to payable with the spec's 'confirmation failed' toast.
 */
const outcomeOf = ({ event }: { event: { output: PaymentOutcome } }) => event.output;
const confirmationAnswer = {
  onDone: [
    {
      guard: { type: 'isConfirmed', params: outcomeOf },
      target: '#purchase.confirmed',
      actions: { type: 'storeOutcome', params: outcomeOf },
    },
    {
      guard: { type: 'holdIsOver', params: outcomeOf },
      target: '#purchase.expired',
      actions: { type: 'storeOutcome', params: outcomeOf },
    },
    {
      target: '#purchase.payable',
      actions: [
        { type: 'storeOutcome', params: outcomeOf },
        { type: 'renewKey', params: 'pay' },
        { type: 'toast', params: ({ event }: { event: { output: PaymentOutcome } }) => event.output.result.message },
      ],
    },
  ],
  onError: {
    target: '#purchase.payable',
    actions: [
      {
        type: 'renewKeyIfAnswered',
        params: ({ event }: { event: { error: unknown } }) => ({ name: 'pay' as const, error: event.error }),
      },
      { type: 'storeFailure', params: PURCHASE_TEXT.confirmationFailed },
      { type: 'toast', params: PURCHASE_TEXT.confirmationFailed },
    ],
  },
} as const;
/** Payment by the chosen method: SB Pay (1), a new card (2) or a stored card (3). */
export const paying = purchaseSetup.createStateConfig({
  description: 'Payment by the chosen method.',
  tags: ['paying'],
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'isSbPay', target: 'sbPay' }, { guard: 'isCard', target: 'card' }, { target: 'storedCard' }],
    },
    sbPay: {
      description: 'Method 1: confirmed directly when booking_status is Success.',
      invoke: {
        id: 'confirmSbPay',
        src: 'confirmSbPay',
        input: ({ context }) => ({ context }),
        ...confirmationAnswer,
      },
    },
    card: {
      description: 'Method 2: the card step (its own machine) pays, then the booking is confirmed.',
      invoke: {
        id: 'cardPayment',
        src: 'cardPayment',
        input: ({ context }) => ({
          bookingId: context.booking?.booking_id ?? 0,
          bookingNo: context.booking?.booking_no ?? '',
          amount: context.breakdown?.total_with_payment_fee ?? 0,
          currency: context.breakdown?.currency ?? context.currency,
          makeKey: context.makeKey,
        }),
        onDone: [
          {
            guard: { type: 'cardSucceeded', params: ({ event }) => event.output },
            target: 'confirmingCard',
            actions: [
              { type: 'storeIntentId', params: ({ event }) => event.output },
              { type: 'renewKey', params: 'pay' },
            ],
          },
          { target: '#purchase.payable' },
        ],
        onError: {
          target: '#purchase.payable',
          actions: [
            { type: 'storeFailure', params: PURCHASE_TEXT.paymentError },
            { type: 'toast', params: PURCHASE_TEXT.paymentError },
          ],
        },
      },
    },
    confirmingCard: {
      description: 'The card is charged: the server checks the intent and confirms the booking.',
      invoke: {
        id: 'confirmCardBooking',
        src: 'confirmCardBooking',
        input: ({ context }) => ({ context, paymentIntentId: context.paymentIntentId ?? undefined }),
        ...confirmationAnswer,
      },
    },
    storedCard,
    challenge,
    answeringChallenge,
  },
});
