import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';

export type SellerLevelSummary = DataOf<'/settings/seller-level', 'get'>['seller_level'];
export type SellerLevel = DataOf<'/settings/seller-level-list', 'get'>['seller_levels'][number];

export interface SellerLevels {
  summary: SellerLevelSummary;
  levels: SellerLevel[];
}

/** The spec's panel offsets (section 9): beside the collapsed menu, and in full display. */
export const SELLER_PANEL_OFFSET_PX = 60;
export const SELLER_PANEL_FULL_OFFSET_PX = 165;

export interface SellerPanelContext {
  data: SellerLevels | null;
  /** The level the carousel shows (an index into the levels). */
  index: number;
}

export type SellerPanelEvent =
  | { type: 'panel.toggled' }
  | { type: 'panel.closed' }
  | { type: 'panel.retried' }
  | { type: 'level.next' }
  | { type: 'level.previous' };

const activeIndex = (data: SellerLevels) =>
  Math.max(
    0,
    data.levels.findIndex((l) => l.is_active === 1),
  );

/**
 * The seller panel, opened from the user's name in the desktop side menu: Settings and Logout, the seller's
 * level this quarter (level, quarter, days left, GTV so far, what keeps the level, the forecast at this
 * quarter's pace) and the carousel of the three levels with their thresholds and benefits, which opens at
 * the current level. The levels load each time the panel opens (GTV moves with every completed sale).
 */
export const sellerPanelMachine = setup({
  types: {
    context: {} as SellerPanelContext,
    events: {} as SellerPanelEvent,
  },
  actors: {
    loadLevels: fromPromise<SellerLevels>(async ({ signal }) => {
      const [summary, list] = await Promise.all([
        api.GET('/settings/seller-level', { params: { query: { currency: 'GBP' } }, signal }),
        api.GET('/settings/seller-level-list', { signal }),
      ]);
      return { summary: unwrap(summary).seller_level, levels: unwrap(list).seller_levels };
    }),
  },
  guards: {
    hasNext: ({ context }) => context.data !== null && context.index < context.data.levels.length - 1,
    hasPrevious: ({ context }) => context.index > 0,
  },
  actions: {
    storeLevels: assign((_, data: SellerLevels) => ({ data, index: activeIndex(data) })),
    next: assign({ index: ({ context }) => context.index + 1 }),
    previous: assign({ index: ({ context }) => context.index - 1 }),
  },
}).createMachine({
  id: 'sellerPanel',
  context: { data: null, index: 0 },
  initial: 'closed',
  states: {
    closed: { on: { 'panel.toggled': 'open' } },
    open: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadLevels',
            src: 'loadLevels',
            onDone: { target: 'shown', actions: { type: 'storeLevels', params: ({ event }) => event.output } },
            onError: 'failed',
          },
        },
        shown: {
          description: 'The carousel, at the current level first; Previous and Next move between the three.',
          on: {
            'level.next': { guard: 'hasNext', actions: 'next' },
            'level.previous': { guard: 'hasPrevious', actions: 'previous' },
          },
        },
        failed: { tags: ['error'], on: { 'panel.retried': 'loading' } },
      },
      on: { 'panel.toggled': 'closed', 'panel.closed': 'closed' },
    },
  },
});
