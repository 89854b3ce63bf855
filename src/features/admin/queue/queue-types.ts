import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { AdminQueueMachine } from '../../../../machines/admin/queue.machine';

// biome-ignore lint/suspicious/noExplicitAny: a view shows any queue's decided answer only through the machine's toast
export type QueueRef<Item> = ActorRefFrom<AdminQueueMachine<Item, any>>;

/** What a row's cells may do beside showing the item: open one of its files. */
export interface CellTools<Item> {
  openFile: (item: Item, kind: string) => void;
  loadingFile: boolean;
}

export interface QueueColumn<Item> {
  header: string;
  cell: (item: Item, tools: CellTools<Item>) => ReactNode;
  /** Money and dates keep to one line. */
  nowrap?: boolean;
}

/** A field of the approval dialog (an event request's kick-off time, an order's reason, a bank line's top-up). */
export interface ApprovalField {
  name: string;
  label: string;
  kind: 'time' | 'reason' | 'choice';
  /** The choices of a `choice` field, from the item being approved. */
  options?: (item: unknown) => ReadonlyArray<{ value: string; label: string }>;
}

/**
 * One queue's view: its texts, its columns and its two decisions. Everything else (loading, failure, paging, the
 * confirmation, the reason dialog, one decision at a time) is the same for every queue (queue-page.tsx).
 */
export interface QueueView<Item> {
  /** The view actor's key among the session's views. */
  key: string;
  heading: string;
  /** What is loading: 'the deposit requests'. */
  noun: string;
  empty: string;
  columns: readonly QueueColumn<Item>[];
  /** The item's identity (its row's key). */
  keyOf: (item: Item) => number;
  /** The row's accessible name: 'Deposit #12'. */
  rowLabel: (item: Item) => string;
  approve: {
    /** The button's text and its accessible name. */
    label: string;
    name: (item: Item) => string;
    /** The dialog: its title, what it restates (the amount it moves), its fields and its confirm button. */
    title: (item: Item) => string;
    restates: (item: Item) => ReactNode;
    fields?: readonly ApprovalField[];
    confirmLabel: (item: Item) => string;
  };
  reject: {
    label: string;
    name: (item: Item) => string;
    title: (item: Item) => string;
    reasonLabel: string;
    submitLabel: string;
  };
}
