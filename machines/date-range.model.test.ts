import { describe, expect, it } from 'vitest';
import { type AnyMachineSnapshot, createActor } from 'xstate';
import { type DateRangeInput, type DateRangeValue, dateRangeMachine, selectView } from './date-range.machine';
import { flush, type ModelPath, modelPaths, replay, uncovered } from './testing/model';

// Few pickable days keep the model small while every rule has room to act: bounds on both sides, month
// and year changes, picks before the start, one-day ranges. Each case has days just outside its bounds.
const TODAY = '2026-12-31';
const YEAR_END = { min: '2026-12-29', max: '2027-01-02' };
const MONTH_END = { min: '2027-01-30', max: '2027-02-02' };
const OUTSIDE = ['2026-12-28', '2027-01-03', '2027-01-29', '2027-02-03'];

const eventsFor = (days: string[]) => [
  ...[...days, ...OUTSIDE].map((date) => ({ type: 'day.picked', date })),
  { type: 'focus.moved', days: 1 },
  { type: 'focus.moved', days: -1 },
  { type: 'focus.moved', days: 7 },
  { type: 'month.selected', month: 1 },
  { type: 'month.selected', month: 2 },
  { type: 'month.selected', month: 6 },
  { type: 'year.selected', year: 2026 },
  { type: 'year.selected', year: 2027 },
  { type: 'year.selected', year: 2025 },
];

const cases: Array<{ label: string; input: DateRangeInput; days: string[] }> = [
  {
    label: 'range mode across a year end, nothing committed',
    input: { mode: 'range', today: TODAY, ...YEAR_END },
    days: [YEAR_END.min, TODAY, YEAR_END.max],
  },
  {
    label: 'range mode across a year end, a range committed',
    input: { mode: 'range', today: TODAY, ...YEAR_END, value: { start: TODAY, end: YEAR_END.max } },
    days: [YEAR_END.min, TODAY, YEAR_END.max],
  },
  {
    label: 'range mode, a committed range whose end is now past the maximum',
    input: { mode: 'range', today: TODAY, ...YEAR_END, value: { start: TODAY, end: '2027-01-03' } },
    days: [YEAR_END.min, TODAY, YEAR_END.max],
  },
  {
    label: 'single mode across a month end',
    input: { mode: 'single', today: TODAY, ...MONTH_END },
    days: [MONTH_END.min, MONTH_END.max],
  },
];

const generated = cases.map(({ label, input, days }) => ({
  label,
  input,
  paths: modelPaths(dateRangeMachine, { events: eventsFor(days), input }),
}));

/** What the spec promises at every step, checked on the real machine. */
function checkRules(real: AnyMachineSnapshot, input: DateRangeInput, committed: DateRangeValue[]) {
  const { start, end, focused, value, min, max } = real.context as {
    start: string | null;
    end: string | null;
    focused: string;
    value: DateRangeValue | null;
    min: string;
    max: string;
  };
  // bounds: the focus, the month on show and every commit stay inside them
  expect(focused >= min && focused <= max).toBe(true);
  const view = selectView(real as never);
  const monthOnShow = `${view.year}-${String(view.month).padStart(2, '0')}`;
  expect(monthOnShow >= min.slice(0, 7) && monthOnShow <= max.slice(0, 7)).toBe(true);
  // month navigation is offered exactly while the next (previous) month has a pickable day
  const shifted = (by: number) => {
    const index = view.year * 12 + view.month - 1 + by;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  };
  const open = real.matches('open');
  expect(real.can({ type: 'month.next' })).toBe(open && shifted(1) <= max.slice(0, 7));
  expect(real.can({ type: 'month.previous' })).toBe(open && shifted(-1) >= min.slice(0, 7));
  for (const c of committed) expect(c.start >= min && c.end <= max).toBe(true);
  // every day the user picked is inside the bounds (only a value committed before may not be)
  for (const d of [start, end]) {
    if (d !== null && d !== value?.start && d !== value?.end) expect(d >= min && d <= max).toBe(true);
  }
  // the range never runs backwards
  if (start && end) expect(start <= end).toBe(true);
  if (value) expect(value.start <= value.end).toBe(true);
  // Confirm only with both ends; Reset only with something to clear
  const canConfirm = real.can({ type: 'range.confirmed' });
  const bothEndsValid = start !== null && end !== null && start >= min && end <= max && start <= end;
  expect(canConfirm).toBe(real.matches({ open: 'complete' }) && bothEndsValid);
  if (real.matches({ open: 'selectingStart' })) {
    expect([start, end]).toEqual([null, null]);
    expect(real.can({ type: 'range.reset' })).toBe(false);
  }
  if (real.matches({ open: 'selectingEnd' })) {
    expect(start).not.toBeNull();
    expect(end).toBeNull();
  }
  // out-of-bounds days are never pickable, in-bounds days always are while open
  for (const date of OUTSIDE) {
    if (date < min || date > max) expect(real.can({ type: 'day.picked', date })).toBe(false);
  }
  expect(real.can({ type: 'day.picked', date: min })).toBe(real.matches('open'));
  expect(real.can({ type: 'day.picked', date: max })).toBe(real.matches('open'));
  // single mode never holds a draft and commits one day
  if (input.mode === 'single') {
    expect(real.matches({ open: 'selectingEnd' }) || real.matches({ open: 'complete' })).toBe(false);
    for (const c of committed) expect(c.start).toBe(c.end);
  }
  if (real.matches('closed')) expect([start, end]).toEqual([null, null]);
}

describe('date range statechart, model-based', () => {
  it('the generated paths reach every state and every transition', () => {
    const { missingStates, missingTransitions } = uncovered(
      dateRangeMachine,
      generated.flatMap((g) => g.paths),
    );
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });

  for (const { label, input, paths } of generated) {
    describe(label, () => {
      for (const path of paths as ModelPath[]) {
        it(path.description, async () => {
          const actor = createActor(dateRangeMachine, { input });
          const committed: DateRangeValue[] = [];
          actor.on('committed', (e) => committed.push(e.value));
          actor.start();
          let commitsBefore = 0;
          let step = 0;
          let previous = actor.getSnapshot() as AnyMachineSnapshot;
          await replay(
            path,
            actor,
            async () => false,
            (real) => {
              checkRules(real, input, committed);
              // a commit happens exactly when the picker closes by a pick or Confirm, with the new value
              const event = path.steps[step++]?.event;
              const closedByCommit =
                previous.matches('open') &&
                real.matches('closed') &&
                (event?.type === 'day.picked' || event?.type === 'range.confirmed');
              expect(committed.length - commitsBefore).toBe(closedByCommit ? 1 : 0);
              if (closedByCommit) expect(committed.at(-1)).toEqual(real.context.value);
              commitsBefore = committed.length;
              previous = real;
            },
          );
          await flush();
          actor.stop();
        });
      }
    });
  }
});
