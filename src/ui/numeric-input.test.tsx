import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CurrencyInput, DecimalInput, NumericInput } from './numeric-input';

function Currency({
  initial = null,
  currency = 'GBP',
  spy = vi.fn(),
}: {
  initial?: number | null;
  currency?: string;
  spy?: (v: number | null) => void;
}) {
  const [value, setValue] = useState<number | null>(initial);
  return (
    <>
      <CurrencyInput
        label="Amount"
        currency={currency}
        value={value}
        onValueChange={(v) => {
          setValue(v);
          spy(v);
        }}
      />
      <button type="button">elsewhere</button>
    </>
  );
}

function Numeric() {
  const [text, setText] = useState('');
  return <NumericInput label="Quantity" value={text} onValueChange={setText} />;
}

function Decimal({ spy }: { spy: (v: number | null) => void }) {
  const [v, setV] = useState<number | null>(null);
  return (
    <DecimalInput
      label="Rate"
      value={v}
      onValueChange={(n) => {
        setV(n);
        spy(n);
      }}
    />
  );
}

describe('CurrencyInput', () => {
  it("pasting '1,234.5' gives 123450 minor units and shows 1,234.50 once blurred", async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Currency spy={spy} />);
    const field = screen.getByLabelText('Amount');
    await user.click(field);
    await user.paste('1,234.5');
    expect(field).toHaveValue('1234.5');
    expect(spy).toHaveBeenLastCalledWith(123450);
    await user.tab();
    expect(field).toHaveValue('1,234.50');
  });

  it("typing '.5' gives 0.5 (50 minor units, 0.50 blurred)", async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Currency spy={spy} />);
    const field = screen.getByLabelText('Amount');
    await user.type(field, '.5');
    expect(field).toHaveValue('0.5');
    expect(spy).toHaveBeenLastCalledWith(50);
    await user.tab();
    expect(field).toHaveValue('0.50');
  });

  it('refuses a second decimal point and a third decimal', async () => {
    const user = userEvent.setup();
    render(<Currency />);
    const field = screen.getByLabelText('Amount');
    await user.type(field, '1.2.34');
    expect(field).toHaveValue('1.23');
  });

  it("takes '-' only first", async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Currency spy={spy} />);
    const field = screen.getByLabelText('Amount');
    await user.type(field, '1-2');
    expect(field).toHaveValue('12');
    await user.clear(field);
    await user.type(field, '-0.29');
    expect(field).toHaveValue('-0.29');
    expect(spy).toHaveBeenLastCalledWith(-29);
  });

  it('refuses letters and symbols', async () => {
    const user = userEvent.setup();
    render(<Currency />);
    const field = screen.getByLabelText('Amount');
    await user.type(field, '1a£2e');
    expect(field).toHaveValue('12');
  });

  it('never goes through a float: 0.29 is 29', async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Currency spy={spy} />);
    await user.type(screen.getByLabelText('Amount'), '0.29');
    expect(spy).toHaveBeenLastCalledWith(29);
  });

  it('zero shows 0.00 unfocused and empty on focus', async () => {
    const user = userEvent.setup();
    render(<Currency initial={0} />);
    const field = screen.getByLabelText('Amount');
    expect(field).toHaveValue('0.00');
    await user.click(field);
    expect(field).toHaveValue('');
  });

  it('an amount is edited plain and shown with separators', async () => {
    const user = userEvent.setup();
    render(<Currency initial={123456789} />);
    const field = screen.getByLabelText('Amount');
    expect(field).toHaveValue('1,234,567.89');
    await user.click(field);
    expect(field).toHaveValue('1234567.89');
  });

  it('clearing the field gives null', async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Currency initial={500} spy={spy} />);
    await user.clear(screen.getByLabelText('Amount'));
    expect(spy).toHaveBeenLastCalledWith(null);
  });

  it('shows the symbol, with extra room for AED', () => {
    const { unmount } = render(<Currency currency="AED" />);
    const aed = screen.getByLabelText('Amount');
    expect(aed).toHaveAttribute('data-symbol', 'AED');
    const wide = aed.className;
    unmount();
    render(<Currency currency="GBP" />);
    const gbp = screen.getByLabelText('Amount');
    expect(gbp).toHaveAttribute('data-symbol', '£');
    expect(gbp.className).not.toBe(wide);
    expect(screen.getByText('£')).toHaveAttribute('aria-hidden', 'true');
  });
});

describe('DecimalInput', () => {
  it('hands out hundredths and shows two decimals unfocused', async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Decimal spy={spy} />);
    const field = screen.getByLabelText('Rate');
    await user.type(field, '12.5');
    expect(spy).toHaveBeenLastCalledWith(1250);
    await user.tab();
    expect(field).toHaveValue('12.50');
  });
});

describe('NumericInput', () => {
  it('applies the same rules without formatting', async () => {
    const user = userEvent.setup();
    render(<Numeric />);
    const field = screen.getByLabelText('Quantity');
    await user.type(field, '-1x2.3.4');
    expect(field).toHaveValue('-12.34');
    fireEvent.change(field, { target: { value: '.5' } });
    expect(field).toHaveValue('0.5');
    fireEvent.change(field, { target: { value: '1,000' } });
    expect(field).toHaveValue('1000');
    await user.tab();
    expect(field).toHaveValue('1000');
  });
});
