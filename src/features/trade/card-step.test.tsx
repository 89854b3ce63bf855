import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { CARD_TEXT, cardPaymentMachine } from '../../../machines/card-payment.machine';
import { ApiError } from '../../../openapi/client';
import { attachToasts } from '../../app/notify-bridge';
import CardStep from './card-step';

// Stripe.js itself needs Stripe's network (offline, loadStripe hangs in jsdom): the pure entry's loadStripe is
// replaced, and a small stand-in of the Stripe object plays Elements and confirmCardPayment. The e2e server
// cannot run the 'stripe' gateway (it would call Stripe's API), so the Stripe adapter is tested here.
const loadStripe = vi.fn();
// a failing load is a plain function: vi.fn's own bookkeeping of a rejected promise reads as unhandled
let failLoad: Error | null = null;
vi.mock('@stripe/stripe-js/pure', () => ({
  loadStripe: (...args: unknown[]) => (failLoad ? Promise.reject(failLoad) : loadStripe(...args)),
}));

function stripeStandIn(result: { paymentIntent?: { id: string; status: string }; error?: { message: string } }) {
  const handlers: Record<string, (arg?: unknown) => void> = {};
  let mounted = false;
  const element = {
    mount: vi.fn(() => {
      mounted = true;
      queueMicrotask(() => handlers.ready?.(element));
    }),
    on: (event: string, fn: (arg?: unknown) => void) => {
      handlers[event] = fn;
      return element;
    },
    off: () => element,
    update: () => {},
    destroy: () => {
      mounted = false;
    },
    unmount: () => {
      mounted = false;
    },
  };
  const stripe = {
    elements: () => ({ create: () => element, getElement: () => element, update: () => {} }),
    // as Stripe.js: the card Element must still be mounted when the payment is confirmed
    confirmCardPayment: vi.fn(async () => {
      if (!mounted) throw new Error('IntegrationError: the Element is not mounted');
      return result;
    }),
    // what react-stripe-js checks to recognise a Stripe object
    createToken: () => {},
    createPaymentMethod: () => {},
    registerAppInfo: () => {},
    _registerWrapper: () => {},
  };
  return { stripe, element };
}

const stripeConfig = {
  gateway: 'stripe',
  publishable_key: 'pk_test_gbp',
  currency: 'GBP',
  default_currency: 'usd',
  stored_card_gateway: 'sandbox',
  sandbox_test_cards: [],
};
const intent = {
  client_secret: 'pi_9_secret_abc',
  payment_intent_id: 'pi_9',
  gateway: 'stripe',
  publishable_key: 'pk_test_gbp',
  amount: 210_250,
  currency: 'gbp',
  status: 'requires_payment_method',
};

function startCard() {
  const createIntent = vi.fn(async () => intent);
  const card = createActor(
    cardPaymentMachine.provide({
      actors: {
        loadConfig: fromPromise(async () => stripeConfig) as never,
        createIntent: fromPromise(createIntent) as never,
      },
    }),
    { input: { bookingId: 9, bookingNo: 'BK00000009', amount: 210_250, currency: 'GBP' } },
  ).start();
  return { card, createIntent };
}

describe('the card step with the stripe gateway', () => {
  beforeEach(() => {
    loadStripe.mockReset();
    failLoad = null;
  });
  afterEach(() => vi.clearAllMocks());

  it('loads Stripe.js with the currency key, mounts the card element, and confirms the intent with it', async () => {
    const { stripe, element } = stripeStandIn({ paymentIntent: { id: 'pi_9', status: 'succeeded' } });
    loadStripe.mockResolvedValue(stripe);
    const { card, createIntent } = startCard();
    render(<CardStep card={card} />);
    expect(await screen.findByRole('heading', { name: CARD_TEXT.details })).toBeInTheDocument();
    expect(loadStripe).toHaveBeenCalledWith('pk_test_gbp');
    await waitFor(() => expect(card.getSnapshot().context.element).toBe(element));
    await userEvent.click(screen.getByRole('button', { name: 'Pay GBP 2,102.50' }));
    await waitFor(() => expect(card.getSnapshot().status).toBe('done'));
    expect(createIntent).toHaveBeenCalledTimes(1);
    // the bank's challenge, if any, is the card step's own state (handleNextAction), not Stripe's modal
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith(
      'pi_9_secret_abc',
      { payment_method: { card: element } },
      { handleActions: false },
    );
    expect(card.getSnapshot().output).toEqual({ status: 'succeeded', paymentIntentId: 'pi_9' });
  });

  it("a card Stripe declines shows 'Payment Failed' with Retry Payment and Cancel", async () => {
    const { stripe } = stripeStandIn({ error: { message: 'Your card was declined.' } });
    loadStripe.mockResolvedValue(stripe);
    const { card } = startCard();
    render(<CardStep card={card} />);
    await waitFor(() => expect(card.getSnapshot().context.element).not.toBeNull());
    await userEvent.click(screen.getByRole('button', { name: /^Pay / }));
    expect(await screen.findByRole('heading', { name: CARD_TEXT.failed })).toBeInTheDocument();
    expect(screen.getByText('Your card was declined.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: CARD_TEXT.retry })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(card.getSnapshot().output).toEqual({ status: 'cancelled' });
  });

  it("Stripe.js unreachable: 'Failed to load payment form'", async () => {
    failLoad = new Error('Failed to load Stripe.js');
    const { card } = startCard();
    render(<CardStep card={card} />);
    expect(await screen.findByText(CARD_TEXT.loadFailed)).toBeInTheDocument();
    expect(card.getSnapshot().value).toBe('loadFailed');
  });

  it("no Stripe where it cannot run: 'Stripe is not loaded yet' on submit", async () => {
    loadStripe.mockResolvedValue(null);
    const { card } = startCard();
    render(<CardStep card={card} />);
    await screen.findByRole('heading', { name: CARD_TEXT.details });
    await userEvent.click(screen.getByRole('button', { name: /^Pay / }));
    expect(await screen.findByText(CARD_TEXT.stripeNotLoaded)).toBeInTheDocument();
  });
});

describe('the card step says what went wrong, where the spec says it', () => {
  const notices: string[] = [];
  let detach: () => void = () => {};
  beforeEach(() => {
    detach = attachToasts((notice) => notices.push(notice.message));
    // what earlier tests left in the queue is theirs
    notices.length = 0;
  });
  afterEach(() => detach());

  function startWith(actors: Record<string, unknown>) {
    return createActor(cardPaymentMachine.provide({ actors: actors as never }), {
      input: { bookingId: 9, bookingNo: 'BK00000009', amount: 210_250, currency: 'GBP' },
    }).start();
  }

  it("a payment configuration that fails at once still toasts 'Failed to load payment form'", async () => {
    const card = startWith({ loadConfig: fromPromise(() => Promise.reject(new ApiError(500, 'Server error'))) });
    // the card step's code loads after its machine has started (a lazy chunk): the failure has come by then
    await new Promise((resolve) => setTimeout(resolve, 0));
    render(<CardStep card={card} />);
    expect(await screen.findByText(CARD_TEXT.loadFailed)).toBeInTheDocument();
    expect(notices).toEqual([CARD_TEXT.loadFailed]);
  });

  it('an unexpected failure while paying is a toast, not a line under the form', async () => {
    const card = startWith({
      loadConfig: fromPromise(async () => ({ ...stripeConfig, gateway: 'sandbox' })),
      createIntent: fromPromise(async () => ({ ...intent, gateway: 'sandbox' })),
      confirmCard: fromPromise(() =>
        Promise.reject(new ApiError(500, 'An unexpected error occurred. Please try again later.')),
      ),
    });
    render(<CardStep card={card} />);
    await userEvent.type(await screen.findByLabelText('Card number'), '4242 4242 4242 4242');
    await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '12/34');
    await userEvent.type(screen.getByLabelText('CVC'), '123');
    await userEvent.click(screen.getByRole('button', { name: /^Pay / }));
    expect(await screen.findByRole('heading', { name: CARD_TEXT.failed })).toBeInTheDocument();
    expect(screen.queryByText(CARD_TEXT.unexpected)).toBeNull();
    expect(notices).toEqual([CARD_TEXT.unexpected]);
  });
});
