import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DEPOSIT_PROOF_RULES, type FileRules, MB } from '../lib/file-rules';
import { FileField } from './file-field';

const fileOf = (name: string, size: number, type = '') => {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

function Field({
  rules,
  spy = vi.fn(),
  progress,
}: {
  rules?: FileRules;
  spy?: (f: File | null) => void;
  progress?: number;
}) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <FileField
      label="Deposit proof"
      rules={rules}
      file={file}
      progress={progress}
      onFileChange={(f) => {
        setFile(f);
        spy(f);
      }}
    />
  );
}

describe('FileField', () => {
  it('refuses 10 MB and 1 byte for the deposit proof with the exact message', async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Field rules={DEPOSIT_PROOF_RULES} spy={spy} />);
    await user.upload(screen.getByLabelText(/Deposit proof/), fileOf('proof.pdf', 10 * MB + 1, 'application/pdf'));
    expect(screen.getByText('File size exceeds 10MB limit')).toBeInTheDocument();
    expect(spy).toHaveBeenLastCalledWith(null);
    expect(screen.getByLabelText(/Deposit proof/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses another type with the exact message', () => {
    render(<Field rules={DEPOSIT_PROOF_RULES} />);
    // user.upload would drop a file the accept attribute rules out before the field sees it
    fireEvent.change(screen.getByLabelText(/Deposit proof/), { target: { files: [fileOf('proof.gif', 100)] } });
    expect(screen.getByText('Invalid file type. Allowed types: pdf, jpg, jpeg, png')).toBeInTheDocument();
  });

  it('takes exactly 10 MB and shows the name and size', async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<Field rules={DEPOSIT_PROOF_RULES} spy={spy} />);
    const file = fileOf('proof.png', 10 * MB, 'image/png');
    await user.upload(screen.getByLabelText(/Deposit proof/), file);
    expect(spy).toHaveBeenLastCalledWith(file);
    expect(screen.getByText('proof.png')).toBeInTheDocument();
    expect(screen.getByText('10.0 MB')).toBeInTheDocument();
    expect(screen.queryByText(/exceeds/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove proof.png' }));
    expect(spy).toHaveBeenLastCalledWith(null);
    expect(screen.queryByText('proof.png')).not.toBeInTheDocument();
  });

  it('the general field takes up to 5 MB of anything', () => {
    render(<Field />);
    const input = screen.getByLabelText(/Deposit proof/);
    fireEvent.change(input, { target: { files: [fileOf('notes.txt', 5 * MB + 1)] } });
    expect(screen.getByText('File size exceeds 5MB limit')).toBeInTheDocument();
    fireEvent.change(input, { target: { files: [fileOf('notes.txt', 5 * MB)] } });
    expect(screen.queryByText('File size exceeds 5MB limit')).not.toBeInTheDocument();
    expect(screen.getByText('notes.txt')).toBeInTheDocument();
  });

  it('takes a dropped file through the same rules', () => {
    render(<Field rules={DEPOSIT_PROOF_RULES} />);
    const zone = screen.getByText(/Drag and drop a file here/).parentElement as HTMLElement;
    fireEvent.dragOver(zone);
    expect(zone).toHaveAttribute('data-dragging');
    fireEvent.drop(zone, { dataTransfer: { files: [fileOf('scan.exe', 10)] } });
    expect(zone).not.toHaveAttribute('data-dragging');
    expect(screen.getByText('Invalid file type. Allowed types: pdf, jpg, jpeg, png')).toBeInTheDocument();
    fireEvent.drop(zone, { dataTransfer: { files: [fileOf('scan.jpeg', 10)] } });
    expect(screen.getByText('scan.jpeg')).toBeInTheDocument();
  });

  it('shows upload progress', async () => {
    const user = userEvent.setup();
    render(<Field rules={DEPOSIT_PROOF_RULES} progress={45} />);
    await user.upload(screen.getByLabelText(/Deposit proof/), fileOf('proof.pdf', 100, 'application/pdf'));
    const bar = screen.getByRole('progressbar', { name: 'Uploading proof.pdf' });
    expect(bar).toHaveAttribute('aria-valuenow', '45');
  });

  it('shows an attached file with the 11 by 14 attachment pin (spec section 9)', async () => {
    const user = userEvent.setup();
    render(<Field />);
    await user.upload(screen.getByLabelText('Deposit proof'), fileOf('proof.pdf', 2048, 'application/pdf'));
    const row = screen.getByText('proof.pdf').parentElement as HTMLElement;
    const pin = row.querySelector('svg[data-icon="attachment"]');
    expect(pin).not.toBeNull();
    expect(pin).toHaveAttribute('width', '11');
    expect(pin).toHaveAttribute('height', '14');
    expect(pin).toHaveAttribute('aria-hidden', 'true');
  });

  it('multiple: takes a choice of several whole, refuses it whole, and removes one', async () => {
    const spy = vi.fn();
    function Many() {
      const [files, setFiles] = useState<File[]>([]);
      return (
        <FileField
          multiple
          label="E-tickets"
          rules={{ types: ['pdf'], maxMb: 5 }}
          files={files}
          onFilesChange={(f) => {
            setFiles(f);
            spy(f);
          }}
        />
      );
    }
    render(<Many />);
    const input = screen.getByLabelText('E-tickets');
    expect(input).toHaveAttribute('multiple');
    fireEvent.change(input, { target: { files: [fileOf('a.pdf', 10), fileOf('b.png', 10)] } });
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid file type. Allowed types: pdf');
    expect(spy).toHaveBeenLastCalledWith([]);
    fireEvent.change(input, { target: { files: [fileOf('a.pdf', 10), fileOf('b.pdf', 10)] } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('a.pdf')).toBeInTheDocument();
    expect(screen.getByText('b.pdf')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.pdf' }));
    expect(screen.queryByText('a.pdf')).toBeNull();
    expect(spy.mock.lastCall?.[0].map((f: File) => f.name)).toEqual(['b.pdf']);
  });

  it('as a button: named by its label, it hands the files over at once and lists none', () => {
    const spy = vi.fn();
    render(
      <FileField
        variant="button"
        multiple
        label="Upload tickets for BK-1"
        buttonText="Upload"
        rules={{ types: ['pdf'], maxMb: 5 }}
        files={[]}
        onFilesChange={spy}
      />,
    );
    const input = screen.getByLabelText('Upload tickets for BK-1');
    expect(screen.getByText('Upload')).toBeInTheDocument();
    fireEvent.change(input, { target: { files: [fileOf('t.pdf', 10)] } });
    expect(spy.mock.lastCall?.[0].map((f: File) => f.name)).toEqual(['t.pdf']);
    expect(screen.queryByText('t.pdf')).toBeNull();
    fireEvent.change(input, { target: { files: [fileOf('t.exe', 10)] } });
    expect(screen.getByText('Invalid file type. Allowed types: pdf')).toBeInTheDocument();
  });
});
