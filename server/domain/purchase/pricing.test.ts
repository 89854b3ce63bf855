import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACT_FILE } from '../../contract/contract';
import {
  allInPrice,
  type CurrencyCode,
  convert,
  MIN_CHARGE,
  MIN_TICKET_PRICE,
  mulDivRound,
  PAYMENT_FEE_BPS,
  type PaymentMethod,
  priceBreakdown,
  pricingProblem,
  RATES_PER_GBP,
  splitList,
} from './pricing';

describe('the price of a purchase', () => {
  it('adds the service fee, VAT on it, and no shipping for e-tickets; SB Pay has no payment fee', () => {
    expect(priceBreakdown({ currency: 'GBP', unitPrice: 12_500, quantity: 2, ticketTypeId: 1, method: 1 })).toEqual({
      currency: 'GBP',
      ticket_quantity: 2,
      ticket_price: 12_500,
      sub_total: 25_000,
      service_fee: 2_500,
      shipping_fee: 0,
      tax: 500,
      payment_method: 1,
      payment_fee: 0,
      total_with_payment_fee: 28_000,
      grand_total: 28_000,
    });
  });

  it('charges shipping for paper tickets and members cards, converted; no method adds a payment surcharge', () => {
    const card = priceBreakdown({ currency: 'EUR', unitPrice: 10_000, quantity: 1, ticketTypeId: 3, method: 2 });
    // 15.00 GBP at 1.17 = 17.55 EUR
    expect(card.shipping_fee).toBe(1_755);
    expect(card.grand_total).toBe(10_000 + 1_000 + 1_755 + 200);
    expect(PAYMENT_FEE_BPS).toEqual({ 1: 0, 2: 0, 3: 0 });
    expect(card.payment_fee).toBe(0);
    expect(card.total_with_payment_fee).toBe(card.grand_total);
    const stored = priceBreakdown({ currency: 'EUR', unitPrice: 10_000, quantity: 1, ticketTypeId: 4, method: 3 });
    const wallet = priceBreakdown({ currency: 'EUR', unitPrice: 10_000, quantity: 1, ticketTypeId: 4, method: 1 });
    expect(stored.payment_fee).toBe(0);
    expect(stored.total_with_payment_fee).toBe(wallet.total_with_payment_fee);
    // the all-in price shown first is the booking's total to pay, by any method
    expect(allInPrice({ currency: 'EUR', unitPrice: 10_000, quantity: 1, ticketTypeId: 4 })).toBe(
      stored.total_with_payment_fee,
    );
    expect(
      priceBreakdown({ currency: 'GBP', unitPrice: 10_000, quantity: 1, ticketTypeId: 5, method: 1 }).shipping_fee,
    ).toBe(0);
  });

  it('rounds every percentage half up to the minor unit, in integers', () => {
    expect(mulDivRound(5, 1000, 10_000)).toBe(1); // 0.5 -> 1
    expect(mulDivRound(4, 1000, 10_000)).toBe(0); // 0.4 -> 0
    const b = priceBreakdown({ currency: 'GBP', unitPrice: 333, quantity: 3, ticketTypeId: 2, method: 2 });
    for (const v of Object.values(b)) if (typeof v === 'number') expect(Number.isInteger(v)).toBe(true);
    expect(b.service_fee).toBe(100); // 99.9
    expect(b.tax).toBe(20);
  });

  it('converts at the fixed rates, both ways, rounding half up', () => {
    expect(convert(10_000, 'GBP', 'USD')).toBe(12_700);
    expect(convert(12_700, 'USD', 'GBP')).toBe(10_000);
    expect(convert(46_600, 'AED', 'EUR')).toBe(11_700);
    expect(convert(1, 'GBP', 'AED')).toBe(5); // 4.66
    expect(() => convert(2 ** 52, 'GBP', 'AED')).toThrow(RangeError);
  });
});

describe('the minimum charge', () => {
  const currencies = Object.keys(RATES_PER_GBP) as CurrencyCode[];

  it('never converts a positive price to nothing: AED 0.01 is GBP 0.01, not 0', () => {
    expect(convert(1, 'AED', 'GBP')).toBe(1);
    expect(convert(2, 'AED', 'GBP')).toBe(1);
    expect(convert(3, 'AED', 'GBP')).toBe(1);
    expect(convert(0, 'AED', 'GBP')).toBe(0);
    for (const from of currencies) for (const to of currencies) expect(convert(1, from, to)).toBeGreaterThan(0);
  });

  it("lets one ticket at the least price clear every currency's minimum charge, by every method and type", () => {
    for (const from of currencies)
      for (const to of currencies)
        for (const method of [1, 2, 3] as PaymentMethod[])
          for (const ticketTypeId of [1, 2, 3, 4, 5, 6]) {
            const b = priceBreakdown({
              currency: to,
              unitPrice: convert(MIN_TICKET_PRICE, from, to),
              quantity: 1,
              ticketTypeId,
              method,
            });
            expect(b.grand_total, `${from} -> ${to}`).toBeGreaterThanOrEqual(MIN_CHARGE[to]);
            expect(
              pricingProblem({ price: MIN_TICKET_PRICE, currency: from }, b, { listing: 'l', quantity: 'q' }),
            ).toBe(null);
          }
  });

  it('says why a purchase cannot be priced: the listing asks too little, or the total is under the minimum', () => {
    const paths = { listing: '/query/sell_ticket_id', quantity: '/query/quantity' };
    const total = (grand_total: number, currency: CurrencyCode = 'GBP') => ({ grand_total, currency });
    expect(pricingProblem({ price: 1, currency: 'AED' }, total(5000), paths)).toEqual({
      message: 'These tickets cannot be bought: they ask AED 0.01 each, below the least price of AED 5.00 a ticket.',
      error: { path: '/query/sell_ticket_id', message: 'asks AED 0.01 a ticket, below the least price of AED 5.00' },
    });
    expect(pricingProblem({ price: 500, currency: 'GBP' }, total(29), paths)?.error).toEqual({
      path: '/query/quantity',
      message: 'makes a total of GBP 0.29, below the minimum charge of GBP 0.30',
    });
    expect(pricingProblem({ price: 500, currency: 'GBP' }, total(30), paths)).toBe(null);
    expect(pricingProblem({ price: 500, currency: 'GBP' }, total(199, 'AED'), paths)?.message).toBe(
      'The total, AED 1.99, is below the minimum charge of AED 2.00 a booking. Choose more tickets.',
    );
  });

  it('is the rule the contract states: ListingPrice minimum and PriceBreakdown x-minimum-charge', () => {
    const schemas = parse(readFileSync(CONTRACT_FILE, 'utf8')).components.schemas;
    expect(schemas.ListingPrice.minimum).toBe(MIN_TICKET_PRICE);
    expect(schemas.PriceBreakdown['x-minimum-charge']).toEqual(MIN_CHARGE);
  });
});

describe('split lists', () => {
  it('offers each rule its quantities', () => {
    expect(splitList('any', 4)).toEqual([1, 2, 3, 4]);
    expect(splitList('pairs', 5)).toEqual([2, 4]);
    expect(splitList('all_together', 3)).toEqual([3]);
    expect(splitList('avoid_single', 4)).toEqual([1, 2, 4]);
    expect(splitList('any', 0)).toEqual([]);
    expect(splitList('any', 500)).toHaveLength(100);
  });
});
