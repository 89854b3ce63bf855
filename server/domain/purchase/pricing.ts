import type { components } from '../../../openapi/schema';

export type CurrencyCode = components['schemas']['CurrencyCode'];
export type PaymentMethod = components['schemas']['PaymentMethodCode'];
export type PriceBreakdown = components['schemas']['PriceBreakdown'];
export type SplitType = components['schemas']['SplitType'];

/**
 * The fee schedule of a purchase (documented in the contract's PriceBreakdown). Every amount is an integer of
 * minor units; a percentage is in basis points (1/100 of a percent) and rounded half up to the minor unit.
 */
/** The platform's service fee: 10% of the tickets' sub total. */
export const SERVICE_FEE_BPS = 1000;
/** VAT on the service fee (the tickets themselves are the seller's): 20%. */
export const TAX_ON_SERVICE_FEE_BPS = 2000;
/** Shipping of physical tickets (paper, members card), per booking: 15.00 GBP, converted. */
export const SHIPPING_FEE_GBP = 1500;
/** The ticket types that travel by post. */
export const SHIPPED_TICKET_TYPES: ReadonlySet<number> = new Set([3, 4]);
/**
 * The payment fee by method, on the grand total: none for any (docs/decisions/no-payment-surcharge.md). The spec's
 * 2.5% card and 1.5% stored-card fees are surcharges, which the UK and the EU ban on consumer cards: the price is
 * the same by SB Pay, a new card or a stored card, and the service fee covers the cost of payment.
 */
export const PAYMENT_FEE_BPS: Readonly<Record<PaymentMethod, number>> = { 1: 0, 2: 0, 3: 0 };
export const PAYMENT_METHOD_NAMES: Readonly<Record<PaymentMethod, 'SB Pay' | 'Card' | 'Stored card'>> = {
  1: 'SB Pay',
  2: 'Card',
  3: 'Stored card',
};
/** How long a cart holds its tickets. */
export const HOLD_MINUTES = 15;
export const HOLD_MS = HOLD_MINUTES * 60_000;
/** The most tickets one purchase may take. */
export const MAX_PURCHASE_QUANTITY = 100;

/**
 * Fixed demo exchange rates, as units of each currency per 1 GBP, times 10,000 (so that conversion is integer
 * arithmetic): GBP 1, EUR 1.17, USD 1.27, AED 4.66.
 */
export const RATES_PER_GBP: Readonly<Record<CurrencyCode, number>> = {
  GBP: 10_000,
  EUR: 11_700,
  USD: 12_700,
  AED: 46_600,
};

/**
 * The minimum charge (docs/decisions/minimum-charge.md). Per ticket: a listing asks at least MIN_TICKET_PRICE
 * minor units of its own currency, 5.00 of any of them (the contract's ListingPrice minimum). Per booking: the
 * grand total is at least MIN_CHARGE of the buyer's currency, the least a card gateway charges (Stripe's minimum
 * charge amounts; the contract's PriceBreakdown x-minimum-charge). At the fixed rates one ticket at the least
 * price clears every currency's minimum charge (pricing.test.ts): the per-booking rule catches a listing stored
 * before the per-ticket one, and a rate moved far.
 */
export const MIN_TICKET_PRICE = 500;
export const MIN_CHARGE: Readonly<Record<CurrencyCode, number>> = { GBP: 30, EUR: 50, USD: 50, AED: 200 };

/** 12345 -> '123.45', 5 -> '0.05': an amount of minor units as a person writes it (no currency). */
export const amountText = (minor: number) =>
  `${Math.floor(minor / 100).toLocaleString('en-GB')}.${String(minor % 100).padStart(2, '0')}`;

/** Why a purchase cannot be priced: the answer's sentence, and its field error. */
export interface PricingProblem {
  message: string;
  error: { path: string; message: string };
}

/**
 * Why a purchase cannot be priced, or null: a listing asking less than the least price per ticket (one stored
 * before the rule), or a total below the minimum charge of the buyer's currency. `paths` says where the listing
 * and the quantity were given (the field errors of the 422).
 */
export function pricingProblem(
  listing: { price: number; currency: string },
  breakdown: Pick<PriceBreakdown, 'grand_total' | 'currency'>,
  paths: { listing: string; quantity: string },
): PricingProblem | null {
  if (listing.price < MIN_TICKET_PRICE) {
    const asks = `${listing.currency} ${amountText(listing.price)}`;
    const least = `${listing.currency} ${amountText(MIN_TICKET_PRICE)}`;
    return {
      message: `These tickets cannot be bought: they ask ${asks} each, below the least price of ${least} a ticket.`,
      error: { path: paths.listing, message: `asks ${asks} a ticket, below the least price of ${least}` },
    };
  }
  return chargeProblem(breakdown, paths.quantity);
}

/**
 * Why a total cannot be charged (below the minimum charge of its currency), or null; the error is on `path`, and
 * `advice` ends the sentence (what the buyer can do).
 */
export function chargeProblem(
  breakdown: Pick<PriceBreakdown, 'grand_total' | 'currency'>,
  path: string,
  advice = 'Choose more tickets.',
): PricingProblem | null {
  const least = MIN_CHARGE[breakdown.currency];
  if (breakdown.grand_total >= least) return null;
  const total = `${breakdown.currency} ${amountText(breakdown.grand_total)}`;
  const minimum = `${breakdown.currency} ${amountText(least)}`;
  return {
    message: `The total, ${total}, is below the minimum charge of ${minimum} a booking. ${advice}`,
    error: { path, message: `makes a total of ${total}, below the minimum charge of ${minimum}` },
  };
}

/** a * b / d rounded half up, in integers (exact while a * b stays below 2^53). */
export function mulDivRound(a: number, b: number, d: number): number {
  const product = a * b;
  if (!Number.isSafeInteger(product)) throw new RangeError(`${a} x ${b} is past exact integer arithmetic`);
  return Math.floor((product + Math.floor(d / 2)) / d);
}

/**
 * `amount` minor units of `from` in minor units of `to` at the fixed rates, rounded half up, but never a positive
 * amount to zero (AED 0.01 is GBP 0.0021: it converts to GBP 0.01, not to nothing).
 */
export function convert(amount: number, from: CurrencyCode, to: CurrencyCode): number {
  if (from === to) return amount;
  const converted = mulDivRound(amount, RATES_PER_GBP[to], RATES_PER_GBP[from]);
  return amount > 0 ? Math.max(1, converted) : converted;
}

export const percentOf = (amount: number, bps: number) => mulDivRound(amount, bps, 10_000);

/** The whole price of `quantity` tickets at `unitPrice` (already in `currency`), paid by `method`. */
export function priceBreakdown(input: {
  currency: CurrencyCode;
  unitPrice: number;
  quantity: number;
  ticketTypeId: number;
  method: PaymentMethod;
}): PriceBreakdown {
  const sub_total = input.unitPrice * input.quantity;
  const service_fee = percentOf(sub_total, SERVICE_FEE_BPS);
  const shipping_fee = SHIPPED_TICKET_TYPES.has(input.ticketTypeId)
    ? convert(SHIPPING_FEE_GBP, 'GBP', input.currency)
    : 0;
  const tax = percentOf(service_fee, TAX_ON_SERVICE_FEE_BPS);
  const grand_total = sub_total + service_fee + shipping_fee + tax;
  const payment_fee = percentOf(grand_total, PAYMENT_FEE_BPS[input.method]);
  return {
    currency: input.currency,
    ticket_quantity: input.quantity,
    ticket_price: input.unitPrice,
    sub_total,
    service_fee,
    shipping_fee,
    tax,
    payment_method: input.method,
    payment_fee,
    total_with_payment_fee: grand_total + payment_fee,
    grand_total,
  };
}

/**
 * The all-in price: what a buyer pays for `quantity` tickets, fees included (the booking's total). It is the
 * breakdown's own total, by the one function that prices the booking, so the price shown first and the total to pay
 * cannot differ; no method adds to it.
 */
export const allInPrice = (input: Omit<Parameters<typeof priceBreakdown>[0], 'method'>) =>
  priceBreakdown({ ...input, method: 1 }).total_with_payment_fee;

/**
 * The quantities one purchase may take from a listing with `available` tickets left: any (1..n), pairs (even
 * numbers), all together (only n), avoid single (any that does not leave exactly one behind). At most
 * MAX_PURCHASE_QUANTITY.
 */
export function splitList(splitType: string, available: number): number[] {
  const n = Math.min(Math.max(available, 0), MAX_PURCHASE_QUANTITY);
  const all = Array.from({ length: n }, (_, i) => i + 1);
  switch (splitType) {
    case 'pairs':
      return all.filter((q) => q % 2 === 0);
    case 'all_together':
      return available >= 1 && available <= MAX_PURCHASE_QUANTITY ? [available] : [];
    case 'avoid_single':
      return all.filter((q) => available - q !== 1);
    default:
      return all;
  }
}

export const TICKET_TYPE_NAMES: Readonly<Record<number, string>> = {
  1: 'E-ticket',
  2: 'Mobile ticket',
  3: 'Paper ticket',
  4: 'Members card',
  5: 'PDF ticket',
  6: 'Collection at the venue',
};
