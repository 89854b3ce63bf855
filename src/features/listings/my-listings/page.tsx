import { useEffect } from 'react';
import { inventoryMachine } from '../../../../machines/inventory.machine';
import { notify } from '../../../app/notify-bridge';
import { useViewActor } from '../../../app/view-actor';
import { stack } from '../listing-styles';
import { ChangeDialog } from './change-dialog';
import { DetailDrawer } from './detail-drawer';
import { Filters } from './filters';
import { InventoryContext } from './inventory-context';
import { ListingsGrid } from './listings-grid';

/**
 * my-listings, Inventory: the seller's listings as a dense grid, one line each, filtered, sorted, with saved views;
 * a price edited in place, a selection (or every listing that matches) repriced, published, unpublished or deleted
 * at once, with Undo or a confirmation that says what will happen.
 */
export default function MyListingsPage() {
  const inventory = useViewActor(inventoryMachine, 'inventory');
  useEffect(() => {
    if (!inventory) return;
    const sub = inventory.on('change.done', ({ message }) => notify({ level: 'success', message }));
    return () => sub.unsubscribe();
  }, [inventory]);
  if (!inventory) return null;
  return (
    <InventoryContext.Provider value={inventory}>
      <div className={stack} style={{ gap: '0.5rem' }}>
        <Filters />
        <ListingsGrid />
        <ChangeDialog />
        <DetailDrawer />
      </div>
    </InventoryContext.Provider>
  );
}
