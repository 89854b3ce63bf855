import { useSelector } from '@xstate/react';
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { inventoryListMachine, inventoryMachine } from '../../../../machines/inventory.machine';

export type InventoryRef = ActorRefFrom<typeof inventoryMachine>;
export type ListRef = ActorRefFrom<typeof inventoryListMachine>;

export const InventoryContext = createContext<InventoryRef | null>(null);

/** The Inventory page's machine (the page provides it). */
export function useInventory(): InventoryRef {
  const inventory = useContext(InventoryContext);
  if (!inventory) throw new Error('useInventory needs the Inventory page');
  return inventory;
}

/** The listings' list machine, the Inventory machine's child. */
export function useList(): ListRef | undefined {
  return useSelector(useInventory(), (s) => s.children.listings) as ListRef | undefined;
}
