import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { css, cx } from 'styled-system/css';
import { FieldError, FieldLabel, fieldStack, isErrorShown } from './field';
import { CheckIcon, ChevronDownIcon } from './icons';
import { inputBox } from './text-field';

/** A dropdown option (spec section 3). */
export interface Option<V extends string | number = string> {
  label: string;
  value: V;
}

export const NO_OPTIONS = 'No options found';
export const SELECT_ALL = 'Select all';
/** Type-ahead keys typed within this long of each other make one search (select-only dropdowns). */
const TYPE_AHEAD_MS = 500;
/** Focus leaving the field closes the list this long after (spec section 9): a tap on an option lands first. */
export const BLUR_CLOSE_MS = 150;
/** `autoOpen` clicks the field's input this long after it appears (spec section 9). */
export const AUTO_OPEN_MS = 1000;
/** Below this width the list is the small one (spec section 9: 'dropdown small 480'). */
export const SMALL_WIDTH = 480;

interface CommonProps<V extends string | number> {
  label: string;
  options: readonly Option<V>[];
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  /** Options are still loading: the list says so. */
  loading?: boolean;
  error?: string | null;
  showErrors?: boolean;
  /** Typing filters the options by label (default). Off, typing jumps to the first label that starts so. */
  searchable?: boolean;
  name?: string;
  /**
   * The dropdown is the next thing to do where it appears: one second after, it clicks its own input (focus and
   * open), unless the person is already typing in another field.
   */
  autoOpen?: boolean;
}

export interface SingleDropdownProps<V extends string | number> extends CommonProps<V> {
  multiple?: false;
  value: V | null;
  onChange: (value: V | null) => void;
  /**
   * The options are suggestions: what the person types is the value (sent as they type), and picking a suggestion
   * fills it in. For string values only.
   */
  freeText?: boolean;
}

export interface MultiDropdownProps<V extends string | number> extends CommonProps<V> {
  multiple: true;
  value: readonly V[];
  /** Values come out in the options' order. */
  onChange: (value: V[]) => void;
}

export type DropdownProps<V extends string | number> = SingleDropdownProps<V> | MultiDropdownProps<V>;

/** A field the person may be typing in: `autoOpen` leaves it alone. */
const isEditable = (el: Element) =>
  el.matches('input, textarea, select') || (el instanceof HTMLElement && el.isContentEditable);

type Row<V extends string | number> = { kind: 'all' } | { kind: 'option'; option: Option<V> };

const optionRow = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  px: '3',
  py: '2',
  fontSize: 'sm',
  cursor: 'pointer',
  color: 'fg',
  '&[data-active]': { bg: 'brand.50', outline: '2px solid', outlineColor: 'focus', outlineOffset: '-2px' },
  '&[aria-selected=true]': { fontWeight: 'semibold' },
});

const checkBox = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '16px',
  height: '16px',
  flexShrink: 0,
  borderRadius: 'sm',
  border: '1px solid {colors.fg.muted}',
  color: 'accent.fg',
  '[aria-selected=true] > &': { bg: 'accent', borderColor: 'accent' },
});

/**
 * A dropdown after the WAI-ARIA combobox pattern: the field is a combobox, the options a listbox.
 * Typing searches by label (the first match becomes active); Down and Up open and move, Home and End
 * jump (select-only), Enter picks, Escape closes, Tab leaves. With `multiple`, picking toggles, the list
 * stays open, and 'Select all' selects (or clears) every option shown. 'No options found' when nothing
 * matches. The list is 40vh high, never less than 120 px; below 480 px wide it is the small list, 30vh high (a
 * phone's keyboard takes the lower half of the screen). Focus leaving the field closes the list 150 ms after.
 */
export function Dropdown<V extends string | number>(props: SingleDropdownProps<V>): ReactNode;
export function Dropdown<V extends string | number>(props: MultiDropdownProps<V>): ReactNode;
export function Dropdown<V extends string | number>(props: DropdownProps<V>): ReactNode {
  const {
    label,
    options,
    placeholder = 'Select',
    required,
    disabled,
    loading = false,
    error,
    showErrors = true,
    searchable = true,
    name,
    autoOpen = false,
  } = props;
  const freeText = !props.multiple && props.freeText === true;
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const wrapper = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const typeAhead = useRef({ text: '', at: 0 });
  const blurTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(blurTimer.current), []);
  useEffect(() => {
    if (!autoOpen) return;
    const timer = setTimeout(() => {
      const focused = document.activeElement;
      if (!input.current || input.current.disabled) return;
      if (focused && isEditable(focused) && !wrapper.current?.contains(focused)) return;
      input.current.focus();
      input.current.click();
    }, AUTO_OPEN_MS);
    return () => clearTimeout(timer);
  }, [autoOpen]);

  const selected: readonly V[] = props.multiple ? props.value : props.value === null ? [] : [props.value];
  const isSelected = (v: V) => selected.includes(v);

  const filtered = useMemo(() => {
    const q = (query ?? '').trim().toLowerCase();
    return q ? options.filter((o) => o.label.toLowerCase().includes(q)) : options;
  }, [options, query]);
  const rows: Row<V>[] = useMemo(
    () => [
      ...(props.multiple && filtered.length > 0 ? [{ kind: 'all' } as const] : []),
      ...filtered.map((option) => ({ kind: 'option' as const, option })),
    ],
    [filtered, props.multiple],
  );
  const allShownSelected = filtered.length > 0 && filtered.every((o) => isSelected(o.value));
  const listShown = open && !loading && rows.length > 0;
  // a free-text field with nothing to suggest shows no list at all
  const popupShown = open && !(freeText && !loading && rows.length === 0);
  const optionId = (i: number) => `${id}-option-${i}`;

  useEffect(() => {
    if (active < 0) return;
    list.current?.querySelector(`#${CSS.escape(optionId(active))}`)?.scrollIntoView?.({ block: 'nearest' });
  });

  const summary = (() => {
    const labels = options.filter((o) => isSelected(o.value)).map((o) => o.label);
    if (!props.multiple) return labels[0] ?? '';
    return labels.length === 0 ? '' : labels.length <= 2 ? labels.join(', ') : `${labels.length} selected`;
  })();

  const show = (at: number) => {
    setOpen(true);
    setActive(at);
  };
  const close = () => {
    setOpen(false);
    setActive(-1);
    setQuery(null);
  };
  const firstSelectedRow = () => {
    const i = rows.findIndex((r) => r.kind === 'option' && isSelected(r.option.value));
    return Math.max(0, i);
  };

  const choose = (row: Row<V>) => {
    if (!props.multiple) {
      if (row.kind === 'option') props.onChange(row.option.value);
      close();
      return;
    }
    const shownValues = filtered.map((o) => o.value);
    let next: Set<V>;
    if (row.kind === 'all') {
      next = new Set(props.value);
      for (const v of shownValues) {
        if (allShownSelected) next.delete(v);
        else next.add(v);
      }
    } else {
      next = new Set(props.value);
      if (next.has(row.option.value)) next.delete(row.option.value);
      else next.add(row.option.value);
    }
    props.onChange(options.filter((o) => next.has(o.value)).map((o) => o.value));
  };

  const jumpTo = (char: string) => {
    const now = Date.now();
    const t = typeAhead.current;
    t.text = now - t.at < TYPE_AHEAD_MS ? t.text + char.toLowerCase() : char.toLowerCase();
    t.at = now;
    const i = rows.findIndex((r) => r.kind === 'option' && r.option.label.toLowerCase().startsWith(t.text));
    if (i >= 0) show(i);
    else if (!open) show(firstSelectedRow());
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) show(e.altKey ? -1 : firstSelectedRow());
        else setActive((a) => Math.min(rows.length - 1, a + 1));
        return;
      case 'ArrowUp':
        e.preventDefault();
        if (!open) show(rows.length - 1);
        else setActive((a) => Math.max(0, a - 1));
        return;
      case 'Home':
      case 'End':
        if (searchable || !open) return; // in a search field they move the caret
        e.preventDefault();
        setActive(e.key === 'Home' ? 0 : rows.length - 1);
        return;
      case 'Enter': {
        if (!open) return;
        const row = rows[active];
        if (freeText && !row) return close(); // what was typed stands
        e.preventDefault();
        if (row) choose(row);
        return;
      }
      case ' ':
        if (searchable) return; // a space inside a search
        e.preventDefault();
        if (!open) show(firstSelectedRow());
        else if (rows[active]) choose(rows[active] as Row<V>);
        return;
      case 'Escape':
        if (open) {
          e.preventDefault();
          e.stopPropagation();
          close();
        }
        return;
      case 'Tab':
        close();
        return;
      default:
        if (!searchable && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
          e.preventDefault();
          jumpTo(e.key);
        }
    }
  };

  const shown = isErrorShown(error, showErrors);
  const activeRow = listShown && active >= 0 && active < rows.length ? active : -1;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focus leaving the whole field (input and list) closes the list
    <div
      ref={wrapper}
      className={cx(fieldStack, css({ position: 'relative' }))}
      onBlur={(e) => {
        if (wrapper.current?.contains(e.relatedTarget as Node | null)) return;
        clearTimeout(blurTimer.current);
        blurTimer.current = setTimeout(() => {
          if (!wrapper.current?.contains(document.activeElement)) close();
        }, BLUR_CLOSE_MS);
      }}
      onFocus={() => clearTimeout(blurTimer.current)}
    >
      <FieldLabel htmlFor={inputId} required={required}>
        {label}
      </FieldLabel>
      <div className={css({ position: 'relative' })}>
        <input
          ref={input}
          id={inputId}
          name={name}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          readOnly={!searchable}
          disabled={disabled}
          placeholder={summary || placeholder}
          value={query ?? (freeText ? String(props.value ?? '') : props.multiple && open && searchable ? '' : summary)}
          aria-expanded={listShown}
          aria-controls={listShown ? listId : undefined}
          aria-autocomplete={searchable ? 'list' : 'none'}
          aria-activedescendant={activeRow >= 0 ? optionId(activeRow) : undefined}
          aria-required={required || undefined}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? errorId : undefined}
          aria-busy={loading || undefined}
          onChange={(e) => {
            const typed = e.target.value;
            setQuery(typed);
            setOpen(true);
            setActive(freeText ? -1 : 0); // the first match is ready for Enter, unless the text is the value
            if (freeText && !props.multiple) props.onChange(typed as V);
          }}
          onClick={() => (open ? close() : show(firstSelectedRow()))}
          onFocus={(e) => e.target.select()}
          onKeyDown={onKeyDown}
          className={cx(
            inputBox,
            css({ pr: '9', textOverflow: 'ellipsis' }),
            searchable ? undefined : css({ cursor: 'pointer', caretColor: 'transparent' }),
          )}
        />
        <ChevronDownIcon
          className={css({
            position: 'absolute',
            right: '3',
            top: '50%',
            transform: 'translateY(-50%)',
            color: 'fg.muted',
            pointerEvents: 'none',
          })}
        />
      </div>
      <FieldError id={errorId} error={error} showErrors={showErrors} />
      {popupShown ? (
        <div
          className={css({
            position: 'absolute',
            top: '100%',
            left: 0,
            right: 0,
            mt: '1',
            zIndex: 30,
            bg: 'bg',
            border: '1px solid {colors.border}',
            borderRadius: 'md',
            boxShadow: '0 10px 30px rgba(17, 24, 39, 0.15)',
            overflow: 'hidden',
          })}
        >
          {loading ? (
            <p role="status" className={css({ px: '3', py: '3', fontSize: 'sm', color: 'fg.muted' })}>
              Loading...
            </p>
          ) : rows.length === 0 ? (
            <p role="status" className={css({ px: '3', py: '3', fontSize: 'sm', color: 'fg.muted' })}>
              {NO_OPTIONS}
            </p>
          ) : (
            <div
              ref={list}
              id={listId}
              role="listbox"
              aria-label={label}
              aria-multiselectable={props.multiple || undefined}
              className={css({
                maxHeight: 'max(40vh, 120px)',
                overflowY: 'auto',
                py: '1',
                // SMALL_WIDTH: Panda reads the query as written
                '@media (max-width: 479.98px)': { maxHeight: 'max(30vh, 120px)' },
              })}
            >
              {rows.map((row, i) => {
                const isAll = row.kind === 'all';
                const chosen = isAll ? allShownSelected : isSelected(row.option.value);
                return (
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox keeps the focus and takes the keys (aria-activedescendant)
                  // biome-ignore lint/a11y/useFocusableInteractive: as above: options are never focused themselves
                  <div
                    key={isAll ? '__all' : String(row.option.value)}
                    id={optionId(i)}
                    role="option"
                    aria-selected={chosen}
                    data-active={i === activeRow || undefined}
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseMove={() => i !== active && setActive(i)}
                    onClick={() => choose(row)}
                    className={cx(optionRow, isAll ? css({ borderBottom: '1px solid {colors.border}' }) : undefined)}
                  >
                    {props.multiple ? (
                      <span aria-hidden="true" className={checkBox}>
                        {chosen ? <CheckIcon size={12} /> : null}
                      </span>
                    ) : null}
                    <span className={css({ flex: 1, minWidth: 0 })}>{isAll ? SELECT_ALL : row.option.label}</span>
                    {!props.multiple && chosen ? <CheckIcon className={css({ color: 'accent' })} /> : null}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      ) : null}
    </div>
  );
}
