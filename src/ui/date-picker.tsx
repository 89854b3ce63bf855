import { useActorRef, useSelector } from '@xstate/react';
import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { css, cva, cx } from 'styled-system/css';
import {
  type DateRangeEvent,
  type DateRangeValue,
  dateRangeMachine,
  type IsoDate,
  isMonthWithinBounds,
  monthGrid,
  selectHighlight,
  selectYears,
  weekdayFromMonday,
} from '../../machines/date-range.machine';
import { inspectFlows } from '../lib/flows-live';
import { formatDate, toIsoDate } from '../lib/format-date';
import { Button } from './button';
import { FieldError, FieldLabel, fieldStack, isErrorShown } from './field';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from './icons';
import { useEscapeKey } from './use-escape-key';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const WEEKDAYS = [
  ['Mo', 'Monday'],
  ['Tu', 'Tuesday'],
  ['We', 'Wednesday'],
  ['Th', 'Thursday'],
  ['Fr', 'Friday'],
  ['Sa', 'Saturday'],
  ['Su', 'Sunday'],
] as const;

interface CommonProps {
  label: string;
  /** Earliest pickable day, 'YYYY-MM-DD' (default 1 January, 100 years back). */
  min?: IsoDate | null;
  /** Latest pickable day, 'YYYY-MM-DD' (default 31 December, 10 years ahead). */
  max?: IsoDate | null;
  /** Today, 'YYYY-MM-DD' (default: the reader's today). */
  today?: IsoDate;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  error?: string | null;
  showErrors?: boolean;
}

export interface SingleDatePickerProps extends CommonProps {
  mode?: 'single';
  /** The date the picker starts with. */
  defaultValue?: IsoDate | null;
  onChange?: (date: IsoDate) => void;
}

export interface RangeDatePickerProps extends CommonProps {
  mode: 'range';
  defaultValue?: DateRangeValue | null;
  onChange?: (range: DateRangeValue) => void;
}

export type DatePickerProps = SingleDatePickerProps | RangeDatePickerProps;

const dayButton = cva({
  base: {
    width: '100%',
    height: '34px',
    borderRadius: 'md',
    fontSize: 'sm',
    cursor: 'pointer',
    color: 'fg',
    fontVariantNumeric: 'tabular-nums',
    _hover: { _enabled: { bg: 'bg.muted' } },
    _focusVisible: { outline: '2px solid', outlineColor: 'focus', outlineOffset: '-2px' },
    _disabled: { color: 'ink.300', cursor: 'not-allowed', textDecoration: 'line-through' },
  },
  variants: {
    place: {
      inMonth: {},
      outside: { color: 'fg.muted' },
    },
    pick: {
      none: {},
      between: { bg: 'brand.50', borderRadius: '0', _hover: { _enabled: { bg: 'brand.100' } } },
      end: { bg: 'accent', color: 'accent.fg', fontWeight: 'semibold', _hover: { _enabled: { bg: 'accent.hover' } } },
    },
    today: { true: { boxShadow: 'inset 0 0 0 1px token(colors.accent)' }, false: {} },
  },
  defaultVariants: { place: 'inMonth', pick: 'none', today: false },
});

const navButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '32px',
  height: '32px',
  flexShrink: 0,
  borderRadius: 'md',
  cursor: 'pointer',
  color: 'fg',
  _hover: { _enabled: { bg: 'bg.muted' } },
  _disabled: { color: 'ink.300', cursor: 'not-allowed' },
});

const select = css({
  height: '32px',
  px: '1',
  minWidth: 0,
  borderRadius: 'md',
  border: '1px solid {colors.border}',
  bg: 'bg',
  fontSize: 'sm',
  fontWeight: 'medium',
  cursor: 'pointer',
});

/** Keys that move the focus through the grid, as days to add to the focused day (Home and End stay in the week). */
function daysForKey(key: string, focused: IsoDate): number | null {
  switch (key) {
    case 'ArrowLeft':
      return -1;
    case 'ArrowRight':
      return 1;
    case 'ArrowUp':
      return -7;
    case 'ArrowDown':
      return 7;
    case 'Home':
      return -weekdayFromMonday(focused);
    case 'End':
      return 6 - weekdayFromMonday(focused);
    default:
      return null;
  }
}

/**
 * A date field with a calendar popover (280 px wide, six weeks Monday first) for one date or a range,
 * driven by the date range statechart. Dates show as 'Day, D Mon YYYY'. In the grid the arrow keys move
 * by a day or a week, Home and End to the week's ends, Page Up and Page Down by a month, Enter picks and
 * Escape closes. `min`, `max` and `today` are read when the picker mounts; give it a new `key` to change them.
 */
export function DatePicker(props: DatePickerProps) {
  const {
    label,
    min,
    max,
    today,
    placeholder,
    required,
    disabled,
    error,
    showErrors = true,
    mode = 'single',
    defaultValue,
  } = props;
  const id = useId();
  const labelId = `${id}-label`;
  const valueId = `${id}-value`;
  const errorId = `${id}-error`;
  const captionId = `${id}-caption`;
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const grid = useRef<HTMLTableElement>(null);

  const actor = useActorRef(dateRangeMachine, {
    input: { mode, today: today ?? toIsoDate(new Date()), min, max, value: defaultValue },
    inspect: inspectFlows,
  });
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  useEffect(() => {
    const sub = actor.on('committed', ({ value }) => {
      const call = onChange.current as ((v: IsoDate | DateRangeValue) => void) | undefined;
      call?.(mode === 'range' ? value : value.start);
    });
    return () => sub.unsubscribe();
  }, [actor, mode]);

  const open = useSelector(actor, (s) => s.matches('open'));
  const focused = useSelector(actor, (s) => s.context.focused);
  const value = useSelector(actor, (s) => s.context.value);
  const draftStart = useSelector(actor, (s) => s.context.start);
  const draftEnd = useSelector(actor, (s) => s.context.end);
  const highlightStart = useSelector(actor, (s) => selectHighlight(s).start);
  const highlightEnd = useSelector(actor, (s) => selectHighlight(s).end);
  const bounds = useSelector(actor, (s) => `${s.context.min}/${s.context.max}`);
  const years = useSelector(actor, selectYears, (a, b) => a.length === b.length && a[0] === b[0]);
  const canPrevious = useSelector(actor, (s) => s.can({ type: 'month.previous' }));
  const canNext = useSelector(actor, (s) => s.can({ type: 'month.next' }));
  const canConfirm = useSelector(actor, (s) => s.can({ type: 'range.confirmed' }));
  const canReset = useSelector(actor, (s) => s.can({ type: 'range.reset' }));
  const step = useSelector(actor, (s) =>
    s.matches({ open: 'selectingEnd' }) ? 'end' : s.matches({ open: 'complete' }) ? 'complete' : 'start',
  );
  const [minDate, maxDate] = bounds.split('/') as [IsoDate, IsoDate];
  const year = Number(focused.slice(0, 4));
  const month = Number(focused.slice(5, 7));
  const realToday = today ?? toIsoDate(new Date());

  // with only the start picked, the start alone is highlighted
  const from = highlightStart;
  const to = highlightEnd ?? highlightStart;

  // focus lands on the focused day when the picker opens, and follows it while the keyboard drives the grid
  // (a move into another month unmounts the day that had the focus, so "the grid has it" is not enough)
  const focusPlaced = useRef(false);
  const keyboardMove = useRef(false);
  useLayoutEffect(() => {
    if (!open) {
      focusPlaced.current = false;
      return;
    }
    if (!grid.current) return;
    if (!focusPlaced.current || keyboardMove.current || grid.current.contains(document.activeElement)) {
      focusPlaced.current = true;
      keyboardMove.current = false;
      grid.current.querySelector<HTMLButtonElement>(`button[data-date="${focused}"]`)?.focus();
    }
  }, [open, focused]);

  // closing with the focus inside (or lost with the popover) gives it back to the field
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) {
      const active = document.activeElement;
      if (!active || active === document.body || wrapper.current?.contains(active)) trigger.current?.focus();
    }
    wasOpen.current = open;
  }, [open]);

  // a press outside closes (and drops the draft)
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) actor.send({ type: 'picker.closed' });
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open, actor]);

  useEscapeKey(open, () => actor.send({ type: 'picker.closed' }));

  /** A move the keyboard asked for: the focus follows the focused day, even into another month. */
  const moveByKeyboard = (event: DateRangeEvent) => {
    if (!actor.getSnapshot().can(event)) return;
    keyboardMove.current = true;
    actor.send(event);
  };

  const onGridKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'PageUp' || e.key === 'PageDown') {
      e.preventDefault();
      const back = e.key === 'PageUp';
      moveByKeyboard(
        e.shiftKey
          ? { type: 'year.selected', year: year + (back ? -1 : 1) }
          : { type: back ? 'month.previous' : 'month.next' },
      );
      return;
    }
    const days = daysForKey(e.key, focused);
    if (days === null) return;
    e.preventDefault();
    if (days !== 0) moveByKeyboard({ type: 'focus.moved', days });
  };

  const shown = isErrorShown(error, showErrors);
  const text =
    value === null
      ? ''
      : mode === 'range'
        ? `${formatDate(value.start)} – ${formatDate(value.end)}`
        : formatDate(value.start);
  const weeks = monthGrid(year, month);

  return (
    <div ref={wrapper} className={cx(fieldStack, css({ position: 'relative' }))}>
      <FieldLabel id={labelId} required={required}>
        {label}
      </FieldLabel>
      <button
        ref={trigger}
        type="button"
        disabled={disabled}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-labelledby={`${labelId} ${valueId}`}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? errorId : undefined}
        onClick={() => actor.send({ type: open ? 'picker.closed' : 'picker.opened' })}
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '2',
          height: '42px',
          px: '3',
          width: '100%',
          borderRadius: 'md',
          border: '1px solid {colors.border}',
          bg: 'bg',
          fontSize: 'md',
          textAlign: 'left',
          cursor: 'pointer',
          _disabled: { bg: 'bg.muted', color: 'fg.muted', cursor: 'not-allowed' },
          '&[aria-invalid=true]': { borderColor: 'error' },
        })}
      >
        <span
          id={valueId}
          data-empty={text ? undefined : ''}
          className={css({ truncate: true, color: 'fg', '&[data-empty]': { color: 'fg.muted' } })}
        >
          {text || placeholder || (mode === 'range' ? 'Select dates' : 'Select a date')}
        </span>
        <CalendarIcon className={css({ flexShrink: 0, color: 'fg.muted' })} />
      </button>
      <FieldError id={errorId} error={error} showErrors={showErrors} />

      {open ? (
        <div
          role="dialog"
          aria-label={mode === 'range' ? `${label}: choose the dates` : `${label}: choose a date`}
          className={css({
            position: 'absolute',
            top: '100%',
            left: 0,
            mt: '1',
            zIndex: 30,
            width: 'datePicker',
            maxWidth: 'calc(100vw - 16px)',
            p: '2',
            bg: 'bg',
            border: '1px solid {colors.border}',
            borderRadius: 'lg',
            boxShadow: '0 10px 30px rgba(17, 24, 39, 0.15)',
          })}
        >
          <div className={css({ display: 'flex', alignItems: 'center', gap: '1', mb: '2' })}>
            <button
              type="button"
              aria-label="Previous month"
              disabled={!canPrevious}
              onClick={() => actor.send({ type: 'month.previous' })}
              className={navButton}
            >
              <ChevronLeftIcon />
            </button>
            <select
              aria-label="Month"
              value={month}
              onChange={(e) => actor.send({ type: 'month.selected', month: Number(e.target.value) })}
              className={cx(select, css({ flex: 1 }))}
            >
              {MONTHS.map((name, i) => (
                <option
                  key={name}
                  value={i + 1}
                  disabled={!isMonthWithinBounds({ min: minDate, max: maxDate }, year, i + 1)}
                >
                  {name}
                </option>
              ))}
            </select>
            <select
              aria-label="Year"
              value={year}
              onChange={(e) => actor.send({ type: 'year.selected', year: Number(e.target.value) })}
              className={select}
            >
              {years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
            <button
              type="button"
              aria-label="Next month"
              disabled={!canNext}
              onClick={() => actor.send({ type: 'month.next' })}
              className={navButton}
            >
              <ChevronRightIcon />
            </button>
          </div>
          <div id={captionId} aria-live="polite" className={css({ srOnly: true })}>
            {MONTHS[month - 1]} {year}
          </div>
          <table
            ref={grid}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA date picker pattern: a table of day buttons is a grid
            role="grid"
            aria-labelledby={captionId}
            onKeyDown={onGridKeyDown}
            className={css({ width: '100%', borderCollapse: 'collapse', tableLayout: 'fixed' })}
          >
            <thead>
              <tr>
                {WEEKDAYS.map(([short, long]) => (
                  <th
                    key={short}
                    scope="col"
                    abbr={long}
                    className={css({ fontSize: 'xs', fontWeight: 'medium', color: 'fg.muted', pb: '1' })}
                  >
                    {short}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[0, 1, 2, 3, 4, 5].map((week) => (
                <tr key={week}>
                  {weeks.slice(week * 7, week * 7 + 7).map(({ date, inMonth }) => {
                    const outOfBounds = date < minDate || date > maxDate;
                    const isEnd = date === from || date === to;
                    const between = from !== null && to !== null && date > from && date < to;
                    return (
                      // biome-ignore lint/a11y/useAriaPropsSupportedByRole: a cell of a grid table is a gridcell, which takes aria-selected
                      <td
                        key={date}
                        aria-selected={isEnd || between}
                        aria-disabled={outOfBounds || undefined}
                        className={css({ p: '0', py: '0.5' })}
                      >
                        <button
                          type="button"
                          data-date={date}
                          tabIndex={date === focused ? 0 : -1}
                          disabled={outOfBounds}
                          aria-label={formatDate(date)}
                          aria-current={date === realToday ? 'date' : undefined}
                          onClick={() => actor.send({ type: 'day.picked', date })}
                          className={dayButton({
                            place: inMonth ? 'inMonth' : 'outside',
                            pick: isEnd ? 'end' : between ? 'between' : 'none',
                            today: date === realToday,
                          })}
                        >
                          {Number(date.slice(8, 10))}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          {mode === 'range' ? (
            <div className={css({ mt: '2', pt: '2', borderTop: '1px solid {colors.border}' })}>
              <p aria-live="polite" className={css({ fontSize: 'xs', color: 'fg.muted', mb: '2', minHeight: '1lh' })}>
                {step === 'start'
                  ? 'Pick the start date'
                  : step === 'end'
                    ? 'Pick the end date'
                    : `${formatDate(draftStart)} – ${formatDate(draftEnd)}`}
              </p>
              <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
                <Button
                  tone="secondary"
                  disabled={!canReset}
                  onClick={() => {
                    actor.send({ type: 'range.reset' });
                    // Reset disables itself: the focus goes back to the calendar rather than to nowhere
                    grid.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
                  }}
                  className={css({ minHeight: '32px', px: '3' })}
                >
                  Reset
                </Button>
                <Button
                  disabled={!canConfirm}
                  onClick={() => actor.send({ type: 'range.confirmed' })}
                  className={css({ minHeight: '32px', px: '3' })}
                >
                  Confirm
                </Button>
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
