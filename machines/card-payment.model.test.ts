import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  CARD_TEXT,
  type CardPaymentContext,
  type CardResult,
  cardPaymentMachine,
  paymentFailedText,
  sandboxCardProblem,
} from './card-payment.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const config = (gateway: 'stripe' | 'sandbox') => ({
  gateway,
  publishable_key: gateway === 'stripe' ? 'pk_test_gbp' : 'pk_sandbox',
  currency: 'GBP',
  default_currency: 'usd',
  stored_card_gateway: 'sandbox',
  sandbox_test_cards: [],
});
const fakeStripe = { confirmCardPayment: () => Promise.reject(new Error('not in this test')) };
const fakeElement = { mount: () => {} };
const intent = {
  client_secret: 'pi_1_secret_x',
  payment_intent_id: 'pi_1',
  gateway: 'sandbox',
  publishable_key: 'pk_sandbox',
  amount: 10_250,
  currency: 'gbp',
  status: 'requires_payment_method',
};
const succeeded: CardResult = { status: 'succeeded', paymentIntentId: 'pi_1', error: null };
const declined: CardResult = {
  status: 'requires_payment_method',
  paymentIntentId: 'pi_1',
  error: { message: 'Your card was declined.', code: 'card_declined', decline_code: 'generic_decline' },
};

const asksChallenge: CardResult = { status: 'requires_action', paymentIntentId: 'pi_1', error: null };
const authFailed: CardResult = {
  status: 'requires_payment_method',
  paymentIntentId: 'pi_1',
  error: {
    message: 'We are unable to authenticate your payment method.',
    code: 'payment_intent_authentication_failure',
    decline_code: null,
  },
};

const events = [
  { type: 'card.viewReady' },
  { type: 'xstate.done.actor.loadConfig', output: config('stripe') },
  { type: 'xstate.done.actor.loadConfig', output: config('sandbox') },
  { type: 'xstate.error.actor.loadConfig', error: new ApiError(0, 'offline') },
  { type: 'xstate.done.actor.loadStripe', output: fakeStripe },
  { type: 'xstate.done.actor.loadStripe', output: null },
  { type: 'xstate.error.actor.loadStripe', error: new Error('Failed to load Stripe.js') },
  { type: 'xstate.done.actor.createIntent', output: intent },
  { type: 'xstate.error.actor.createIntent', error: new ApiError(409, 'hold expired') },
  { type: 'xstate.done.actor.confirmCard', output: succeeded },
  { type: 'xstate.done.actor.confirmCard', output: declined },
  { type: 'xstate.error.actor.confirmCard', error: new ApiError(0, 'offline') },
  { type: 'xstate.error.actor.confirmCard', error: new ApiError(409, 'The 15-minute hold ended before payment.') },
  { type: 'xstate.done.actor.confirmCard', output: asksChallenge },
  { type: 'challenge.completed' },
  { type: 'challenge.cancelled' },
  { type: 'xstate.done.actor.authenticateCard', output: succeeded },
  { type: 'xstate.done.actor.authenticateCard', output: authFailed },
  { type: 'xstate.error.actor.authenticateCard', error: new ApiError(0, 'offline') },
  { type: 'card.elementReady', element: fakeElement },
  { type: 'card.changed', complete: true, error: null },
  { type: 'sandbox.changed', field: 'number', value: '4242 4242 4242 4242' },
  { type: 'sandbox.changed', field: 'expiry', value: '12/34' },
  { type: 'sandbox.changed', field: 'cvc', value: '123' },
  { type: 'card.submitted' },
  { type: 'card.retried' },
  { type: 'card.cancelled' },
];

// what tells states apart for the guards: the gateway, Stripe and its element present, the sandbox card's validity
const identity = (s: { value: unknown; context: CardPaymentContext }) => ({
  value: s.value,
  gateway: s.context.config?.gateway ?? null,
  stripe: s.context.stripe !== null,
  element: s.context.element !== null,
  sandboxValid: sandboxCardProblem(s.context.sandboxCard) === null,
  // how much of the sandbox's card is typed, while its form shows (its challenge is the sandbox's own)
  sandboxTyped:
    s.context.config?.gateway === 'sandbox' ? Object.values(s.context.sandboxCard).filter(Boolean).length : null,
  intent: s.context.intent !== null,
});

const input = { bookingId: 7, bookingNo: 'BK00000007', amount: 10_250, currency: 'GBP' as const };

describe('card payment statechart, model-based', () => {
  const paths = modelPaths(cardPaymentMachine, { events, input, identity });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(cardPaymentMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors([
        'loadConfig',
        'loadStripe',
        'createIntent',
        'confirmCard',
        'authenticateCard',
      ] as const);
      let keys = 0;
      const actor = createActor(cardPaymentMachine.provide({ actors: control.actors }), {
        input: { ...input, makeKey: () => `key-${++keys}` },
      });
      const toasts: string[] = [];
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      let lastEvent = '';
      await replay(
        path,
        actor,
        async (event) => {
          lastEvent = event.type;
          if (event.type === 'xstate.done.actor.createIntent') {
            // the intent asked for is the booking's, for its method-2 total
            expect(control.pending('createIntent')?.input).toMatchObject({
              context: { bookingId: 7, bookingNo: 'BK00000007', amount: 10_250, currency: 'GBP' },
            });
          }
          return control.settle(event);
        },
        (real) => {
          const context = real.context as CardPaymentContext;
          if (real.matches('loadFailed')) expect(toasts.at(-1)).toBe(CARD_TEXT.loadFailed);
          if (real.matches('loadingStripe'))
            expect(control.pending('loadStripe')?.input).toEqual({ publishableKey: 'pk_test_gbp' });
          if (real.matches('details') && lastEvent === 'card.submitted') {
            if (context.config?.gateway === 'stripe' && !context.stripe)
              expect(context.cardError).toBe(CARD_TEXT.stripeNotLoaded);
            else if (context.config?.gateway === 'stripe' && !context.element)
              expect(context.cardError).toBe(CARD_TEXT.formNotReady);
            else expect(context.cardError).toBe(sandboxCardProblem(context.sandboxCard));
          }
          if (real.matches({ processing: 'confirming' })) {
            expect(control.pending('confirmCard')?.input).toMatchObject({ clientSecret: intent.client_secret });
          }
          if (real.matches({ authenticating: 'asking' })) {
            // the sandbox's challenge shows in the panel; Stripe.js shows its own
            expect(context.config?.gateway).toBe('sandbox');
          }
          if (real.matches({ authenticating: 'answering' })) {
            expect(control.pending('authenticateCard')?.input).toMatchObject({ clientSecret: intent.client_secret });
          }
          if (real.matches('failed')) {
            if (lastEvent === 'challenge.cancelled') expect(context.failure).toBe(CARD_TEXT.challengeCancelled);
            if (lastEvent === 'xstate.done.actor.authenticateCard') {
              expect(toasts.at(-1)).toBe(paymentFailedText('We are unable to authenticate your payment method.'));
            }
            if (lastEvent === 'xstate.done.actor.confirmCard') {
              expect(toasts.at(-1)).toBe(paymentFailedText('Your card was declined.'));
              expect(context.failure).toBe('Your card was declined.');
            }
            if (lastEvent === 'xstate.error.actor.createIntent') expect(toasts.at(-1)).toBe(CARD_TEXT.intentFailed);
            if (lastEvent === 'xstate.error.actor.confirmCard') {
              // a refusal says why under the form; a network failure or a 5xx is a toast only
              if (context.failure === null) expect(toasts.at(-1)).toBe(CARD_TEXT.unexpected);
              else {
                expect(toasts.at(-1)).toBe(CARD_TEXT.paymentError);
                expect(context.failure).toBe('The 15-minute hold ended before payment.');
              }
            }
            if (real.matches('awaitingView')) expect(control.isPending('loadConfig')).toBe(false);
          }
          if (real.matches('succeeded')) expect(real.output).toEqual({ status: 'succeeded', paymentIntentId: 'pi_1' });
          if (real.matches('cancelled')) expect(real.output).toEqual({ status: 'cancelled' });
        },
      );
    });
  }

  it('Retry Payment after a decline confirms the same intent again under a new key, with the new card', async () => {
    const control = controllableActors(['loadConfig', 'loadStripe', 'createIntent', 'confirmCard'] as const);
    let keys = 0;
    const actor = createActor(cardPaymentMachine.provide({ actors: control.actors }), {
      input: { ...input, makeKey: () => `key-${++keys}` },
    }).start();
    actor.send({ type: 'card.viewReady' });
    await control.settle({ type: 'xstate.done.actor.loadConfig', output: config('sandbox') });
    actor.send({ type: 'sandbox.changed', field: 'number', value: '4000 0000 0000 0002' });
    actor.send({ type: 'sandbox.changed', field: 'expiry', value: '12/34' });
    actor.send({ type: 'sandbox.changed', field: 'cvc', value: '123' });
    actor.send({ type: 'card.submitted' });
    await control.settle({ type: 'xstate.done.actor.createIntent', output: intent });
    const first = control.pending('confirmCard')?.input as { key: string; sandboxCard: { number: string } };
    await control.settle({ type: 'xstate.done.actor.confirmCard', output: declined });
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'card.retried' });
    actor.send({ type: 'sandbox.changed', field: 'number', value: '4242 4242 4242 4242' });
    actor.send({ type: 'card.submitted' });
    // the intent is kept: straight to confirming
    const second = control.pending('confirmCard')?.input as { key: string; sandboxCard: { number: string } };
    expect(control.isPending('createIntent')).toBe(false);
    expect(second.key).not.toBe(first.key);
    expect(second.sandboxCard.number).toBe('4242 4242 4242 4242');
    await control.settle({ type: 'xstate.done.actor.confirmCard', output: succeeded });
    expect(actor.getSnapshot().output).toEqual({ status: 'succeeded', paymentIntentId: 'pi_1' });
  });
});
