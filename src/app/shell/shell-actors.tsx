import { createActorContext, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { kycGateMachine } from '../../../machines/kyc-gate.machine';
import { menuCountsMachine } from '../../../machines/menu-counts.machine';
import { type PermissionName, selectAllowedPermissions } from '../../../machines/session.machine';
import type { MenuPreference } from '../../../machines/side-menu.machine';
import { sideMenuMachine } from '../../../machines/side-menu.machine';
import { supportInfoMachine } from '../../../machines/support-info.machine';
import { Session, useSessionChild } from '../session';
import { useViewActor } from '../view-actor';

export const SideMenu = createActorContext(sideMenuMachine);
export const SupportInfo = createActorContext(supportInfoMachine);

const MENU_KEY = 'sb.menu-expanded';

/** The desktop menu width, remembered in local storage (cleared at logout with the rest of it). */
export const localMenuPreference: MenuPreference = {
  readExpanded() {
    const value = globalThis.localStorage?.getItem(MENU_KEY);
    return value === null || value === undefined ? null : value === 'true';
  },
  writeExpanded(expanded) {
    globalThis.localStorage?.setItem(MENU_KEY, String(expanded));
  },
};

export type KycGateState = 'open' | 'notSubmitted' | 'rejected' | 'awaitingSeller';

type GateRef = ActorRefFrom<typeof kycGateMachine>;
type CountsRef = ActorRefFrom<typeof menuCountsMachine>;

/** Where the KYC gate (the session's child) stands; 'open' whenever it is not running. */
export function useKycGate(): KycGateState {
  const gate = useSessionChild<typeof kycGateMachine>('kycGate') as GateRef | undefined;
  return useSelector(gate, (snapshot) => {
    if (!snapshot || snapshot.matches('open')) return 'open';
    if (snapshot.matches({ held: 'awaitingSeller' })) return 'awaitingSeller';
    return snapshot.matches({ held: 'rejected' }) ? 'rejected' : 'notSubmitted';
  });
}

const COUNTS_KEY = 'menuCounts';

/**
 * Runs the menu counts in the actor system (`menuCounts`) while it is mounted: the shell mounts it while the
 * KYC gate is open (a held user's menu asks for no counts), once per set of permissions.
 */
export function MenuCountsActor() {
  const permissions = Session.useSelector(selectAllowedPermissions, (a, b) => a.join() === b.join());
  return <CountsFor key={permissions.join()} permissions={permissions} />;
}

function CountsFor({ permissions }: { permissions: readonly PermissionName[] }) {
  const input = {
    canSeeSales: permissions.includes('sales'),
    canSeeNotifications: permissions.includes('notification'),
  };
  useViewActor(menuCountsMachine, COUNTS_KEY, input, { systemId: COUNTS_KEY });
  return null;
}

/** Reads the menu counts; the selector gets undefined while they do not run (logged out, or held by KYC). */
export function useMenuCounts<T>(
  selector: (snapshot: SnapshotFrom<typeof menuCountsMachine> | undefined) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  const counts = Session.useSelector((s) => s.context.views[COUNTS_KEY]) as CountsRef | undefined;
  return useSelector(counts, selector, compare);
}
