import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FieldError } from './field';
import { TextField } from './text-field';

describe('FieldError', () => {
  it('shows only when there is an error and showing errors is on', () => {
    const { rerender, container } = render(<FieldError error="Enter an amount" showErrors={false} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<FieldError error={null} showErrors />);
    expect(container).toBeEmptyDOMElement();
    rerender(<FieldError error="" showErrors />);
    expect(container).toBeEmptyDOMElement();
    rerender(<FieldError error="Enter an amount" showErrors />);
    expect(screen.getByText('Enter an amount')).toBeInTheDocument();
  });

  it('is red', () => {
    render(<FieldError error="Enter an amount" />);
    expect(screen.getByText('Enter an amount').className).toMatch(/c_error/);
  });
});

describe('TextField', () => {
  it('ties a shown error to the field and hides it while showErrors is off', () => {
    const { rerender } = render(<TextField label="Email" error="Enter your email address." showErrors={false} />);
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Enter your email address.')).not.toBeInTheDocument();
    rerender(<TextField label="Email" error="Enter your email address." />);
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Enter your email address.');
  });
});
