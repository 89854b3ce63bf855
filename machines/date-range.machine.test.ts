import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  addDays,
  type DateRangeEvent,
  type DateRangeInput,
  type DateRangeValue,
  dateRangeMachine,
  isIsoDate,
  isMonthWithinBounds,
  monthGrid,
  selectHighlight,
  selectView,
  selectYears,
  weekdayFromMonday,
} from './date-range.machine';

function start(input: Partial<DateRangeInput> = {}) {
  const actor = createActor(dateRangeMachine, { input: { mode: 'range', today: '2026-11-18', ...input } });
  const committed: DateRangeValue[] = [];
  actor.on('committed', (e) => committed.push(e.value));
  actor.start();
  const send = (...events: DateRangeEvent[]) => {
    for (const e of events) actor.send(e);
    return actor.getSnapshot();
  };
  const pick = (date: string) => send({ type: 'day.picked', date });
  return { actor, committed, send, pick, snap: () => actor.getSnapshot() };
}

describe('monthGrid', () => {
  it('gives six weeks of 42 days, Monday first: November 2026 starts on Mon 26 Oct 2026', () => {
    const grid = monthGrid(2026, 11);
    expect(grid).toHaveLength(42);
    expect(grid[0]).toEqual({ date: '2026-10-26', inMonth: false });
    expect(grid[6]?.date).toBe('2026-11-01');
    expect(grid[41]).toEqual({ date: '2026-12-06', inMonth: false });
    expect(grid.filter((c) => c.inMonth)).toHaveLength(30);
    for (let week = 0; week < 6; week++) expect(weekdayFromMonday(grid[week * 7]?.date ?? '')).toBe(0);
  });

  it('starts on the 1st itself when the month starts on a Monday (June 2026)', () => {
    expect(monthGrid(2026, 6)[0]).toEqual({ date: '2026-06-01', inMonth: true });
  });

  it('handles leap Februaries and year ends', () => {
    expect(monthGrid(2024, 2).filter((c) => c.inMonth)).toHaveLength(29);
    expect(monthGrid(2025, 2).filter((c) => c.inMonth)).toHaveLength(28);
    const january = monthGrid(2027, 1);
    expect(january[0]?.date).toBe('2026-12-28');
    expect(january.every((c, i) => i === 0 || c.date === addDays(january[i - 1]?.date ?? '', 1))).toBe(true);
  });
});

describe('calendar helpers', () => {
  it('knows a real calendar day', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('26-11-18')).toBe(false);
  });
  it('adds days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('0050-01-01', -1)).toBe('0049-12-31');
  });
});

describe('date range statechart', () => {
  it('the year list runs from 100 years back to 10 years ahead by default', () => {
    const { snap } = start();
    expect(snap().context.min).toBe('1926-01-01');
    expect(snap().context.max).toBe('2036-12-31');
    const years = selectYears(snap());
    expect(years[0]).toBe(1926);
    expect(years.at(-1)).toBe(2036);
    expect(years).toHaveLength(111);
  });

  it('the year list follows given bounds', () => {
    const { snap } = start({ min: '2024-01-01', max: '2024-12-31' });
    expect(selectYears(snap())).toEqual([2024]);
  });

  it('refuses bounds the wrong way round', () => {
    const actor = createActor(dateRangeMachine, {
      input: { mode: 'range', today: '2026-11-18', min: '2026-12-01', max: '2026-11-01' },
    });
    const errors: unknown[] = [];
    actor.subscribe({ error: (e) => errors.push(e) });
    actor.start();
    expect(actor.getSnapshot().status).toBe('error');
    expect(String(errors[0])).toMatch(/min 2026-12-01 is after max 2026-11-01/);
  });

  it('range: first pick start, second end, Confirm commits and closes', () => {
    const { send, pick, committed, snap } = start();
    send({ type: 'picker.opened' });
    expect(snap().matches({ open: 'selectingStart' })).toBe(true);
    expect(snap().can({ type: 'range.confirmed' })).toBe(false);
    pick('2026-11-10');
    expect(snap().matches({ open: 'selectingEnd' })).toBe(true);
    expect(snap().can({ type: 'range.confirmed' })).toBe(false);
    pick('2026-11-20');
    expect(snap().matches({ open: 'complete' })).toBe(true);
    expect(selectHighlight(snap())).toEqual({ start: '2026-11-10', end: '2026-11-20' });
    expect(snap().can({ type: 'range.confirmed' })).toBe(true);
    send({ type: 'range.confirmed' });
    expect(snap().value).toBe('closed');
    expect(committed).toEqual([{ start: '2026-11-10', end: '2026-11-20' }]);
  });

  it('range: a pick before the start moves the start', () => {
    const { send, pick, snap } = start();
    send({ type: 'picker.opened' });
    pick('2026-11-10');
    pick('2026-11-05');
    expect(snap().matches({ open: 'selectingEnd' })).toBe(true);
    expect(snap().context.start).toBe('2026-11-05');
    expect(snap().context.end).toBeNull();
  });

  it('range: the same day twice is a one-day range', () => {
    const { send, pick, snap } = start();
    send({ type: 'picker.opened' });
    pick('2026-11-10');
    pick('2026-11-10');
    expect(snap().matches({ open: 'complete' })).toBe(true);
  });

  it('range: a third pick starts a new range', () => {
    const { send, pick, snap } = start();
    send({ type: 'picker.opened' });
    pick('2026-11-10');
    pick('2026-11-20');
    pick('2026-11-02');
    expect(snap().matches({ open: 'selectingEnd' })).toBe(true);
    expect(snap().context).toMatchObject({ start: '2026-11-02', end: null });
  });

  it('range: Reset clears both ends', () => {
    const { send, pick, snap } = start();
    send({ type: 'picker.opened' });
    pick('2026-11-10');
    pick('2026-11-20');
    send({ type: 'range.reset' });
    expect(snap().matches({ open: 'selectingStart' })).toBe(true);
    expect(snap().context).toMatchObject({ start: null, end: null });
    expect(snap().can({ type: 'range.confirmed' })).toBe(false);
  });

  it('range: closing drops the draft and keeps the committed value; reopening shows it', () => {
    const { send, pick, snap, committed } = start({ value: { start: '2026-11-01', end: '2026-11-03' } });
    send({ type: 'picker.opened' });
    expect(snap().matches({ open: 'complete' })).toBe(true);
    pick('2026-11-10');
    send({ type: 'picker.closed' });
    expect(snap().context.value).toEqual({ start: '2026-11-01', end: '2026-11-03' });
    expect(committed).toEqual([]);
    send({ type: 'picker.opened' });
    expect(selectHighlight(snap())).toEqual({ start: '2026-11-01', end: '2026-11-03' });
    expect(snap().context.focused).toBe('2026-11-01');
  });

  it('single: a pick commits at once and closes', () => {
    const { send, pick, snap, committed } = start({ mode: 'single' });
    send({ type: 'picker.opened' });
    pick('2026-11-25');
    expect(snap().value).toBe('closed');
    expect(committed).toEqual([{ start: '2026-11-25', end: '2026-11-25' }]);
    send({ type: 'picker.opened' });
    expect(snap().matches({ open: 'selectingStart' })).toBe(true);
    expect(snap().context.focused).toBe('2026-11-25');
    expect(snap().can({ type: 'range.confirmed' })).toBe(false);
  });

  it('days outside the bounds cannot be picked', () => {
    const { send, pick, snap } = start({ min: '2026-11-10', max: '2026-11-20' });
    send({ type: 'picker.opened' });
    expect(snap().can({ type: 'day.picked', date: '2026-11-09' })).toBe(false);
    expect(snap().can({ type: 'day.picked', date: '2026-11-21' })).toBe(false);
    expect(snap().can({ type: 'day.picked', date: 'nonsense' })).toBe(false);
    pick('2026-11-09');
    expect(snap().matches({ open: 'selectingStart' })).toBe(true);
  });

  it('month navigation stops at the bounds', () => {
    const { send, snap } = start({ min: '2026-10-15', max: '2026-12-05' });
    send({ type: 'picker.opened' });
    expect(selectView(snap())).toEqual({ year: 2026, month: 11 });
    send({ type: 'month.next' });
    expect(selectView(snap())).toEqual({ year: 2026, month: 12 });
    expect(snap().context.focused).toBe('2026-12-05'); // the 18th is past the maximum
    expect(snap().can({ type: 'month.next' })).toBe(false);
    send({ type: 'month.previous' }, { type: 'month.previous' });
    expect(selectView(snap())).toEqual({ year: 2026, month: 10 });
    expect(snap().context.focused).toBe('2026-10-15');
    expect(snap().can({ type: 'month.previous' })).toBe(false);
    expect(isMonthWithinBounds(snap().context, 2026, 9)).toBe(false);
    expect(isMonthWithinBounds(snap().context, 2026, 10)).toBe(true);
    expect(snap().can({ type: 'month.selected', month: 9 })).toBe(false);
    expect(snap().can({ type: 'month.selected', month: 12 })).toBe(true);
  });

  it('choosing a year keeps the month and the day when they fit', () => {
    const { send, snap } = start({ value: { start: '2024-02-29', end: '2024-03-01' } });
    send({ type: 'picker.opened' }, { type: 'year.selected', year: 2025 });
    expect(snap().context.focused).toBe('2025-02-28');
    send({ type: 'month.selected', month: 7 });
    expect(selectView(snap())).toEqual({ year: 2025, month: 7 });
    expect(snap().can({ type: 'year.selected', year: 1925 })).toBe(false);
    expect(snap().can({ type: 'year.selected', year: 2037 })).toBe(false);
  });

  it('keyboard: arrows move by a day or a week, never past the bounds; Enter picks the focused day', () => {
    const { send, snap } = start({ min: '2026-11-10', max: '2026-11-30' });
    send({ type: 'picker.opened' });
    expect(snap().context.focused).toBe('2026-11-18');
    send({ type: 'focus.moved', days: 1 }, { type: 'focus.moved', days: 7 });
    expect(snap().context.focused).toBe('2026-11-26');
    expect(snap().can({ type: 'focus.moved', days: 7 })).toBe(false);
    send({ type: 'focus.moved', days: -7 }, { type: 'focus.moved', days: -7 });
    expect(snap().context.focused).toBe('2026-11-12');
    expect(snap().can({ type: 'focus.moved', days: -7 })).toBe(false);
    send({ type: 'day.picked', date: snap().context.focused });
    expect(snap().context.start).toBe('2026-11-12');
  });

  it('focus crossing into another month shows that month', () => {
    const { send, snap } = start();
    send({ type: 'picker.opened' }, { type: 'focus.moved', days: 14 });
    expect(selectView(snap())).toEqual({ year: 2026, month: 12 });
  });

  it('opening focuses today kept inside the bounds', () => {
    const { send, snap } = start({ min: '2027-01-10', max: '2027-02-10' });
    send({ type: 'picker.opened' });
    expect(snap().context.focused).toBe('2027-01-10');
  });

  it('Confirm is refused for a committed range that no longer fits the bounds', () => {
    const { send, snap } = start({ min: '2026-11-10', value: { start: '2026-11-01', end: '2026-11-12' } });
    send({ type: 'picker.opened' });
    expect(snap().matches({ open: 'complete' })).toBe(true);
    expect(snap().can({ type: 'range.confirmed' })).toBe(false);
  });
});
