import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DatePicker } from './date-picker';

const TODAY = '2026-11-18';

describe('DatePicker', () => {
  it('shows six weeks of 42 days, Monday first, named by the one date format', async () => {
    const user = userEvent.setup();
    render(<DatePicker label="Match date" today={TODAY} />);
    await user.click(screen.getByRole('button', { name: /Match date/ }));
    const grid = screen.getByRole('grid', { name: 'November 2026' });
    const days = within(grid).getAllByRole('button');
    expect(days).toHaveLength(42);
    expect(days[0]).toHaveAccessibleName('Mon, 26 Oct 2026');
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    expect(screen.getByRole('button', { name: 'Wed, 18 Nov 2026' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Wed, 18 Nov 2026' })).toHaveAttribute('aria-current', 'date');
  });

  it('single: a pick commits at once, closes and gives the focus back', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DatePicker label="Match date" today={TODAY} onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: /Match date/ });
    await user.click(trigger);
    await user.click(screen.getByRole('button', { name: 'Sun, 22 Nov 2026' }));
    expect(onChange).toHaveBeenCalledWith('2026-11-22');
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
    expect(trigger).toHaveAccessibleName('Match date Sun, 22 Nov 2026');
    expect(trigger).toHaveFocus();
  });

  it('range with the keyboard: arrows move, Enter picks, Confirm commits', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DatePicker label="Report period" mode="range" today={TODAY} onChange={onChange} />);
    screen.getByRole('button', { name: /Report period/ }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await user.keyboard('{ArrowRight}{Enter}');
    expect(screen.getByText('Pick the end date')).toBeInTheDocument();
    await user.keyboard('{ArrowDown}{Enter}');
    const cell = (name: string) => screen.getByRole('button', { name }).closest('td');
    expect(cell('Thu, 19 Nov 2026')).toHaveAttribute('aria-selected', 'true');
    expect(cell('Mon, 23 Nov 2026')).toHaveAttribute('aria-selected', 'true');
    expect(cell('Thu, 26 Nov 2026')).toHaveAttribute('aria-selected', 'true');
    expect(cell('Fri, 27 Nov 2026')).toHaveAttribute('aria-selected', 'false');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onChange).toHaveBeenCalledWith({ start: '2026-11-19', end: '2026-11-26' });
    expect(screen.getByRole('button', { name: /Report period/ })).toHaveTextContent(
      'Thu, 19 Nov 2026 – Thu, 26 Nov 2026',
    );
  });

  it('the focus follows the keyboard into the next month, and Page Down moves a month', async () => {
    const user = userEvent.setup();
    render(<DatePicker label="Match date" today="2026-11-25" />);
    await user.click(screen.getByRole('button', { name: /Match date/ }));
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('grid', { name: 'December 2026' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Wed, 2 Dec 2026' })).toHaveFocus();
    await user.keyboard('{PageDown}');
    expect(screen.getByRole('button', { name: 'Sat, 2 Jan 2027' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('button', { name: 'Mon, 28 Dec 2026' })).toHaveFocus();
  });

  it('range: Reset clears both ends; Escape closes without committing', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DatePicker label="Report period" mode="range" today={TODAY} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: /Report period/ }));
    await user.click(screen.getByRole('button', { name: 'Tue, 10 Nov 2026' }));
    await user.click(screen.getByRole('button', { name: 'Fri, 13 Nov 2026' }));
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('disables days and months beyond the bounds', async () => {
    const user = userEvent.setup();
    render(<DatePicker label="Booking window" mode="range" today={TODAY} min="2026-11-10" max="2026-11-25" />);
    await user.click(screen.getByRole('button', { name: /Booking window/ }));
    expect(screen.getByRole('button', { name: 'Mon, 9 Nov 2026' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Mon, 9 Nov 2026' }).closest('td')).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Thu, 26 Nov 2026' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Tue, 10 Nov 2026' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next month' })).toBeDisabled();
    expect(screen.getByRole('option', { name: 'December' })).toBeDisabled();
    expect(within(screen.getByRole('combobox', { name: 'Year' })).getAllByRole('option')).toHaveLength(1);
  });

  it('the year list runs from 100 years back to 10 ahead by default', async () => {
    const user = userEvent.setup();
    render(<DatePicker label="Match date" today={TODAY} />);
    await user.click(screen.getByRole('button', { name: /Match date/ }));
    const years = within(screen.getByRole('combobox', { name: 'Year' })).getAllByRole('option');
    expect(years[0]).toHaveTextContent('1926');
    expect(years.at(-1)).toHaveTextContent('2036');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Year' }), '2030');
    expect(screen.getByRole('grid', { name: 'November 2030' })).toBeInTheDocument();
  });

  it('shows the error only with showErrors', () => {
    const { rerender } = render(<DatePicker label="Travel date" today={TODAY} error="Pick one" showErrors={false} />);
    expect(screen.queryByText('Pick one')).not.toBeInTheDocument();
    rerender(<DatePicker label="Travel date" today={TODAY} error="Pick one" />);
    expect(screen.getByRole('button', { name: /Travel date/ })).toHaveAccessibleDescription('Pick one');
  });
});
