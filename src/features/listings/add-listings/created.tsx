import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import { routes } from '../../../routes';
import { Button } from '../../../ui/button';
import { money } from '../listing-format';
import { card, muted, sectionTitle } from '../listing-styles';
import type { AddRef } from './add-listing-parts';

export function Created({ add }: { add: AddRef }) {
  const created = useSelector(add, (s) => s.context.created);
  const templates = useSelector(add, (s) => s.context.templates);
  if (!created) return null;
  // the server's answer says which templates the listing carries; their names are the seller's list
  const carried = templates.filter((t) => created.additional_template_ids.includes(t.template_id)).map((t) => t.name);
  return (
    <section aria-labelledby="listing-created" className={card}>
      <h2 id="listing-created" className={sectionTitle}>
        Listing created
      </h2>
      <p>
        {created.quantity} × {created.Category}, block {created.ticket_block}, row {created.row} at{' '}
        {money(created.price, created.currency)} each: {created.status === 'published' ? 'on sale now' : 'unpublished'}.
      </p>
      {carried.length > 0 ? <p className={muted}>With the templates: {carried.join(', ')}.</p> : null}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
        <Button onClick={() => add.send({ type: 'listing.another' })}>Add another</Button>
        <Link href={routes.myListings.pattern}>See it in Inventory</Link>
      </div>
    </section>
  );
}
