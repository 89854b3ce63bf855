import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import {
  DEFAULT_REPORT_FILTERS,
  REPORT_EXPORT_ERROR,
  REPORT_NOTES_ERROR,
  REPORT_NOTES_SAVED,
  type ReportOverview,
  reportHistoryMachine,
  reportQuery,
} from './report-history.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const overview = {
  currency: 'GBP',
  period: 'this_month',
  date_from: '2026-11-01',
  date_to: '2026-11-22',
  granularity: 'day',
  figures: {
    gross_sales: 1000,
    tickets: 2,
    orders: 1,
    average_price: 500,
    fees: 0,
    net_earnings: 1000,
    cancellations: 0,
    cancelled_amount: 0,
  },
  series: [],
  top_matches: [],
} as ReportOverview;
const file = { name: 'sales-report-2026-11-22.csv', file: new Blob(['x']) };
const details = { order: { booking_id: 7 }, notes: null, notes_updated_at: null };
const savedNotes = { booking_id: 7, notes: 'Call the buyer', notes_updated_at: '2026-11-28T10:00:00Z' };

const events = [
  { type: 'xstate.done.actor.fetchOverview', output: { overview, matches: [] } },
  { type: 'xstate.error.actor.fetchOverview', error: new Error('down') },
  { type: 'xstate.done.actor.exportFile', output: file },
  { type: 'xstate.error.actor.exportFile', error: new Error('down') },
  { type: 'xstate.done.actor.fetchOrder', output: { details, logs: [], inventoryLogs: [] } },
  { type: 'xstate.done.actor.saveNotes', output: savedNotes },
  { type: 'xstate.error.actor.saveNotes', error: new Error('down') },
  { type: 'notes.saved', notes: 'Call the buyer' },
  { type: 'xstate.error.actor.fetchOrder', error: new Error('down') },
  { type: 'period.presetChosen', preset: 'last_month' },
  { type: 'period.rangeChosen', from: '2026-01-01', to: '2026-03-31' },
  { type: 'currency.changed', currency: 'EUR' },
  { type: 'match.changed', matchId: 3 },
  { type: 'search.changed', q: 'Arsenal' },
  { type: 'sort.changed', sort: 'amount_desc' },
  { type: 'export.requested', format: 'csv' },
  { type: 'order.opened', bookingId: 7 },
  { type: 'order.opened', bookingId: 8 },
];

/** The machine with its network replaced, and a stand-in history list that records what it is told. */
function start(input: { currency?: 'GBP' | 'EUR' | 'USD' | 'AED' } = {}) {
  const control = controllableActors(['fetchOverview', 'exportFile', 'fetchOrder', 'saveNotes'] as const);
  const told: Array<{ type: string }> = [];
  const history = createMachine({ on: { '*': { actions: ({ event }) => told.push(event) } } });
  const actor = createActor(
    reportHistoryMachine.provide({ actors: { ...control.actors, history: history as never } }),
    {
      input,
    },
  );
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, told, emitted };
}

describe('report history statechart, model-based', () => {
  const paths = modelPaths(reportHistoryMachine, {
    events,
    settling: ['fetchOverview', 'exportFile', 'fetchOrder', 'saveNotes'],
    identity: (s) => [s.value, s.context.openId],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(reportHistoryMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, told, emitted } = start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          if (real.matches({ overview: 'ready' })) expect(real.context.overview).toEqual(overview);
          if (real.hasTag('error')) expect(real.context.error).toBe('Failed to fetch data');
          // the history list hears every filter the overview reads, and the export asks for the same filters
          const last = [...told].reverse().find((e) => e.type === 'filters.changed') as
            | { filters: unknown }
            | undefined;
          if (last) expect(last.filters).toEqual(real.context.filters);
          const pendingExport = control.pending('exportFile');
          if (pendingExport) expect(pendingExport.input).toMatchObject({ filters: real.context.filters });
          for (const e of emitted.filter((x) => x.type === 'notify'))
            expect([REPORT_EXPORT_ERROR, REPORT_NOTES_SAVED, REPORT_NOTES_ERROR]).toContain(e.message);
          // notes are saved on the order open, and a saved note shows on it
          const pendingNotes = control.pending('saveNotes');
          if (pendingNotes) expect(pendingNotes.input).toEqual({ id: real.context.openId, notes: 'Call the buyer' });
        },
      );
      actor.stop();
    });
  }
});

describe('report history statechart', () => {
  it("opens the order clicked last when another row is clicked while the first one's order loads", () => {
    const { actor, control } = start();
    actor.send({ type: 'order.opened', bookingId: 11 });
    expect(control.pending('fetchOrder')?.input).toBe(11);
    // the same row again changes nothing
    actor.send({ type: 'order.opened', bookingId: 11 });
    expect(control.pending('fetchOrder')?.input).toBe(11);
    actor.send({ type: 'order.opened', bookingId: 12 });
    expect(control.pending('fetchOrder')?.input).toBe(12);
    expect(actor.getSnapshot().context.openId).toBe(12);
  });

  it("opens in GBP by default (spec section 7's default parameters), and in the account's own currency", () => {
    const gbp = start();
    expect(gbp.control.pending('fetchOverview')?.input).toMatchObject({ currency: 'GBP' });
    gbp.actor.stop();
    const eur = start({ currency: 'EUR' });
    expect(eur.control.pending('fetchOverview')?.input).toMatchObject({ currency: 'EUR' });
    expect(eur.actor.getSnapshot().context.filters).toEqual({ ...DEFAULT_REPORT_FILTERS, currency: 'EUR' });
    eur.actor.stop();
  });

  it('asks the overview for the preset, then for the range, and the history follows', async () => {
    const { actor, control, told } = start();
    expect(control.pending('fetchOverview')?.input).toEqual(DEFAULT_REPORT_FILTERS);
    actor.send({ type: 'period.rangeChosen', from: '2026-01-01', to: '2026-03-31' });
    expect(control.pending('fetchOverview')?.input).toMatchObject({ period: { from: '2026-01-01', to: '2026-03-31' } });
    expect(told.at(-1)).toMatchObject({ type: 'filters.changed', filters: { period: { from: '2026-01-01' } } });
    actor.send({ type: 'currency.changed', currency: 'EUR' });
    expect(reportQuery(actor.getSnapshot().context.filters)).toEqual({
      date_from: '2026-01-01',
      date_to: '2026-03-31',
      currency: 'EUR',
    });
  });

  it("saves the open order's notes, shows them saved, and keeps the order open when saving fails", async () => {
    const { actor, control, emitted } = start();
    actor.send({ type: 'order.opened', bookingId: 7 });
    await control.settle({ type: 'xstate.done.actor.fetchOrder', output: { details, logs: [], inventoryLogs: [] } });
    actor.send({ type: 'notes.saved', notes: 'Call the buyer' });
    expect(actor.getSnapshot().hasTag('savingNotes')).toBe(true);
    expect(control.pending('saveNotes')?.input).toEqual({ id: 7, notes: 'Call the buyer' });
    await control.settle({ type: 'xstate.done.actor.saveNotes', output: savedNotes });
    expect(actor.getSnapshot().context.details).toMatchObject({ notes: 'Call the buyer' });
    expect(emitted).toContainEqual({ type: 'notify', level: 'success', message: REPORT_NOTES_SAVED });
    actor.send({ type: 'notes.saved', notes: 'again' });
    await control.settle({ type: 'xstate.error.actor.saveNotes', error: new Error('down') });
    expect(actor.getSnapshot().matches({ details: 'open' })).toBe(true);
    expect(emitted.at(-1)).toEqual({ type: 'notify', level: 'error', message: REPORT_NOTES_ERROR });
  });

  it('hands the exported file to the view', async () => {
    const { actor, control, emitted } = start();
    actor.send({ type: 'export.requested', format: 'csv' });
    expect(control.pending('exportFile')?.input).toMatchObject({ format: 'csv' });
    await control.settle({ type: 'xstate.done.actor.exportFile', output: file });
    expect(emitted).toContainEqual({ type: 'export.ready', file });
    expect(actor.getSnapshot().matches({ export: 'idle' })).toBe(true);
  });
});
