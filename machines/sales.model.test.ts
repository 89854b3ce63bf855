import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import {
  EXPORT_FAILED,
  emptySalesFilters,
  type SalesCurrencyOverview,
  type SalesFilters,
  type SalesSort,
  type SavedFile,
  salesMachine,
} from './sales.machine';
import type { SalesStatus } from './sales-statuses';
import { modelPaths, replay, uncovered } from './testing/model';
import { startWithStandIns } from './testing/stand-ins';

const overview: SalesCurrencyOverview[] = [
  {
    currency: 'GBP',
    orders: 3,
    tickets: 7,
    amount: 81_000,
    statuses: [
      { status: 'pending', orders: 1, tickets: 2, amount: 20_000 },
      { status: 'confirmed', orders: 2, tickets: 5, amount: 61_000 },
    ],
  },
];
const arsenal: SalesFilters = { ...emptySalesFilters(), q: 'Arsenal', currency: 'GBP' };
const file: SavedFile = { name: 'sales-confirmed.csv', file: new Blob(['Booking No\n']) };

const events = [
  { type: 'filters.changed', filters: arsenal },
  { type: 'filters.changed', filters: emptySalesFilters() },
  { type: 'sort.changed', sort: 'amount_desc' },
  { type: 'sort.changed', sort: null },
  { type: 'overview.retried' },
  { type: 'export.requested', format: 'xlsx' },
  { type: 'order.changed', id: 5, status: 'delivered' },
  { type: 'xstate.done.actor.loadOverview', output: overview },
  { type: 'xstate.error.actor.loadOverview', error: new Error('offline') },
  { type: 'xstate.done.actor.exportOrders', output: file },
  { type: 'xstate.error.actor.exportOrders', error: new Error('offline') },
];

const start = (status: SalesStatus) =>
  startWithStandIns(salesMachine, {
    settled: ['loadOverview', 'exportOrders'],
    listening: { children: ['orders', 'cockpit', 'order'] },
    input: { status },
  });

/**
 * Awaiting Delivery (confirmed) has the delivery cockpit, every other sub-page not: one set of paths from each.
 */
describe('sales statechart, model-based', () => {
  const sets = (['confirmed', 'pending'] as const).map((status, n) => ({
    status,
    paths: modelPaths(salesMachine, {
      events,
      input: { status },
      story: n === 0 ? '' : `sales/${status}`,
      // what the guards read (the filters), and the sort the list and the export are given
      identity: ({ value, context }) => [value, context.filters.q, context.sort],
      invariant:
        'the list hears each new filter (with the page status) and sort, and a reload when the drawer changed an order, as does the cockpit, which only Awaiting Delivery has; the overview shows what loaded; an export sends the status, filters, sort and format shown',
    }),
  }));

  it('the generated paths of both pages reach every state and every transition', () => {
    const all = sets.flatMap((set) => set.paths);
    expect(uncovered(salesMachine, all)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const { status, paths } of sets) {
    describe(`sales/${status}`, () => {
      for (const path of paths) {
        it(path.description, async () => {
          const run = start(status);
          const toOrders: EventObject[] = [];
          let cockpitReloads = 0;
          let exportAsked: unknown = null;
          let exports = 0;
          let failures = 0;
          await replay(
            path,
            run.actor,
            (event) => {
              const { context } = run.actor.getSnapshot();
              const e = event as EventObject & { filters?: SalesFilters; sort?: SalesSort | null; format?: string };
              // what the list must hear: a filter only when it is a new one
              if (e.type === 'filters.changed' && JSON.stringify(e.filters) !== JSON.stringify(context.filters))
                toOrders.push({ type: 'filters.changed', filters: { ...e.filters, status } } as EventObject);
              if (e.type === 'sort.changed') toOrders.push({ type: 'sort.changed', sort: e.sort } as EventObject);
              if (e.type === 'order.changed') {
                toOrders.push({ type: 'list.refreshed' });
                if (status === 'confirmed') cockpitReloads++;
              }
              if (e.type === 'export.requested' && run.actor.getSnapshot().matches({ export: 'idle' }))
                exportAsked = { status, filters: context.filters, sort: context.sort, format: e.format };
              if (e.type === 'xstate.done.actor.exportOrders') exports++;
              if (e.type === 'xstate.error.actor.exportOrders') failures++;
              return run.perform(event);
            },
            (real) => {
              const { context } = real;
              expect(context.status).toBe(status);
              expect(run.heard('orders')).toEqual(toOrders);
              expect(run.heard('cockpit')).toEqual(Array(cockpitReloads).fill({ type: 'list.refreshed' }));
              expect(real.matches({ cockpit: 'shown' })).toBe(status === 'confirmed');
              expect(real.matches({ cockpit: 'hidden' })).toBe(status !== 'confirmed');
              if (real.matches({ overview: 'loading' })) {
                expect(run.control.isPending('loadOverview')).toBe(true);
                expect(real.hasTag('loadingOverview')).toBe(true);
              }
              if (real.matches({ overview: 'ready' })) expect(context.overview).toEqual(overview);
              expect(real.hasTag('overviewError')).toBe(real.matches({ overview: 'failed' }));
              if (real.matches({ export: 'exporting' })) {
                expect(run.control.pending('exportOrders')?.input).toEqual(exportAsked);
                expect(real.hasTag('exporting')).toBe(true);
              } else expect(run.control.isPending('exportOrders')).toBe(false);
              expect(run.emitted.filter((e) => e.type === 'export.ready')).toEqual(
                Array(exports).fill({ type: 'export.ready', file }),
              );
              expect(run.emitted.filter((e) => e.type === 'notify')).toEqual(
                Array(failures).fill({ type: 'notify', level: 'error', message: EXPORT_FAILED }),
              );
            },
          );
          await run.stop();
        });
      }
    });
  }
});

describe('sales statechart, examples', () => {
  it('exports the list as filtered and sorted, with the page status', async () => {
    const run = start('delivered');
    run.actor.send({ type: 'filters.changed', filters: arsenal });
    run.actor.send({ type: 'sort.changed', sort: 'amount_desc' });
    run.actor.send({ type: 'export.requested', format: 'csv' });
    // a second click while one export runs sends no second one
    run.actor.send({ type: 'export.requested', format: 'xlsx' });
    expect(run.control.pending('exportOrders')?.input).toEqual({
      status: 'delivered',
      filters: arsenal,
      sort: 'amount_desc',
      format: 'csv',
    });
    await run.perform({ type: 'xstate.done.actor.exportOrders', output: file } as EventObject);
    expect(run.emitted).toEqual([{ type: 'export.ready', file }]);
    await run.stop();
  });
});
