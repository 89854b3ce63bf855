import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from './button';
import { DRAWER_CLOSE_MS, DRAWER_OPEN_DELAY_MS, Drawer } from './drawer';
import { FormFooter } from './form-footer';
import { Modal } from './modal';

function DrawerDemo() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open drawer</Button>
      <Drawer open={open} onClose={() => setOpen(false)} title="Top up">
        <input aria-label="Amount" />
        <Button>Save</Button>
      </Drawer>
    </>
  );
}

function ModalDemo({ closeOnOutsideClick }: { closeOnOutsideClick?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open modal</Button>
      <Modal open={open} onClose={() => setOpen(false)} title="Delete" closeOnOutsideClick={closeOnOutsideClick}>
        <p>Sure?</p>
      </Modal>
    </>
  );
}

describe('Drawer', () => {
  afterEach(() => vi.useRealTimers());

  it('opens 50 ms after the click and unmounts 300 ms after closing; the focus goes back', () => {
    vi.useFakeTimers();
    render(<DrawerDemo />);
    const opener = screen.getByRole('button', { name: 'Open drawer' });
    opener.focus();
    fireEvent.click(opener);
    act(() => vi.advanceTimersByTime(DRAWER_OPEN_DELAY_MS - 1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    const dialog = screen.getByRole('dialog', { name: 'Top up' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Escape' });
    expect(opener).toHaveFocus();
    act(() => vi.advanceTimersByTime(DRAWER_CLOSE_MS - 1));
    expect(screen.queryByRole('dialog', { hidden: true })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('dialog', { hidden: true })).not.toBeInTheDocument();
  });

  it('keeps Tab inside while open', async () => {
    const user = userEvent.setup();
    render(<DrawerDemo />);
    await user.click(screen.getByRole('button', { name: 'Open drawer' }));
    const dialog = await screen.findByRole('dialog');
    // the focus moves in once the drawer is drawn, which on a loaded machine may come after the dialog is found
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    for (let i = 0; i < 5; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
  });

  it('a click on the backdrop closes it', async () => {
    const user = userEvent.setup();
    render(<DrawerDemo />);
    await user.click(screen.getByRole('button', { name: 'Open drawer' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(dialog.previousElementSibling as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true })).not.toBeInTheDocument());
  });
});

describe('Modal', () => {
  it('an outside click does not close it unless enabled; Escape does', async () => {
    const user = userEvent.setup();
    render(<ModalDemo />);
    await user.click(screen.getByRole('button', { name: 'Open modal' }));
    const backdrop = screen.getByRole('dialog').previousElementSibling as HTMLElement;
    await user.click(backdrop);
    expect(screen.getByRole('dialog', { name: 'Delete' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open modal' })).toHaveFocus();
  });

  it('closes on an outside click when enabled', async () => {
    const user = userEvent.setup();
    render(<ModalDemo closeOnOutsideClick />);
    await user.click(screen.getByRole('button', { name: 'Open modal' }));
    await user.click(screen.getByRole('dialog').previousElementSibling as HTMLElement);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('FormFooter', () => {
  it('Submit stays disabled until valid and is busy while submitting; Cancel beside it', async () => {
    const user = userEvent.setup();
    const cancel = vi.fn();
    const { rerender } = render(<FormFooter valid={false} onCancel={cancel} onSubmit={() => {}} />);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancel).toHaveBeenCalled();
    rerender(<FormFooter valid onCancel={cancel} onSubmit={() => {}} />);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
    rerender(<FormFooter valid submitting onCancel={cancel} onSubmit={() => {}} />);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveAttribute('aria-busy', 'true');
  });
});
