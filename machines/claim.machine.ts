import { assign, emit, fromPromise, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import type { NotifyEvent } from './notify';

export type Claim = DataOf<'/purchase/lmt-trade/bookings/{booking_id}/claim', 'post'>;
export type ClaimReason = components['schemas']['ClaimReason'];

/** The reasons a buyer may give, in the order the form offers them. */
export const CLAIM_REASONS: ReadonlyArray<{ value: ClaimReason; label: string }> = [
  { value: 'not_received', label: 'Tickets not received' },
  { value: 'wrong_tickets', label: 'Wrong tickets' },
  { value: 'denied_entry', label: 'Denied entry' },
];

export const CLAIM_OPENED = 'Claim opened: the back office will look into it.';

export interface ClaimInput {
  bookingId: number;
}

export interface ClaimContext {
  bookingId: number;
  reason: ClaimReason;
  description: string;
  /** One key per intended claim: a retry after a lost answer is the same call. */
  key: string;
  /** Why the server refused (outside the window, already claimed), shown in the form. */
  problem: string | null;
  claim: Claim | null;
}

export type ClaimEvent =
  | { type: 'claim.started' }
  | { type: 'reason.changed'; reason: ClaimReason }
  | { type: 'description.changed'; description: string }
  | { type: 'claim.submitted' }
  | { type: 'claim.cancelled' };

/**
 * A buyer's claim on a booking (docs/decisions/disputes.md): Open a claim shows the form (a reason and what
 * happened); Send claim is offered once something is written; the server's refusal (outside the window, a claim
 * already opened) stays in the form; once opened, the claim is shown in place of the button.
 */
export const claimMachine = setup({
  types: {
    context: {} as ClaimContext,
    events: {} as ClaimEvent,
    input: {} as ClaimInput,
    emitted: {} as NotifyEvent,
  },
  actors: {
    openClaim: fromPromise<Claim, { bookingId: number; reason: ClaimReason; description: string; key: string }>(
      async ({ input, signal }) =>
        unwrap(
          await api.POST('/purchase/lmt-trade/bookings/{booking_id}/claim', {
            params: { header: { 'Idempotency-Key': input.key }, path: { booking_id: input.bookingId } },
            body: { reason: input.reason, description: input.description.trim() },
            signal,
          }),
        ),
    ),
  },
  guards: {
    hasDescription: ({ context }) => context.description.trim().length > 0,
  },
  actions: {
    storeReason: assign({ reason: ({ event }) => (event.type === 'reason.changed' ? event.reason : 'not_received') }),
    storeDescription: assign({
      description: ({ event }) => (event.type === 'description.changed' ? event.description : ''),
    }),
    newKey: assign({ key: () => globalThis.crypto.randomUUID(), problem: null }),
    storeClaim: assign({ claim: (_, claim: Claim) => claim, problem: null }),
    storeProblem: assign({ problem: (_, error: unknown) => messageOf(error) }),
    notifyOpened: emit({ type: 'notify', level: 'success', message: CLAIM_OPENED } as const),
  },
}).createMachine({
  id: 'claim',
  context: ({ input }) => ({
    bookingId: input.bookingId,
    reason: 'not_received',
    description: '',
    key: '',
    problem: null,
    claim: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      description: 'The booking shows Open a claim while its window is open.',
      on: { 'claim.started': { target: 'writing', actions: 'newKey' } },
    },
    writing: {
      description: 'The form: the reason and what happened; a refusal of the server is shown in it.',
      on: {
        'reason.changed': { actions: 'storeReason' },
        'description.changed': { actions: 'storeDescription' },
        'claim.submitted': { guard: 'hasDescription', target: 'submitting' },
        'claim.cancelled': { target: 'closed' },
      },
    },
    submitting: {
      tags: ['submitting'],
      invoke: {
        id: 'openClaim',
        src: 'openClaim',
        input: ({ context }) => ({
          bookingId: context.bookingId,
          reason: context.reason,
          description: context.description,
          key: context.key,
        }),
        onDone: {
          target: 'opened',
          actions: [{ type: 'storeClaim', params: ({ event }) => event.output }, 'notifyOpened'],
        },
        onError: {
          target: 'writing',
          actions: { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    opened: { type: 'final', description: 'The claim is open: the back office resolves it.' },
  },
});
