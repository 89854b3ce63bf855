import { useEffect } from 'react';
import type { AdminQueueMachine } from '../../../../machines/admin/queue.machine';
import { useViewActor } from '../../../app/view-actor';
import { openProof } from '../../../lib/proof-file';
import { ConfirmDialog } from './confirm-dialog';
import { QueueTable } from './queue-table';
import type { QueueRef, QueueView } from './queue-types';
import { ReasonDialog } from './reason-dialog';

/**
 * A review queue of the back office, for any queue: the machine (machines/admin/queues.ts) decides, the view
 * (`view`) says what a row shows and what each decision restates.
 */
// biome-ignore lint/suspicious/noExplicitAny: the decided answer is the machine's concern (its toast)
export function QueuePage<Item>({ machine, view }: { machine: AdminQueueMachine<Item, any>; view: QueueView<Item> }) {
  const admin = useViewActor(machine, view.key) as QueueRef<Item> | undefined;
  useEffect(() => {
    if (!admin) return;
    const sub = admin.on('file.ready', ({ file }) => openProof(file));
    return () => sub.unsubscribe();
  }, [admin]);
  if (!admin) return null;
  return (
    <>
      <QueueTable admin={admin} view={view} />
      <ConfirmDialog admin={admin} view={view} />
      <ReasonDialog admin={admin} view={view} />
    </>
  );
}
