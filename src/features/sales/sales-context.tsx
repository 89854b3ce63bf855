import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type { salesMachine } from '../../../machines/sales.machine';
import type { salesOrderMachine } from '../../../machines/sales-order.machine';

export type SalesRef = ActorRefFrom<typeof salesMachine>;
export type DrawerRef = ActorRefFrom<typeof salesOrderMachine>;

export const SalesContext = createContext<SalesRef | null>(null);

export function useSales(): SalesRef {
  const sales = useContext(SalesContext);
  if (!sales) throw new Error('useSales needs the Sales page');
  return sales;
}

/** The order drawer's actor (the Sales page's child). */
export function useDrawer(): DrawerRef | undefined {
  return useSelector(useSales(), (s) => s.children.order) as DrawerRef | undefined;
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className={css({ display: 'grid', gap: '2' })}>
      <h3 className={css({ fontWeight: 'semibold' })}>{title}</h3>
      {children}
    </section>
  );
}
