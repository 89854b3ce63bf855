import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';
import { useInventory } from './inventory-context';

/** The last change of prices or statuses, said in words, with Undo (the server puts each listing back). */
export function UndoBar() {
  const inventory = useInventory();
  const undo = useSelector(inventory, (s) => s.context.undo);
  const undoing = useSelector(inventory, (s) => s.matches({ change: 'undoing' }));
  if (!undo) return null;
  return (
    <div role="status" aria-label="Last change" className={bar}>
      <span>{undo.message}</span>
      <Button tone="secondary" disabled={undoing} onClick={() => inventory.send({ type: 'undo.requested' })}>
        {undoing ? 'Undoing…' : 'Undo'}
      </Button>
      <Button tone="ghost" disabled={undoing} onClick={() => inventory.send({ type: 'undo.dismissed' })}>
        Dismiss
      </Button>
    </div>
  );
}

const bar = css({
  display: 'flex',
  gap: '2',
  alignItems: 'center',
  fontSize: 'sm',
  px: '3',
  py: '1',
  bg: 'bg.muted',
  borderRadius: 'md',
  '& button': { minHeight: '28px', py: '0', px: '2.5' },
});
