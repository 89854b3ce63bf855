import { setup } from 'xstate';

/** Where the desktop width preference is kept (local storage in the browser). */
export interface MenuPreference {
  readExpanded(): boolean | null;
  writeExpanded(expanded: boolean): void;
}

export interface SideMenuInput {
  preference: MenuPreference;
  /** Open the Sales sub-list at first (the page is a sales page); `sales.revealed` opens it on the way in. */
  salesOpen?: boolean;
}

export type SideMenuEvent =
  | { type: 'menu.toggled' }
  | { type: 'drawer.opened' }
  | { type: 'drawer.closed' }
  | { type: 'sales.toggled' }
  | { type: 'sales.revealed' }
  | { type: 'notifications.opened' }
  | { type: 'notifications.closed' };

/**
 * The side menu. On desktop it is expanded (200 px) or collapsed (60 px), remembered across reloads; on a
 * phone (width up to 768 px) it is a top bar whose drawer slides in. The Sales sub-list opens and closes on
 * its own. The notifications panel opens from its entry.
 */
export const sideMenuMachine = setup({
  types: {
    context: {} as { preference: MenuPreference; salesOpen: boolean },
    input: {} as SideMenuInput,
    events: {} as SideMenuEvent,
  },
  guards: {
    wasCollapsed: ({ context }) => context.preference.readExpanded() === false,
    salesStartsOpen: ({ context }) => context.salesOpen,
  },
  actions: {
    rememberExpanded: ({ context }) => context.preference.writeExpanded(true),
    rememberCollapsed: ({ context }) => context.preference.writeExpanded(false),
  },
}).createMachine({
  id: 'sideMenu',
  context: ({ input }) => ({ preference: input.preference, salesOpen: input.salesOpen ?? false }),
  type: 'parallel',
  states: {
    width: {
      initial: 'restoring',
      states: {
        restoring: { always: [{ guard: 'wasCollapsed', target: 'collapsed' }, { target: 'expanded' }] },
        expanded: {
          description: '200 px, with labels.',
          on: { 'menu.toggled': { target: 'collapsed', actions: 'rememberCollapsed' } },
        },
        collapsed: {
          description: '60 px, icons only; badges over 10 show 10+; Sales leads to its first non-empty page.',
          on: { 'menu.toggled': { target: 'expanded', actions: 'rememberExpanded' } },
        },
      },
    },
    drawer: {
      description: 'Phones only.',
      initial: 'closed',
      states: {
        closed: { on: { 'drawer.opened': 'open' } },
        open: { on: { 'drawer.closed': 'closed' } },
      },
    },
    notificationsPanel: {
      description: 'The notifications popup (a dropdown card on phones), opened from its menu entry.',
      initial: 'closed',
      states: {
        closed: { on: { 'notifications.opened': 'open' } },
        open: { on: { 'notifications.closed': 'closed', 'drawer.opened': 'closed' } },
      },
    },
    salesList: {
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'salesStartsOpen', target: 'open' }, { target: 'closed' }] },
        closed: { on: { 'sales.toggled': 'open', 'sales.revealed': 'open' } },
        open: { on: { 'sales.toggled': 'closed' } },
      },
    },
  },
});
