import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dropdown, type Option } from './dropdown';

const TEAMS: Option[] = [
  { label: 'Arsenal', value: 'ARS' },
  { label: 'Chelsea', value: 'CHE' },
  { label: 'Liverpool', value: 'LIV' },
  { label: 'Manchester City', value: 'MCI' },
  { label: 'Manchester United', value: 'MUN' },
];

function Single({ searchable = true }: { searchable?: boolean }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <>
      <Dropdown label="Team" searchable={searchable} options={TEAMS} value={value} onChange={setValue} />
      <output>{value ?? 'none'}</output>
    </>
  );
}

function Multi() {
  const [value, setValue] = useState<string[]>([]);
  return (
    <>
      <Dropdown label="Teams" multiple options={TEAMS} value={value} onChange={setValue} />
      <output>{value.join(',') || 'none'}</output>
    </>
  );
}

describe('Dropdown', () => {
  it('is a combobox that opens a listbox and picks with the mouse', async () => {
    const user = userEvent.setup();
    render(<Single />);
    const box = screen.getByRole('combobox', { name: 'Team' });
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await user.click(box);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('option', { name: 'Chelsea' }));
    expect(screen.getByText('CHE', { selector: 'output' })).toBeInTheDocument();
    expect(box).toHaveValue('Chelsea');
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  it('searches by label; the first match is ready for Enter', async () => {
    const user = userEvent.setup();
    render(<Single />);
    const box = screen.getByRole('combobox', { name: 'Team' });
    await user.type(box, 'manch');
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Manchester City', 'Manchester United']);
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByText('MUN', { selector: 'output' })).toBeInTheDocument();
  });

  it("says 'No options found' when nothing matches", async () => {
    const user = userEvent.setup();
    render(<Single />);
    await user.type(screen.getByRole('combobox', { name: 'Team' }), 'zzz');
    expect(screen.getByText('No options found')).toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('moves with the arrows, closes with Escape without picking', async () => {
    const user = userEvent.setup();
    render(<Single />);
    const box = screen.getByRole('combobox', { name: 'Team' });
    box.focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'Chelsea' }).id);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByText('none', { selector: 'output' })).toBeInTheDocument();
  });

  it('select-only: type-ahead jumps to the first label that starts with the keys', async () => {
    const user = userEvent.setup();
    render(<Single searchable={false} />);
    const box = screen.getByRole('combobox', { name: 'Team' });
    box.focus();
    await user.keyboard('l');
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'Liverpool' }).id);
    await user.keyboard('{Enter}');
    expect(screen.getByText('LIV', { selector: 'output' })).toBeInTheDocument();
  });

  it('multi-select: toggles, stays open, and Select all selects then clears every option', async () => {
    const user = userEvent.setup();
    render(<Multi />);
    const box = screen.getByRole('combobox', { name: 'Teams' });
    await user.click(box);
    const list = screen.getByRole('listbox', { name: 'Teams' });
    expect(list).toHaveAttribute('aria-multiselectable', 'true');
    await user.click(within(list).getByRole('option', { name: 'Liverpool' }));
    expect(within(list).getByRole('option', { name: 'Liverpool' })).toHaveAttribute('aria-selected', 'true');
    await user.click(within(list).getByRole('option', { name: 'Select all' }));
    expect(screen.getByText('ARS,CHE,LIV,MCI,MUN', { selector: 'output' })).toBeInTheDocument();
    for (const option of within(list).getAllByRole('option')) expect(option).toHaveAttribute('aria-selected', 'true');
    await user.click(within(list).getByRole('option', { name: 'Select all' }));
    expect(screen.getByText('none', { selector: 'output' })).toBeInTheDocument();
  });

  it('multi-select: Select all takes only the options a search shows', async () => {
    const user = userEvent.setup();
    render(<Multi />);
    await user.type(screen.getByRole('combobox', { name: 'Teams' }), 'manchester');
    await user.click(screen.getByRole('option', { name: 'Select all' }));
    expect(screen.getByText('MCI,MUN', { selector: 'output' })).toBeInTheDocument();
  });

  it('shows the required marker and the error text', () => {
    render(<Dropdown label="Category" required options={TEAMS} value={null} onChange={() => {}} error="Select one" />);
    const box = screen.getByRole('combobox', { name: /Category/ });
    expect(box).toHaveAttribute('aria-required', 'true');
    expect(box).toHaveAccessibleDescription('Select one');
    expect(screen.getByText('*')).toHaveAttribute('aria-hidden', 'true');
  });

  describe('timers (spec section 9)', () => {
    afterEach(() => vi.useRealTimers());

    it('closes 150 ms after the focus leaves the field, and stays open when it comes back within them', () => {
      vi.useFakeTimers();
      render(
        <>
          <Single />
          <button type="button">Elsewhere</button>
        </>,
      );
      const box = screen.getByRole('combobox', { name: 'Team' });
      const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
      act(() => box.focus());
      act(() => box.click());
      expect(box).toHaveAttribute('aria-expanded', 'true');
      act(() => elsewhere.focus());
      act(() => vi.advanceTimersByTime(149));
      expect(box).toHaveAttribute('aria-expanded', 'true');
      act(() => vi.advanceTimersByTime(1));
      expect(box).toHaveAttribute('aria-expanded', 'false');

      act(() => box.focus());
      act(() => box.click());
      act(() => elsewhere.focus());
      act(() => vi.advanceTimersByTime(100));
      act(() => box.focus());
      act(() => vi.advanceTimersByTime(200));
      expect(box).toHaveAttribute('aria-expanded', 'true');
    });

    it('with autoOpen, clicks its own input after 1 second: focused and open', () => {
      vi.useFakeTimers();
      render(<Dropdown label="Team" autoOpen options={TEAMS} value={null} onChange={() => {}} />);
      const box = screen.getByRole('combobox', { name: 'Team' });
      act(() => vi.advanceTimersByTime(999));
      expect(box).toHaveAttribute('aria-expanded', 'false');
      act(() => vi.advanceTimersByTime(1));
      expect(box).toHaveAttribute('aria-expanded', 'true');
      expect(box).toHaveFocus();
    });

    it('with autoOpen, leaves a field the person is already in alone', () => {
      vi.useFakeTimers();
      render(
        <>
          <input aria-label="Amount" />
          <Dropdown label="Team" autoOpen options={TEAMS} value={null} onChange={() => {}} />
        </>,
      );
      const amount = screen.getByRole('textbox', { name: 'Amount' });
      act(() => amount.focus());
      act(() => vi.advanceTimersByTime(1000));
      expect(screen.getByRole('combobox', { name: 'Team' })).toHaveAttribute('aria-expanded', 'false');
      expect(amount).toHaveFocus();
    });
  });

  it('free text: what is typed is the value, a suggestion fills it in, Enter keeps the typed text', async () => {
    const user = userEvent.setup();
    function Block() {
      const [value, setValue] = useState<string | null>('');
      return (
        <form onSubmit={(e) => e.preventDefault()}>
          <Dropdown
            freeText
            label="Block"
            options={['101', '102', '305'].map((b) => ({ label: b, value: b }))}
            value={value}
            onChange={setValue}
          />
          <output>{value || 'none'}</output>
        </form>
      );
    }
    render(<Block />);
    const box = screen.getByRole('combobox', { name: 'Block' });
    await user.type(box, '10');
    expect(screen.getByText('10', { selector: 'output' })).toBeInTheDocument();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['101', '102']);
    expect(box).not.toHaveAttribute('aria-activedescendant');
    await user.click(screen.getByRole('option', { name: '102' }));
    expect(box).toHaveValue('102');
    await user.clear(box);
    await user.type(box, 'Upper 7{Enter}');
    expect(box).toHaveValue('Upper 7');
    expect(screen.getByText('Upper 7', { selector: 'output' })).toBeInTheDocument();
    // nothing to suggest: no list and no 'No options found'
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.queryByText('No options found')).toBeNull();
  });
});
