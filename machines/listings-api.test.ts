import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { listingSchema, newPriceProblem, PRICE_BOUNDS, requestKeys } from './listings-api';

describe('the least price per ticket, as the contract says it', () => {
  it('bounds the listing form and the new price of a selection, and says the bounds in words', () => {
    expect(PRICE_BOUNDS).toEqual({ least: 500, most: 10_000_000, text: 'From 5.00 to 100,000.00 a ticket.' });
    expect(newPriceProblem(499)).toBe('A ticket costs at least 5.00.');
    expect(newPriceProblem(10_000_001)).toBe('A ticket costs at most 100,000.00.');
    expect(newPriceProblem(500)).toBeNull();
    expect(newPriceProblem(null)).toBeNull();
    const form = v.safeParse(listingSchema.entries.price, 1);
    expect(form.success ? null : form.issues[0]?.message).toBe('A ticket costs at least 5.00.');
  });
});

describe('idempotency keys of the listing writes', () => {
  const values = { match_id: 3, category: 'Longside', quantity: 2, price: 12_500, notes: 'Aisle' };

  it('keeps the key of the same values until a call with them succeeds, so a retry replays and creates once', () => {
    const keys = requestKeys();
    const first = keys.keyFor(values);
    expect(keys.keyFor({ ...values })).toBe(first);
    expect(first).toMatch(/^[\x21-\x7e]{8,255}$/);
    keys.succeeded();
    expect(keys.keyFor(values)).not.toBe(first);
  });

  it('takes a new key for other values, and tells files apart by name, size and date', () => {
    const keys = requestKeys();
    expect(keys.keyFor({ ...values, price: 12_600 })).not.toBe(keys.keyFor(values));
    const a = new File(['%PDF-1.7 a'], 'ticket.pdf', { lastModified: 1 });
    const b = new File(['%PDF-1.7 ab'], 'ticket.pdf', { lastModified: 1 });
    expect(keys.keyFor(a)).toBe(keys.keyFor(new File(['%PDF-1.7 a'], 'ticket.pdf', { lastModified: 1 })));
    expect(keys.keyFor(a)).not.toBe(keys.keyFor(b));
    expect(keys.keyFor({ files: [a] })).not.toBe(keys.keyFor({ files: [b] }));
  });

  it('gives each kind of write keys of its own', () => {
    expect(requestKeys().keyFor(values)).not.toBe(requestKeys().keyFor(values));
  });
});
