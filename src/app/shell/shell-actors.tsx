import { createActorContext, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { kycGateMachine } from '../../../machines/kyc-gate.machine';
import type { menuCountsMachine } from '../../../machines/menu-counts.machine';
import type { MenuPreference } from '../../../machines/side-menu.machine';
import { sideMenuMachine } from '../../../machines/side-menu.machine';
import { supportInfoMachine } from '../../../machines/support-info.machine';
import { useSessionChild } from '../session';

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

/**
 * Reads the menu counts, which run in the actor system (as `menuCounts`, a child of the KYC gate) while the
 * portal is open; the selector gets undefined while they do not run (logged out, or held by KYC).
 */
export function useMenuCounts<T>(
  selector: (snapshot: SnapshotFrom<typeof menuCountsMachine> | undefined) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  const gate = useSessionChild<typeof kycGateMachine>('kycGate') as GateRef | undefined;
  const counts = useSelector(gate, (snapshot) => snapshot?.children.menuCounts as CountsRef | undefined);
  return useSelector(counts, selector, compare);
}
