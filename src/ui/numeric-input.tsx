import { type ChangeEvent, type InputHTMLAttributes, useId, useState } from 'react';
import { css, cva, cx } from 'styled-system/css';
import { currencyExponent, currencySymbol, parseMinorUnits } from '../lib/money';
import { acceptNumericEdit, type NumericRules, toDisplayText, toEditText } from '../lib/numeric-input';
import { FieldError, FieldLabel, fieldStack, isErrorShown } from './field';
import { inputBox } from './text-field';

type InputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'defaultValue' | 'onChange' | 'type' | 'inputMode' | 'children'
>;

interface FieldProps extends InputProps {
  label: string;
  error?: string | null;
  /** Off until the form wants errors seen (default on). */
  showErrors?: boolean;
  /** A leading minus is allowed (default true, as the spec says). */
  allowNegative?: boolean;
  /** The field's rule in a few words, always shown under it ('From 5.00 to 100,000.00 a ticket.'). */
  hint?: string;
}

function useFieldIds(error: string | null | undefined, showErrors: boolean, hint?: string) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const shown = isErrorShown(error, showErrors);
  const describedBy = [hint ? hintId : '', shown ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return { id, errorId, hintId, invalid: shown ? true : undefined, describedBy };
}

/** A field's rule under it, when it has one. */
function FieldHint({ id, hint }: { id: string; hint?: string }) {
  return hint ? (
    <span id={id} className={css({ color: 'fg.muted', fontSize: 'sm' })}>
      {hint}
    </span>
  ) : null;
}

export interface NumericInputProps extends FieldProps {
  /** The text as typed, already cleaned: '-1234.5'. */
  value: string;
  onValueChange: (text: string) => void;
  /** A decimal point is allowed (default true). */
  allowDecimal?: boolean;
}

/**
 * A numeric text field: only digits, one decimal point and a leading minus; pasted thousands commas are
 * stripped and a leading dot gets a zero ('.5' becomes '0.5'). Anything else typed is refused.
 */
export function NumericInput({
  label,
  error,
  showErrors = true,
  required,
  value,
  onValueChange,
  allowNegative = true,
  allowDecimal = true,
  hint,
  className,
  ...input
}: NumericInputProps) {
  const ids = useFieldIds(error, showErrors, hint);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const accepted = acceptNumericEdit(e.target.value, { allowNegative, allowDecimal });
    if (accepted !== null) onValueChange(accepted);
  };
  return (
    <div className={fieldStack}>
      <FieldLabel htmlFor={ids.id} required={required}>
        {label}
      </FieldLabel>
      <input
        {...input}
        id={ids.id}
        type="text"
        inputMode={allowDecimal ? 'decimal' : 'numeric'}
        autoComplete="off"
        required={required}
        value={value}
        onChange={onChange}
        aria-invalid={ids.invalid}
        aria-describedby={ids.describedBy}
        className={cx(inputBox, className)}
      />
      <FieldHint id={ids.hintId} hint={hint} />
      <FieldError id={ids.errorId} error={error} showErrors={showErrors} />
    </div>
  );
}

const amountBox = cva({
  base: { textAlign: 'left', fontVariantNumeric: 'tabular-nums' },
  variants: {
    // a one-character symbol ('£') needs a little room; the spec gives 'AED' extra left padding
    symbol: { none: {}, narrow: { pl: '7' }, wide: { pl: '12' } },
  },
  defaultVariants: { symbol: 'none' },
});

interface AmountProps extends FieldProps {
  /** Minor units (or hundredths for a decimal field), never a float; null for empty. */
  value: number | null;
  onValueChange: (minor: number | null) => void;
  exponent: number;
  symbol?: string;
}

/** The shared body of the currency and decimal fields. */
function AmountInput({
  label,
  error,
  showErrors = true,
  required,
  value,
  onValueChange,
  allowNegative = true,
  exponent,
  symbol,
  hint,
  className,
  onFocus,
  onBlur,
  ...input
}: AmountProps) {
  const ids = useFieldIds(error, showErrors, hint);
  // the text being edited while focused; without focus the field shows the formatted value
  const [editing, setEditing] = useState<string | null>(null);
  const rules: NumericRules = { allowNegative, allowDecimal: exponent > 0, maxDecimals: exponent };
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const accepted = acceptNumericEdit(e.target.value, rules);
    if (accepted === null) return;
    setEditing(accepted);
    const minor = parseMinorUnits(accepted, exponent);
    if (minor !== value) onValueChange(minor);
  };
  const width = !symbol ? 'none' : symbol.length > 1 ? 'wide' : 'narrow';
  return (
    <div className={fieldStack}>
      <FieldLabel htmlFor={ids.id} required={required}>
        {label}
      </FieldLabel>
      <div className={css({ position: 'relative' })}>
        {symbol ? (
          <span
            aria-hidden="true"
            className={css({
              position: 'absolute',
              left: '3',
              top: '50%',
              transform: 'translateY(-50%)',
              color: 'fg.muted',
              fontSize: 'md',
              pointerEvents: 'none',
            })}
          >
            {symbol}
          </span>
        ) : null}
        <input
          {...input}
          id={ids.id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          required={required}
          value={editing ?? toDisplayText(value, exponent)}
          data-symbol={symbol || undefined}
          onFocus={(e) => {
            setEditing(toEditText(value, exponent));
            onFocus?.(e);
          }}
          onBlur={(e) => {
            setEditing(null);
            onBlur?.(e);
          }}
          onChange={onChange}
          aria-invalid={ids.invalid}
          aria-describedby={ids.describedBy}
          className={cx(inputBox, amountBox({ symbol: width }), className)}
        />
      </div>
      <FieldHint id={ids.hintId} hint={hint} />
      <FieldError id={ids.errorId} error={error} showErrors={showErrors} />
    </div>
  );
}

export interface CurrencyInputProps extends FieldProps {
  /** The amount in minor units of `currency` (pence, cents, fils); null when empty. */
  value: number | null;
  onValueChange: (minor: number | null) => void;
  /** ISO 4217 code: its symbol shows in the field and its minor unit sets the decimals. */
  currency: string;
}

/**
 * A money field. Shows the currency symbol (AED with extra room), two decimals and thousands separators
 * without focus ('1,234.50'), the plain amount while focused ('1234.50', empty for zero), and hands out
 * integers of minor units: typing or pasting '1,234.5' gives 123450.
 */
export function CurrencyInput({ currency, ...rest }: CurrencyInputProps) {
  return <AmountInput {...rest} exponent={currencyExponent(currency)} symbol={currencySymbol(currency)} />;
}

export interface DecimalInputProps extends FieldProps {
  /** The number scaled by 10^decimals as an integer: 12.5 with 2 decimals is 1250; null when empty. */
  value: number | null;
  onValueChange: (scaled: number | null) => void;
  /** Default 2. */
  decimals?: number;
}

/** A decimal field: like the currency field without a symbol; values are scaled integers. */
export function DecimalInput({ decimals = 2, ...rest }: DecimalInputProps) {
  return <AmountInput {...rest} exponent={decimals} />;
}
