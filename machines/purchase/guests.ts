import { purchaseSetup } from './actions';
import { PURCHASE_TEXT } from './api';

/** Guest Details, when the booking asks them. */
export const guests = purchaseSetup.createStateConfig({
  description: 'Guest Details: one section per guest with the fields the event requires.',
  after: { holdEnds: 'expired' },
  on: {
    'guest.changed': { actions: 'changeGuest' },
    'guests.copied': { actions: 'copyBuyerToGuests' },
    'guests.submitted': [
      {
        guard: 'guestsIncomplete',
        actions: ['showGuestErrors', { type: 'toast', params: PURCHASE_TEXT.guestsMissing }],
      },
      { target: 'sendingGuests' },
    ],
    'booking.cancelled': 'cancelling',
  },
});

/** The guests' details go to the server. */
export const sendingGuests = purchaseSetup.createStateConfig({
  tags: ['submitting'],
  invoke: {
    id: 'submitGuests',
    src: 'submitGuests',
    input: ({ context }) => ({ context }),
    onDone: {
      target: 'paying',
      actions: [
        { type: 'storeBooking', params: ({ event }) => event.output },
        { type: 'renewKey', params: 'guests' },
      ],
    },
    onError: [
      {
        guard: { type: 'hasFieldErrors', params: ({ event }: { event: { error: unknown } }) => event.error },
        target: 'guests',
        actions: [
          { type: 'storeGuestServerErrors', params: ({ event }: { event: { error: unknown } }) => event.error },
          { type: 'renewKey', params: 'guests' },
          { type: 'toast', params: PURCHASE_TEXT.guestsMissing },
        ],
      },
      {
        guard: { type: 'isConflict', params: ({ event }: { event: { error: unknown } }) => event.error },
        target: 'expired',
      },
      {
        target: 'guests',
        actions: [
          {
            type: 'renewKeyIfAnswered',
            params: ({ event }: { event: { error: unknown } }) => ({ name: 'guests' as const, error: event.error }),
          },
          { type: 'toast', params: PURCHASE_TEXT.guestsError },
        ],
      },
    ],
  },
});
