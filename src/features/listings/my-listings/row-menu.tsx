import { useEffect, useId, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import type { Listing } from '../../../../machines/inventory.machine';
import { useInventory } from './inventory-context';

/** A listing's other actions in one menu: edit, publish or unpublish, details, delete (arrow keys move, Escape closes). */
export function RowMenu({ listing: l, label }: { listing: Listing; label: string }) {
  const inventory = useInventory();
  const [open, setOpen] = useState(false);
  const id = useId();
  const menu = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [open]);
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const items: Array<{ label: string; act: () => void }> = [
    { label: 'Edit', act: () => inventory.send({ type: 'edit.requested', id: l.id }) },
    {
      label: l.status === 'published' ? 'Unpublish' : 'Publish',
      act: () =>
        inventory.send({
          type: 'status.requested',
          ids: [l.id],
          status: l.status === 'published' ? 'unpublished' : 'published',
        }),
    },
    { label: 'Details', act: () => inventory.send({ type: 'detail.opened', listing: l, kind: 'logs' }) },
    { label: 'Delete', act: () => inventory.send({ type: 'delete.requested', ids: [l.id] }) },
  ];
  return (
    <span className={css({ position: 'relative', display: 'block' })}>
      <button
        ref={button}
        type="button"
        data-col="menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={`Actions for ${label}`}
        className={menuButton}
        onClick={() => setOpen((o) => !o)}
      >
        ⋯
      </button>
      {open ? (
        <div
          ref={menu}
          id={id}
          role="menu"
          aria-label={`Actions for ${label}`}
          className={menuList}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) close(false);
          }}
          onKeyDown={(e) => {
            const entries = [...e.currentTarget.querySelectorAll<HTMLElement>('[role=menuitem]')];
            const at = entries.indexOf(document.activeElement as HTMLElement);
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              close();
            } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              e.stopPropagation();
              const next = (at + (e.key === 'ArrowDown' ? 1 : entries.length - 1)) % entries.length;
              entries[next]?.focus();
            }
          }}
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              className={menuItem}
              onClick={() => {
                close(false);
                item.act();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </span>
  );
}

const menuButton = css({
  minWidth: '28px',
  minHeight: '24px',
  borderRadius: 'sm',
  bg: 'transparent',
  border: 'none',
  cursor: 'pointer',
  fontSize: 'md',
  _hover: { bg: 'bg.muted' },
  _focusVisible: { outline: '2px solid', outlineColor: 'focus' },
});
const menuList = css({
  position: 'absolute',
  right: 0,
  top: '100%',
  zIndex: 3,
  m: 0,
  p: '1',
  bg: 'bg',
  border: '1px solid {colors.border}',
  borderRadius: 'md',
  boxShadow: 'md',
  minWidth: '9rem',
});
const menuItem = css({
  display: 'block',
  width: '100%',
  textAlign: 'left',
  px: '3',
  py: '1.5',
  minHeight: '28px',
  bg: 'transparent',
  border: 'none',
  borderRadius: 'sm',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
  _focus: { bg: 'bg.muted', outline: 'none' },
});
