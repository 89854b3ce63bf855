import { addListingMachine, type ListingValues } from '../../../../machines/add-listing.machine';
import { Session } from '../../../app/session';
import { useViewActor } from '../../../app/view-actor';
import { stack } from '../listing-styles';
import { Flow } from './flow';
import { RequestEvent } from './request-event';

/** add-listings, Add Inventory: find the match, fill the listing with the market beside the price, or ask for the event. */
export default function AddListingsPage() {
  const currency = Session.useSelector((s) => s.context.account?.currency) as ListingValues['currency'] | undefined;
  const add = useViewActor(addListingMachine, 'add-listing', { currency: currency ?? 'GBP' });
  if (!add) return null;
  return (
    <div className={stack}>
      <Flow add={add} />
      <RequestEvent add={add} />
    </div>
  );
}
