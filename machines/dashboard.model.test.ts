import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { type CurrencyMemory, type DashboardInput, dashboardMachine } from './dashboard.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const ACTORS = [
  'loadOverview',
  'loadAwaiting',
  'loadNotifications',
  'loadTopEvents',
  'loadActivity',
  'loadReport',
] as const;
const eventsFor = (id: (typeof ACTORS)[number]) => [
  { type: `xstate.done.actor.${id}`, output: { sample: id } },
  { type: `xstate.error.actor.${id}`, error: new Error('Failed to fetch data') },
  { type: 'currency.changed', currency: 'EUR' },
  { type: 'currency.changed', currency: 'GBP' },
  { type: 'widget.retried' },
];

describe('dashboard statechart, model-based', () => {
  // the five widgets are independent regions: walking each one's paths (the others left loading) reaches
  // every state and transition without walking the product of all five
  const paths = ACTORS.flatMap((id) =>
    modelPaths(dashboardMachine, { events: eventsFor(id), input: {}, settling: [id] }),
  );

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(dashboardMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(ACTORS);
      const actor = createActor(dashboardMachine.provide({ actors: control.actors }), { input: {} });
      const toasts: string[] = [];
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        // every failed widget was announced with the spec's toast
        const failed = Object.values(real.value as Record<string, string>).filter((v) => v === 'failed').length;
        expect(toasts.length).toBeGreaterThanOrEqual(failed);
        expect(new Set(toasts)).toEqual(new Set(toasts.length ? ['Failed to fetch data'] : []));
        for (const id of ACTORS) {
          const pending = control.pending(id)?.input as { currency?: string } | undefined;
          // a money widget always asks in the currency shown
          if (pending?.currency) expect(pending.currency).toBe(real.context.currency);
        }
      });
    });
  }
});

/** A memory that holds one value, as local storage would, and counts its writes. */
function fakeMemory(stored: string | null) {
  const writes: string[] = [];
  const memory: CurrencyMemory = {
    read: () => stored,
    write: (c) => {
      writes.push(c);
      stored = c;
    },
  };
  return { memory, writes };
}

describe('dashboard currency memory', () => {
  const start = (options: { input: DashboardInput }) => {
    const control = controllableActors(ACTORS);
    const actor = createActor(dashboardMachine.provide({ actors: control.actors }), options).start();
    return { actor, control };
  };

  it('opens in the currency chosen last time, and the money widgets ask in it', () => {
    const { memory } = fakeMemory('EUR');
    const { actor, control } = start({ input: { currency: 'GBP', memory } });
    expect(actor.getSnapshot().context.currency).toBe('EUR');
    expect(control.pending('loadOverview')?.input).toEqual({ currency: 'EUR' });
    expect(control.pending('loadAwaiting')?.input).toEqual({ currency: 'EUR' });
  });

  it("opens in the user's own currency when nothing (or nothing valid) was kept", () => {
    for (const stored of [null, 'XXX', '']) {
      const { memory } = fakeMemory(stored);
      const { actor } = start({ input: { currency: 'USD', memory } });
      expect(actor.getSnapshot().context.currency).toBe('USD');
    }
  });

  it('remembers a chosen currency by its named action, once, and reloads the money widgets in it', () => {
    const { memory, writes } = fakeMemory(null);
    const { actor, control } = start({ input: { memory } });
    actor.send({ type: 'currency.changed', currency: 'AED' });
    expect(writes).toEqual(['AED']);
    expect(control.pending('loadTopEvents')?.input).toEqual({ currency: 'AED' });
    // the same currency again changes nothing and writes nothing
    actor.send({ type: 'currency.changed', currency: 'AED' });
    expect(writes).toEqual(['AED']);
  });

  it('the memory is an action a test can replace', () => {
    const written: string[] = [];
    const machine = dashboardMachine.provide({
      actors: controllableActors(ACTORS).actors,
      actions: { rememberCurrency: ({ context }) => written.push(context.currency) },
    });
    const actor = createActor(machine, { input: {} }).start();
    actor.send({ type: 'currency.changed', currency: 'EUR' });
    expect(written).toEqual(['EUR']);
  });
});
