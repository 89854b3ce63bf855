import { setup } from 'xstate';
import { cardPaymentMachine } from '../card-payment.machine';
import type { NotifyEvent } from '../notify';
import { purchaseActors } from './api';
import { purchaseGuards } from './guards';
import type { PurchaseContext, PurchaseEvent, PurchaseInput, PurchaseOutput } from './types';

/** The purchase statechart's types, actors (its calls, and the card step's machine), delay and guards. */
export const purchaseBase = setup({
  types: {
    context: {} as PurchaseContext,
    input: {} as PurchaseInput,
    events: {} as PurchaseEvent,
    emitted: {} as NotifyEvent,
    output: {} as PurchaseOutput,
  },
  actors: {
    ...purchaseActors,
    cardPayment: cardPaymentMachine,
  },
  delays: {
    // from the deadline, so that leaving and coming back to a state does not restart the 15 minutes
    holdEnds: ({ context }) => Math.max(0, (context.holdDeadline ?? 0) - Date.now()),
  },
  guards: purchaseGuards,
});
