import { and, assign, emit, setup } from 'xstate';

/** A calendar date as 'YYYY-MM-DD'. Strings of this shape compare in calendar order. */
export type IsoDate = string;

/** A picked range, both ends included. A single date is a range whose ends are the same day. */
export interface DateRangeValue {
  start: IsoDate;
  end: IsoDate;
}

export type DatePickerMode = 'single' | 'range';

export interface DateRangeInput {
  mode: DatePickerMode;
  /** Today, injected so the machine stays pure (and tests stay still). */
  today: IsoDate;
  /** The earliest pickable day. Default: 1 January of the year 100 years before today. */
  min?: IsoDate | null;
  /** The latest pickable day. Default: 31 December of the year 10 years after today. */
  max?: IsoDate | null;
  /** What is committed when the picker starts: a date (single) or a range. */
  value?: IsoDate | DateRangeValue | null;
}

export interface DateRangeContext {
  mode: DatePickerMode;
  today: IsoDate;
  min: IsoDate;
  max: IsoDate;
  /** The committed value; in single mode start and end are the same day. */
  value: DateRangeValue | null;
  /** The draft range while the picker is open (range mode). */
  start: IsoDate | null;
  end: IsoDate | null;
  /** The day that has the keyboard focus. The month on show is always the focused day's month. */
  focused: IsoDate;
}

export type DateRangeEvent =
  | { type: 'picker.opened' }
  | { type: 'picker.closed' }
  | { type: 'day.picked'; date: IsoDate }
  | { type: 'focus.moved'; days: number }
  | { type: 'month.next' }
  | { type: 'month.previous' }
  /** `month` is 1 to 12. */
  | { type: 'month.selected'; month: number }
  | { type: 'year.selected'; year: number }
  | { type: 'range.confirmed' }
  | { type: 'range.reset' };

export type DateRangeEmitted = { type: 'committed'; value: DateRangeValue };

export const DEFAULT_YEARS_BACK = 100;
export const DEFAULT_YEARS_AHEAD = 10;

// ---- calendar arithmetic on 'YYYY-MM-DD' strings (UTC inside, so no time zone can shift a day) ----

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written 'YYYY-MM-DD' ('2026-02-30' is not one). */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string') return false;
  const m = ISO.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

function parts(date: IsoDate): { year: number; month: number; day: number } {
  const m = ISO.exec(date);
  if (!m) throw new Error(`not a 'YYYY-MM-DD' date: ${date}`);
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

function utc(year: number, month: number, day: number): Date {
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year, month - 1, day); // Date.UTC maps years 0-99 to 1900-1999
  return d;
}

function fromUtc(d: Date): IsoDate {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** `month` is 1 to 12. */
export function daysInMonth(year: number, month: number): number {
  return utc(year, month + 1, 0).getUTCDate();
}

export function isoDate(year: number, month: number, day: number): IsoDate {
  return fromUtc(utc(year, month, day));
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const { year, month, day } = parts(date);
  return isoDate(year, month, day + days);
}

/** 0 for Monday to 6 for Sunday. */
export function weekdayFromMonday(date: IsoDate): number {
  const { year, month, day } = parts(date);
  return (utc(year, month, day).getUTCDay() + 6) % 7;
}

export const clampDate = (date: IsoDate, min: IsoDate, max: IsoDate): IsoDate =>
  date < min ? min : date > max ? max : date;

export interface GridCell {
  date: IsoDate;
  /** False for the days of the months before and after that fill the six weeks. */
  inMonth: boolean;
}

/**
 * The 42 days (six weeks, Monday first) shown for a month; `month` is 1 to 12.
 * November 2026 starts on Monday 26 October 2026.
 */
export function monthGrid(year: number, month: number): GridCell[] {
  const first = isoDate(year, month, 1);
  const start = addDays(first, -weekdayFromMonday(first));
  return Array.from({ length: 42 }, (_, i) => {
    const date = addDays(start, i);
    return { date, inMonth: parts(date).month === month };
  });
}

/** The same day of another month, moved back to that month's last day when it has fewer days. */
function sameDayIn(date: IsoDate, year: number, month: number): IsoDate {
  return isoDate(year, month, Math.min(parts(date).day, daysInMonth(year, month)));
}

function shiftMonth(year: number, month: number, by: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

const monthKey = (date: IsoDate) => date.slice(0, 7);
const monthKeyOf = (year: number, month: number) => isoDate(year, month, 1).slice(0, 7);
const inBounds = (date: IsoDate, c: Pick<DateRangeContext, 'min' | 'max'>) => date >= c.min && date <= c.max;
/** Where focus rests when the picker opens: the committed start, else today, kept inside the bounds. */
const home = (c: Pick<DateRangeContext, 'value' | 'today' | 'min' | 'max'>) =>
  clampDate(c.value?.start ?? c.today, c.min, c.max);
/** Focus on the same day of another month, kept inside the bounds. */
const focusMonth = (c: DateRangeContext, year: number, month: number) =>
  clampDate(sameDayIn(c.focused, year, month), c.min, c.max);

function resolveInput(input: DateRangeInput): DateRangeContext {
  if (!isIsoDate(input.today)) throw new Error(`today must be 'YYYY-MM-DD', got ${input.today}`);
  const thisYear = parts(input.today).year;
  const min = input.min ?? isoDate(thisYear - DEFAULT_YEARS_BACK, 1, 1);
  const max = input.max ?? isoDate(thisYear + DEFAULT_YEARS_AHEAD, 12, 31);
  for (const [name, d] of [
    ['min', min],
    ['max', max],
  ] as const) {
    if (!isIsoDate(d)) throw new Error(`${name} must be 'YYYY-MM-DD', got ${d}`);
  }
  if (min > max) throw new Error(`min ${min} is after max ${max}`);
  const v = input.value;
  const value: DateRangeValue | null =
    typeof v === 'string'
      ? isIsoDate(v)
        ? { start: v, end: v }
        : null
      : v && isIsoDate(v.start) && isIsoDate(v.end) && v.start <= v.end
        ? { start: v.start, end: v.end }
        : null;
  const context = { mode: input.mode, today: input.today, min, max, value, start: null, end: null };
  return { ...context, focused: home(context) };
}

/**
 * The date picker, for a single date or a range. Closed, it holds the committed value. Open, it shows one
 * month of six weeks (the focused day's month) and keeps a draft: in range mode the first pick sets the
 * start, the second the end, a pick before the start moves the start and a pick after a complete range
 * starts a new one; Confirm commits only a valid range, Reset clears both ends. In single mode a pick
 * commits at once and closes. Days outside the bounds cannot be picked or focused, and the months beyond
 * them cannot be shown. Closing without committing drops the draft. Every commit emits `committed`.
 */
export const dateRangeMachine = setup({
  types: {
    context: {} as DateRangeContext,
    events: {} as DateRangeEvent,
    input: {} as DateRangeInput,
    emitted: {} as DateRangeEmitted,
  },
  guards: {
    isSingleMode: ({ context }) => context.mode === 'single',
    hasCommittedRange: ({ context }) => context.mode === 'range' && context.value !== null,
    isPickable: ({ context, event }) =>
      event.type === 'day.picked' && isIsoDate(event.date) && inBounds(event.date, context),
    isBeforeStart: ({ context, event }) =>
      event.type === 'day.picked' && context.start !== null && event.date < context.start,
    hasValidRange: ({ context }) =>
      context.start !== null &&
      context.end !== null &&
      context.start <= context.end &&
      inBounds(context.start, context) &&
      inBounds(context.end, context),
    canShowNextMonth: ({ context }) => {
      const { year, month } = parts(context.focused);
      const next = shiftMonth(year, month, 1);
      return monthKeyOf(next.year, next.month) <= monthKey(context.max);
    },
    canShowPreviousMonth: ({ context }) => {
      const { year, month } = parts(context.focused);
      const previous = shiftMonth(year, month, -1);
      return monthKeyOf(previous.year, previous.month) >= monthKey(context.min);
    },
    isMonthInBounds: ({ context, event }) => {
      if (event.type !== 'month.selected' || !Number.isInteger(event.month)) return false;
      if (event.month < 1 || event.month > 12) return false;
      const key = monthKeyOf(parts(context.focused).year, event.month);
      return key >= monthKey(context.min) && key <= monthKey(context.max) && key !== monthKey(context.focused);
    },
    isYearInList: ({ context, event }) =>
      event.type === 'year.selected' &&
      Number.isInteger(event.year) &&
      event.year >= parts(context.min).year &&
      event.year <= parts(context.max).year &&
      event.year !== parts(context.focused).year,
    canMoveFocus: ({ context, event }) =>
      event.type === 'focus.moved' &&
      Number.isInteger(event.days) &&
      event.days !== 0 &&
      inBounds(addDays(context.focused, event.days), context),
  },
  actions: {
    beginDraftFromValue: assign(({ context }) => ({
      start: context.value?.start ?? null,
      end: context.value?.end ?? null,
      focused: home(context),
    })),
    beginEmptyDraft: assign(({ context }) => ({ start: null, end: null, focused: home(context) })),
    discardDraft: assign(({ context }) => ({ start: null, end: null, focused: home(context) })),
    setStart: assign(({ event }) => (event.type === 'day.picked' ? { start: event.date, focused: event.date } : {})),
    setEnd: assign(({ event }) => (event.type === 'day.picked' ? { end: event.date, focused: event.date } : {})),
    startNewRange: assign(({ event }) =>
      event.type === 'day.picked' ? { start: event.date, end: null, focused: event.date } : {},
    ),
    clearRange: assign({ start: null, end: null }),
    commitSingle: assign(({ context, event }) => {
      if (event.type !== 'day.picked') return {};
      const value = { start: event.date, end: event.date };
      return { value, start: null, end: null, focused: home({ ...context, value }) };
    }),
    commitRange: assign(({ context }) => {
      if (context.start === null || context.end === null) return {};
      const value = { start: context.start, end: context.end };
      return { value, start: null, end: null, focused: home({ ...context, value }) };
    }),
    emitCommitted: emit(({ context }) => {
      if (!context.value) throw new Error('emitCommitted runs after a commit');
      return { type: 'committed' as const, value: context.value };
    }),
    moveFocus: assign(({ context, event }) =>
      event.type === 'focus.moved' ? { focused: addDays(context.focused, event.days) } : {},
    ),
    showNextMonth: assign(({ context }) => {
      const { year, month } = parts(context.focused);
      const next = shiftMonth(year, month, 1);
      return { focused: focusMonth(context, next.year, next.month) };
    }),
    showPreviousMonth: assign(({ context }) => {
      const { year, month } = parts(context.focused);
      const previous = shiftMonth(year, month, -1);
      return { focused: focusMonth(context, previous.year, previous.month) };
    }),
    showMonth: assign(({ context, event }) =>
      event.type === 'month.selected' ? { focused: focusMonth(context, parts(context.focused).year, event.month) } : {},
    ),
    showYear: assign(({ context, event }) =>
      event.type === 'year.selected' ? { focused: focusMonth(context, event.year, parts(context.focused).month) } : {},
    ),
  },
}).createMachine({
  id: 'dateRange',
  context: ({ input }) => resolveInput(input),
  initial: 'closed',
  states: {
    closed: {
      description: 'Only the field shows, with the committed date or range.',
      on: {
        'picker.opened': [
          { guard: 'hasCommittedRange', target: 'open.complete', actions: 'beginDraftFromValue' },
          { target: 'open.selectingStart', actions: 'beginEmptyDraft' },
        ],
      },
    },
    open: {
      description:
        'The calendar: one month of six weeks, Monday first. Days outside the bounds are disabled and the months beyond them cannot be shown. Escape or a click outside closes it and drops the draft.',
      tags: ['open'],
      initial: 'selectingStart',
      on: {
        'picker.closed': { target: 'closed', actions: 'discardDraft' },
        'month.next': { guard: 'canShowNextMonth', actions: 'showNextMonth' },
        'month.previous': { guard: 'canShowPreviousMonth', actions: 'showPreviousMonth' },
        'month.selected': { guard: 'isMonthInBounds', actions: 'showMonth' },
        'year.selected': { guard: 'isYearInList', actions: 'showYear' },
        'focus.moved': { guard: 'canMoveFocus', actions: 'moveFocus' },
      },
      states: {
        selectingStart: {
          description: 'Nothing picked yet. In single mode a pick commits the date and closes.',
          on: {
            'day.picked': [
              {
                guard: and(['isSingleMode', 'isPickable']),
                target: '#dateRange.closed',
                actions: ['commitSingle', 'emitCommitted'],
              },
              { guard: 'isPickable', target: 'selectingEnd', actions: 'setStart' },
            ],
          },
        },
        selectingEnd: {
          description: 'The start is picked; the next pick is the end, or the new start when it comes before it.',
          on: {
            'day.picked': [
              { guard: and(['isPickable', 'isBeforeStart']), actions: 'setStart' },
              { guard: 'isPickable', target: 'complete', actions: 'setEnd' },
            ],
            'range.reset': { target: 'selectingStart', actions: 'clearRange' },
          },
        },
        complete: {
          description: 'Both ends are picked: Confirm commits the range; another pick starts a new range.',
          on: {
            'day.picked': { guard: 'isPickable', target: 'selectingEnd', actions: 'startNewRange' },
            'range.confirmed': {
              guard: 'hasValidRange',
              target: '#dateRange.closed',
              actions: ['commitRange', 'emitCommitted'],
            },
            'range.reset': { target: 'selectingStart', actions: 'clearRange' },
          },
        },
      },
    },
  },
});

type Snapshot = ReturnType<typeof dateRangeMachine.getInitialSnapshot>;

/** The month on show: the focused day's. `month` is 1 to 12. */
export const selectView = (s: Snapshot) => {
  const { year, month } = parts(s.context.focused);
  return { year, month };
};

/** The years the year list offers: from the minimum's year to the maximum's. */
export const selectYears = (s: Snapshot): number[] => {
  const from = parts(s.context.min).year;
  const to = parts(s.context.max).year;
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
};

/** Whether a month (1 to 12) has any day between the bounds. */
export const isMonthWithinBounds = (bounds: { min: IsoDate; max: IsoDate }, year: number, month: number) => {
  const key = monthKeyOf(year, month);
  return key >= monthKey(bounds.min) && key <= monthKey(bounds.max);
};

export const isDayDisabled = (s: Snapshot, date: IsoDate) => !inBounds(date, s.context);

/** The range to highlight: the draft while open in range mode, else the committed value. */
export const selectHighlight = (s: Snapshot): { start: IsoDate | null; end: IsoDate | null } =>
  s.matches('open') && s.context.mode === 'range'
    ? { start: s.context.start, end: s.context.end }
    : { start: s.context.value?.start ?? null, end: s.context.value?.end ?? null };
