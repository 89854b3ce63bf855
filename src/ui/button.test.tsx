import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Button } from './button';
import { FormFooter } from './form-footer';

describe('a disabled button says why', () => {
  it('shows the reason under a disabled button and reads it with the button', () => {
    render(
      <Button disabled whyDisabled="Upload each document and sign the contract first.">
        Submit for approval
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Submit for approval' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Upload each document and sign the contract first.');
  });

  it('says nothing once enabled, nor while busy (busy says it is working)', () => {
    const { rerender } = render(
      <Button disabled={false} whyDisabled="Choose a file first.">
        Import
      </Button>,
    );
    expect(screen.getByRole('button', { name: 'Import' })).not.toHaveAccessibleDescription();
    expect(screen.queryByText('Choose a file first.')).toBeNull();
    rerender(
      <Button disabled busy whyDisabled="Choose a file first.">
        Import
      </Button>,
    );
    expect(screen.getByRole('button', { name: 'Import' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Choose a file first.')).toBeNull();
  });

  it('keeps a description the caller gave, and adds the reason to it', () => {
    render(
      <>
        <p id="rule">Confirm creates every listing at once.</p>
        <Button disabled aria-describedby="rule" whyDisabled="Nothing to create.">
          Confirm
        </Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Confirm' })).toHaveAccessibleDescription(
      'Confirm creates every listing at once. Nothing to create.',
    );
  });

  it("a form's Submit says what is missing until the form is valid", () => {
    const { rerender } = render(<FormFooter onCancel={() => {}} valid={false} />);
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveAccessibleDescription(
      'Fill in the required fields first.',
    );
    rerender(<FormFooter onCancel={() => {}} valid />);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Submit' })).not.toHaveAccessibleDescription();
  });
});
