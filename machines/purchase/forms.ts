import * as v from 'valibot';
import type { components } from '../../openapi/schema';
import { createBookingBody } from '../../openapi/valibot';
import { type FieldErrors, fieldLimits, issuesToErrors } from '../form.machine';

/** The purchase's forms, without the statechart: the billing address and the guests' details (spec section 5). */

type Schemas = components['schemas'];
type Address = Schemas['Address'];
type Booking = Schemas['Booking'];
type GuestField = Schemas['GuestField'];

/** What the buyer's own details are read from: the chosen address, or the billing form. */
export interface BuyerDetails {
  addresses: Address[];
  addressChoice: number | 'other' | null;
  billing: BillingValues;
  countries: Schemas['Country'][];
  cities: Schemas['City'][];
}

/** The billing form (spec section 3), for the 'other' address. */
export interface BillingValues {
  first_name: string;
  last_name: string;
  email: string;
  dialing_code: string;
  mobile_no: string;
  /** The country id. */
  country: number | null;
  /** The city id (optional). */
  city: number | null;
  address: string;
  postal_code: string;
}
export type BillingField = keyof BillingValues;

/** The length limits of the billing fields, from the contract's createBooking body. */
export const BILLING_LIMITS = fieldLimits(createBookingBody());

const required = (message: string, field: BillingField) =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.nonEmpty(message),
    v.maxLength(BILLING_LIMITS[field]?.maxLength ?? 300, `Use at most ${BILLING_LIMITS[field]?.maxLength} characters.`),
  );
const optional = (field: BillingField) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(BILLING_LIMITS[field]?.maxLength ?? 300, `Use at most ${BILLING_LIMITS[field]?.maxLength} characters.`),
  );

/** The spec's mandatory billing fields (section 5): first name, last name, email, address, country, postal code. */
export const billingSchema = v.object({
  first_name: required('Enter the first name.', 'first_name'),
  last_name: required('Enter the last name.', 'last_name'),
  email: v.pipe(required('Enter the email address.', 'email'), v.email('Enter a valid email address.')),
  dialing_code: optional('dialing_code'),
  mobile_no: optional('mobile_no'),
  country: v.number('Choose the country.'),
  city: v.nullable(v.number()),
  address: required('Enter the address.', 'address'),
  postal_code: required('Enter the postal code.', 'postal_code'),
});

export const emptyBilling = (): BillingValues => ({
  first_name: '',
  last_name: '',
  email: '',
  dialing_code: '',
  mobile_no: '',
  country: null,
  city: null,
  address: '',
  postal_code: '',
});

export const billingProblems = (values: BillingValues): FieldErrors => {
  const result = v.safeParse(billingSchema, values, { abortPipeEarly: true });
  return result.success ? {} : issuesToErrors(result.issues);
};

/** The guests' answers: by guest index (the attendee number), each field's value. */
export type GuestValues = Readonly<Record<number, Partial<Record<GuestField, string>>>>;

/** The latest date of birth a guest may have: 31 December of the calendar year two years ago (spec section 5). */
export function latestBirthDate(now: Date): string {
  return `${now.getUTCFullYear() - 2}-12-31`;
}

/** A guest's problems by `<index>.<field>`: every required field non-empty, the date of birth within its bound. */
export function guestProblems(booking: Booking | null, guests: GuestValues, now: Date): FieldErrors {
  const errors: Record<string, string> = {};
  for (const entry of booking?.guest_data.list ?? []) {
    for (const field of entry.required_fields) {
      const value = guests[entry.index]?.[field]?.trim() ?? '';
      if (!value) errors[`${entry.index}.${field}`] = 'This field is required.';
      else if (field === 'date_of_birth' && value > latestBirthDate(now))
        errors[`${entry.index}.${field}`] = `The date of birth must be on or before ${latestBirthDate(now)}.`;
    }
  }
  return errors;
}

/** The guests' answers as the contract's attendees: one per guest, each required field's value. */
export function toAttendees(booking: Booking, guests: GuestValues) {
  return booking.guest_data.list.map((entry) => ({
    attendee_number: entry.index,
    fields: entry.required_fields.map((field) => ({ field, value: guests[entry.index]?.[field]?.trim() ?? '' })),
  }));
}

/** The buyer's own details as guest answers (from the chosen billing address). */
export function buyerAsGuest(context: BuyerDetails): Partial<Record<GuestField, string>> {
  const saved = context.addresses.find((a) => a.address_id === context.addressChoice);
  if (saved) {
    return {
      first_name: saved.first_name,
      last_name: saved.last_name,
      contact_email: saved.email,
      contact_phone: [saved.country_code, saved.mobile_number].filter(Boolean).join(' '),
      country_of_residence: saved.country_name,
      city: saved.city_name ?? '',
      street_name: saved.address,
      zip: saved.zip_code,
    };
  }
  const b = context.billing;
  return {
    first_name: b.first_name,
    last_name: b.last_name,
    contact_email: b.email,
    contact_phone: [b.dialing_code, b.mobile_no].filter(Boolean).join(' '),
    country_of_residence: context.countries.find((c) => c.id === b.country)?.name ?? '',
    city: context.cities.find((c) => c.id === b.city)?.name ?? '',
    street_name: b.address,
    zip: b.postal_code,
  };
}
