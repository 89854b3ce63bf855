import { purchaseSetup } from './actions';
import { PURCHASE_TEXT } from './api';

/** Method 3, the stored card: paid, or asked a challenge by the bank. */
export const storedCard = purchaseSetup.createStateConfig({
  description: 'Method 3: the stored card by its recurring reference; paid when the result status is 1.',
  invoke: {
    id: 'payStoredCard',
    src: 'payStoredCard',
    input: ({ context }) => ({ context }),
    onDone: [
      {
        guard: { type: 'isPaidByStoredCard', params: ({ event }) => event.output },
        target: '#purchase.confirmed',
        actions: { type: 'storeOutcome', params: ({ event }) => event.output },
      },
      {
        guard: { type: 'asksChallenge', params: ({ event }) => event.output },
        target: 'challenge',
        actions: [
          { type: 'storeAction', params: ({ event }) => event.output },
          { type: 'renewKey', params: 'pay' },
        ],
      },
      {
        guard: { type: 'holdIsOver', params: ({ event }) => event.output },
        target: '#purchase.expired',
        actions: { type: 'storeOutcome', params: ({ event }) => event.output },
      },
      {
        target: '#purchase.payable',
        actions: [
          { type: 'storeOutcome', params: ({ event }) => event.output },
          { type: 'renewKey', params: 'pay' },
          // the server's reason is already the spec's 'Payment failed: {reason}' (the contract)
          { type: 'toast', params: ({ event }) => event.output.result.message },
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
        { type: 'storeFailure', params: PURCHASE_TEXT.processingFailed },
        { type: 'toast', params: PURCHASE_TEXT.processingFailed },
      ],
    },
  },
});

/** 3-D Secure: the bank's challenge, shown in the panel. */
export const challenge = purchaseSetup.createStateConfig({
  description:
    "The stored card's bank asks the buyer to confirm the payment (3-D Secure): the challenge shows in the panel; nothing is charged until it is answered.",
  tags: ['challenge'],
  after: { holdEnds: '#purchase.expired' },
  on: {
    'challenge.completed': { target: 'answeringChallenge', actions: 'storeChallengeDetails' },
    'challenge.cancelled': {
      target: '#purchase.payable',
      actions: [
        'clearAction',
        { type: 'storeFailure', params: PURCHASE_TEXT.challengeCancelled },
        { type: 'toast', params: PURCHASE_TEXT.challengeCancelled },
      ],
    },
  },
});

/** The challenge's answer, checked by the server. */
export const answeringChallenge = purchaseSetup.createStateConfig({
  description: "The challenge's answer goes to the server, which asks the gateway whether the bank confirmed.",
  invoke: {
    id: 'submitChallenge',
    src: 'submitChallenge',
    input: ({ context }) => ({ context, details: context.challengeDetails ?? {} }),
    onDone: [
      {
        guard: { type: 'isPaidByStoredCard', params: ({ event }) => event.output },
        target: '#purchase.confirmed',
        actions: ['clearAction', { type: 'storeOutcome', params: ({ event }) => event.output }],
      },
      {
        guard: { type: 'holdIsOver', params: ({ event }) => event.output },
        target: '#purchase.expired',
        actions: ['clearAction', { type: 'storeOutcome', params: ({ event }) => event.output }],
      },
      {
        target: '#purchase.payable',
        actions: [
          'clearAction',
          { type: 'storeOutcome', params: ({ event }) => event.output },
          { type: 'renewKey', params: 'pay' },
          { type: 'toast', params: ({ event }) => event.output.result.message },
        ],
      },
    ],
    onError: {
      target: '#purchase.payable',
      actions: [
        'clearAction',
        {
          type: 'renewKeyIfAnswered',
          params: ({ event }: { event: { error: unknown } }) => ({ name: 'pay' as const, error: event.error }),
        },
        { type: 'storeFailure', params: PURCHASE_TEXT.processingFailed },
        { type: 'toast', params: PURCHASE_TEXT.processingFailed },
      ],
    },
  },
});
