import { createActorContext, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { kycGateMachine } from '../../../machines/kyc-gate.machine';
import { menuCountsMachine } from '../../../machines/menu-counts.machine';
import type { MenuPreference } from '../../../machines/side-menu.machine';
import { sideMenuMachine } from '../../../machines/side-menu.machine';
import { supportInfoMachine } from '../../../machines/support-info.machine';
import { Session } from '../session';

export const MenuCounts = createActorContext(menuCountsMachine);
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

export type KycGateState = 'open' | 'notSubmitted' | 'rejected';

/** Where the KYC gate (the session's child) stands; 'open' whenever it is not running. */
export function useKycGate(): KycGateState {
  const gate = Session.useSelector((s) => s.children.kycGate as ActorRefFrom<typeof kycGateMachine> | undefined);
  return useSelector(gate, (snapshot) => {
    if (!snapshot || snapshot.matches('open')) return 'open';
    return snapshot.matches({ held: 'rejected' }) ? 'rejected' : 'notSubmitted';
  });
}
