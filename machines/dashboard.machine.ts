import { assign, emit, fromPromise, raise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { type components, currencyCodeValues } from '../openapi/schema';

export type Currency = components['schemas']['CurrencyCode'];
/** The currencies the dashboard offers: the contract's CurrencyCode values. */
export const CURRENCIES: readonly Currency[] = currencyCodeValues;

export type SalesOverview = DataOf<'/dashboard/sales-overview', 'get'>;
export type AwaitingDelivery = DataOf<'/dashboard/awaiting-delivery', 'get'>;
export type DashboardNotifications = DataOf<'/dashboard/notifications', 'get'>;
export type TopSellingEvents = DataOf<'/dashboard/top-selling-events', 'get'>;
export type DashboardActivity = DataOf<'/dashboard/activity', 'get'>;
/** The report widget: the last 30 days against the 30 before, with a point a day (issue 14). */
export type DashboardReport = DataOf<'/dashboard/reports', 'get'>;

/** Where the chosen currency is kept between visits (local storage per user in the browser). */
export interface CurrencyMemory {
  read(): string | null;
  write(currency: Currency): void;
}

export interface DashboardInput {
  /** The user's own currency: the dashboard opens in it unless another was chosen before. */
  currency?: Currency;
  memory?: CurrencyMemory;
}

const isCurrency = (value: unknown): value is Currency => CURRENCIES.includes(value as Currency);

export interface DashboardContext {
  currency: Currency;
  memory: CurrencyMemory | null;
  overview: SalesOverview | null;
  awaiting: AwaitingDelivery | null;
  notifications: DashboardNotifications | null;
  topEvents: TopSellingEvents | null;
  activity: DashboardActivity | null;
  report: DashboardReport | null;
}

export type DashboardEvent =
  | { type: 'currency.changed'; currency: Currency }
  | { type: 'widget.retried' }
  /** Raised once the chosen currency is set: the money widgets reload in it. */
  | { type: 'currency.applied' };

export const FAILED = 'Failed to fetch data';

/** One widget of the dashboard: loading with a skeleton, its data, or 'Failed to fetch data' with Retry. */
function widget(id: string, key: keyof DashboardContext, currencyBound: boolean) {
  const region = {
    initial: 'loading' as const,
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id,
          src: id,
          input: ({ context }: { context: DashboardContext }) => ({ currency: context.currency }),
          onDone: {
            target: 'ready' as const,
            actions: assign({ [key]: ({ event }: { event: { output: unknown } }) => event.output } as never),
          },
          onError: {
            target: 'failed' as const,
            actions: emit({ type: 'notify', level: 'error', message: FAILED } as const),
          },
        },
      },
      ready: {},
      failed: { tags: ['error'], on: { 'widget.retried': 'loading' as const } },
    },
    on: currencyBound ? { 'currency.applied': { target: '.loading' as const, reenter: true } } : {},
  };
  // one shape for five regions: XState's config types cannot follow a factory, the model tests do
  return region as never;
}

/**
 * The dashboard: sales overview, awaiting delivery, notifications, top selling events and activity, loaded
 * side by side in the currency chosen last time, else the user's own (GBP by default). Choosing another
 * currency remembers it and reloads the money widgets.
 */
export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    input: {} as DashboardInput,
    events: {} as DashboardEvent,
    emitted: {} as { type: 'notify'; level: 'error'; message: string },
  },
  guards: {
    isOtherCurrency: ({ context, event }) => event.type === 'currency.changed' && event.currency !== context.currency,
  },
  actions: {
    chooseCurrency: assign({
      currency: ({ context, event }) => (event.type === 'currency.changed' ? event.currency : context.currency),
    }),
    rememberCurrency: ({ context }) => context.memory?.write(context.currency),
  },
  actors: {
    loadOverview: fromPromise<SalesOverview, { currency: Currency }>(async ({ input }) =>
      unwrap(await api.GET('/dashboard/sales-overview', { params: { query: input } }), FAILED),
    ),
    loadAwaiting: fromPromise<AwaitingDelivery, { currency: Currency }>(async ({ input }) =>
      unwrap(await api.GET('/dashboard/awaiting-delivery', { params: { query: input } }), FAILED),
    ),
    loadNotifications: fromPromise<DashboardNotifications>(async () =>
      unwrap(await api.GET('/dashboard/notifications'), FAILED),
    ),
    loadTopEvents: fromPromise<TopSellingEvents, { currency: Currency }>(async ({ input }) =>
      unwrap(await api.GET('/dashboard/top-selling-events', { params: { query: input } }), FAILED),
    ),
    loadActivity: fromPromise<DashboardActivity>(async () => unwrap(await api.GET('/dashboard/activity'), FAILED)),
    loadReport: fromPromise<DashboardReport, { currency: Currency }>(async ({ input }) =>
      unwrap(await api.GET('/dashboard/reports', { params: { query: input } }), FAILED),
    ),
  },
}).createMachine({
  id: 'dashboard',
  context: ({ input }) => {
    // the currency chosen last time (read once, as the dashboard opens), else the user's own
    const remembered = input.memory?.read();
    return {
      currency: isCurrency(remembered) ? remembered : (input.currency ?? 'GBP'),
      memory: input.memory ?? null,
      overview: null,
      awaiting: null,
      notifications: null,
      topEvents: null,
      activity: null,
      report: null,
    };
  },
  type: 'parallel',
  on: {
    'currency.changed': {
      guard: 'isOtherCurrency',
      actions: ['chooseCurrency', 'rememberCurrency', raise({ type: 'currency.applied' })],
    },
  },
  states: {
    overview: widget('loadOverview', 'overview', true),
    awaiting: widget('loadAwaiting', 'awaiting', true),
    notifications: widget('loadNotifications', 'notifications', false),
    topEvents: widget('loadTopEvents', 'topEvents', true),
    activity: widget('loadActivity', 'activity', false),
    report: widget('loadReport', 'report', true),
  },
});
