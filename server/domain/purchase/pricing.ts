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
/** The payment fee by method, on the grand total: SB Pay none, card 2.5%, stored card 1.5%. */
export const PAYMENT_FEE_BPS: Readonly<Record<PaymentMethod, number>> = { 1: 0, 2: 250, 3: 150 };
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

/** a * b / d rounded half up, in integers (exact while a * b stays below 2^53). */
export function mulDivRound(a: number, b: number, d: number): number {
  const product = a * b;
  if (!Number.isSafeInteger(product)) throw new RangeError(`${a} x ${b} is past exact integer arithmetic`);
  return Math.floor((product + Math.floor(d / 2)) / d);
}

/** `amount` minor units of `from` in minor units of `to` at the fixed rates, rounded half up. */
export function convert(amount: number, from: CurrencyCode, to: CurrencyCode): number {
  if (from === to) return amount;
  return mulDivRound(amount, RATES_PER_GBP[to], RATES_PER_GBP[from]);
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
