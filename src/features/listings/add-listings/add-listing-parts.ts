import type { ActorRefFrom } from 'xstate';
import type {
  addListingMachine,
  eventRequestFormMachine,
  listingFormMachine,
  matchSearchMachine,
} from '../../../../machines/add-listing.machine';
import type { listingRestrictionValues } from '../../../../openapi/schema';

export type AddRef = ActorRefFrom<typeof addListingMachine>;
export type SearchRef = ActorRefFrom<typeof matchSearchMachine>;
export type FormRef = ActorRefFrom<typeof listingFormMachine>;
export type RequestRef = ActorRefFrom<typeof eventRequestFormMachine>;

export const TICKET_FILE_RULES = { types: ['pdf', 'jpg', 'jpeg', 'png'], maxMb: 5 };
export const RESTRICTION_LABELS: Record<(typeof listingRestrictionValues)[number], string> = {
  restricted_view: 'Restricted view',
  age_restriction: 'Age restriction',
  home_fans_only: 'Home fans only',
  away_fans_only: 'Away fans only',
  members_only: 'Members only',
  id_required: 'ID required',
  wheelchair_access: 'Wheelchair access',
  alcohol_free: 'Alcohol-free area',
};
export const REQUEST_STATUS: Record<string, string> = {
  pending: 'Pending review',
  approved: 'Added',
  rejected: 'Rejected',
};
