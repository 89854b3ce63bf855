/**
 * The purchase area's commands and reads, by job: carts.ts (add-to-cart), bookings.ts (the booking, its
 * guests, its cancellation), payments.ts (the wallet and the confirmation every method shares), cards.ts (card
 * payments), stored-card.ts (stored cards and their challenges), views.ts (the booking as shown, the buyer's bookings), rules.ts (texts and rules
 * without the database).
 */
export { cancelBooking, createBooking, type NewBooking, updateAttendees } from './bookings';
export {
  cardPaymentOwner,
  confirmWithCard,
  createCardIntent,
  noteCardFailure,
} from './cards';
export { createCart, type NewCart } from './carts';
export { HOLD_ENDED_REASON } from './holds';
export { confirmWithWallet } from './payments';
export {
  type Attendee,
  type BillingInput,
  type Booking,
  bookingNoOf,
  type Cart,
  CONFIRMED_MESSAGE,
  GUESTS_MISSING_MESSAGE,
  LATE_PAYMENT_REASON,
  money,
  NO_BILLING_ADDRESS_MESSAGE,
  type Outcome,
  type PaymentResult,
  UNPAYABLE,
} from './rules';
export { payWithStoredCard, submitStoredCardDetails } from './stored-card';
export { bookingHistory, findBooking, ownsBooking } from './views';
