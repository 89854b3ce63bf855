import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { type MenuPreference, sideMenuMachine } from './side-menu.machine';
import { modelPaths, replay, uncovered } from './testing/model';

const frozen = (value: boolean | null): MenuPreference => ({ readExpanded: () => value, writeExpanded: () => {} });
const events = [
  { type: 'menu.toggled' },
  { type: 'drawer.opened' },
  { type: 'drawer.closed' },
  { type: 'sales.toggled' },
  { type: 'sales.revealed' },
  { type: 'notifications.opened' },
  { type: 'notifications.closed' },
];
const starts = [
  { stored: null, salesOpen: false },
  { stored: false, salesOpen: true },
  { stored: true, salesOpen: false },
];

describe('side menu statechart, model-based', () => {
  const all = starts.map((s) => ({
    ...s,
    paths: modelPaths(sideMenuMachine, { events, input: { preference: frozen(s.stored), salesOpen: s.salesOpen } }),
  }));

  it('the generated paths reach every state and every transition', () => {
    const { missingStates, missingTransitions } = uncovered(
      sideMenuMachine,
      all.flatMap((a) => a.paths),
    );
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });

  for (const { stored, salesOpen, paths } of all) {
    for (const path of paths) {
      it(`stored ${stored}, sales ${salesOpen ? 'open' : 'closed'}: ${path.description}`, async () => {
        let remembered = stored;
        const preference: MenuPreference = {
          readExpanded: () => remembered,
          writeExpanded: (v) => {
            remembered = v;
          },
        };
        const actor = createActor(sideMenuMachine, { input: { preference, salesOpen } }).start();
        await replay(
          path,
          actor,
          async () => false,
          (real) => {
            // the width shown is the width remembered, once the user has chosen one
            if (remembered !== null) expect(real.matches({ width: remembered ? 'expanded' : 'collapsed' })).toBe(true);
          },
        );
      });
    }
  }
});
