import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { messageOf } from '../../openapi/client';
import { createListMachine, type ListPage } from '../list.machine';
import { type NotifyEvent, notifyError } from '../notify';

/** A file the back office opens from a queue's row (a deposit's proof, a KYC document). */
export interface QueueFile {
  name: string;
  mime: string;
  content_base64: string;
}

/** What a queue's approval sends beside the item (an event request's kick-off time); empty for most queues. */
export type ApprovalValues = Readonly<Record<string, string>>;

/**
 * One queue of the back office: how it reads its pages and how it decides an item. The machine is the same for
 * every queue; the spec is what differs (machines/admin/queues.ts holds the six).
 */
export interface QueueSpec<Item, Decided> {
  /** The machine's id; its list child is `<id>List` in the actor system. */
  id: string;
  fetchPage: (page: number, signal: AbortSignal) => Promise<ListPage<Item>>;
  keyOf: (item: Item) => number;
  approve: (item: Item, values: ApprovalValues) => Promise<Decided>;
  reject: (item: Item, reason: string) => Promise<Decided>;
  /** The toast once decided. */
  announce: (decided: Decided) => string;
  /** The approval's values when its dialog opens (an event request's kick-off time, as the seller gave it). */
  initialValues?: (item: Item) => ApprovalValues;
  /** A reason the values cannot be sent (shown in the dialog), or null. */
  refuseValues?: (values: ApprovalValues) => string | null;
  /** Opens a file of an item (`kind`: which one); null when the item has none. */
  loadFile?: (item: Item, kind: string) => Promise<QueueFile | null>;
}

export interface QueueContext<Item> {
  /** The item being decided, or whose reason is being written. */
  item: Item | null;
  reason: string;
  values: ApprovalValues;
  /** Why the last decision was refused (another admin was first, a 422), shown in the dialog or above the queue. */
  problem: string | null;
}

export type QueueEvent<Item> =
  | { type: 'approve.started'; item: Item }
  | { type: 'value.changed'; name: string; value: string }
  | { type: 'approve.confirmed' }
  | { type: 'approve.cancelled' }
  | { type: 'reject.started'; item: Item }
  | { type: 'reason.changed'; reason: string }
  | { type: 'reject.confirmed' }
  | { type: 'reject.cancelled' }
  | { type: 'file.requested'; item: Item; kind: string };

export type QueueEmitted = NotifyEvent | { type: 'file.ready'; file: QueueFile };

const ERROR = 'Failed to fetch data';

/**
 * A review queue of the back office (deposits, KYC, payouts, event requests, erasures, orders needing action): its
 * items oldest first (a list machine, its child); Approve restates what it will do (the amount it moves) and waits
 * for Confirm; Reject needs a reason the seller reads. One decision at a time; each decision reloads the queue;
 * a refusal (another admin was first) stays in the dialog that sent it. Files of a row open beside.
 */
export function createAdminQueueMachine<Item, Decided>(spec: QueueSpec<Item, Decided>) {
  const listId = `${spec.id}List`;
  const list = createListMachine<Item, Record<string, never>>({
    id: listId,
    fetchPage: ({ page }, signal) => spec.fetchPage(page, signal),
    keyOf: spec.keyOf,
    errorMessage: () => ERROR,
    toastsErrors: () => true,
  });
  return setup({
    types: {
      context: {} as QueueContext<Item>,
      events: {} as QueueEvent<Item>,
      emitted: {} as QueueEmitted,
    },
    actors: {
      queue: list,
      approve: fromPromise<Decided, { item: Item; values: ApprovalValues }>(({ input }) =>
        spec.approve(input.item, input.values),
      ),
      reject: fromPromise<Decided, { item: Item; reason: string }>(({ input }) =>
        spec.reject(input.item, input.reason),
      ),
      loadFile: fromPromise<QueueFile | null, { item: Item; kind: string }>(async ({ input }) =>
        spec.loadFile ? spec.loadFile(input.item, input.kind) : null,
      ),
    },
    guards: {
      hasReason: ({ context }) => context.reason.trim().length > 0,
      valuesAccepted: ({ context }) => !spec.refuseValues?.(context.values),
    },
    actions: {
      pick: assign({
        item: ({ event }) => ('item' in event ? event.item : null),
        reason: '',
        values: ({ event }) => ('item' in event ? (spec.initialValues?.(event.item) ?? {}) : {}),
        problem: null,
      }),
      storeValue: assign({
        values: ({ context, event }) =>
          event.type === 'value.changed' ? { ...context.values, [event.name]: event.value } : context.values,
      }),
      refuseValues: assign({ problem: ({ context }) => spec.refuseValues?.(context.values) ?? null }),
      storeReason: assign({ reason: ({ event }) => (event.type === 'reason.changed' ? event.reason : '') }),
      forget: assign({ item: null, reason: '', values: {} }),
      clearProblem: assign({ problem: null }),
      storeProblem: assign({ problem: (_, error: unknown) => messageOf(error) }),
      // the list child as it runs (the test model has none to resolve a name against)
      reloadQueue: enqueueActions(({ enqueue, system }) => {
        const queue = system.get(listId);
        if (queue) enqueue.sendTo(queue, { type: 'list.refreshed' });
      }),
      // the decided item, from the decision's done event (outside the machine's own events, hence the cast)
      announce: emit(({ event }) => ({
        type: 'notify' as const,
        level: 'success' as const,
        message: spec.announce((event as unknown as { output: Decided }).output),
      })),
      announceFile: emit((_, file: QueueFile | null) =>
        file ? { type: 'file.ready' as const, file } : notifyError('There is no such file for this item.'),
      ),
      failFile: emit(notifyError('Failed to load the file')),
    },
  }).createMachine({
    id: spec.id,
    context: { item: null, reason: '', values: {}, problem: null },
    invoke: { id: 'queue', systemId: listId, src: 'queue', input: { filters: {} } },
    type: 'parallel',
    states: {
      decision: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'approve.started': { target: 'confirming', actions: 'pick' },
              'reject.started': { target: 'writingReason', actions: 'pick' },
            },
          },
          confirming: {
            description:
              'The confirmation: it restates what Approve does (the amount credited, sent or refunded) and waits.',
            on: {
              'value.changed': { actions: 'storeValue' },
              'approve.confirmed': [
                { guard: 'valuesAccepted', target: 'approving', actions: 'clearProblem' },
                { actions: 'refuseValues' },
              ],
              'approve.cancelled': { target: 'idle', actions: ['forget', 'clearProblem'] },
            },
          },
          approving: {
            tags: ['deciding'],
            invoke: {
              id: 'approve',
              src: 'approve',
              input: ({ context }) => ({ item: context.item as Item, values: context.values }),
              onDone: {
                target: 'idle',
                actions: ['announce', 'forget', 'reloadQueue'],
              },
              onError: {
                target: 'confirming',
                actions: [
                  { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
                  'reloadQueue',
                ],
              },
            },
          },
          writingReason: {
            description: 'The reject dialog: a reason is required; the seller reads it.',
            on: {
              'reason.changed': { actions: 'storeReason' },
              'reject.confirmed': { guard: 'hasReason', target: 'rejecting', actions: 'clearProblem' },
              'reject.cancelled': { target: 'idle', actions: ['forget', 'clearProblem'] },
            },
          },
          rejecting: {
            tags: ['deciding'],
            invoke: {
              id: 'reject',
              src: 'reject',
              input: ({ context }) => ({ item: context.item as Item, reason: context.reason.trim() }),
              onDone: {
                target: 'idle',
                actions: ['announce', 'forget', 'reloadQueue'],
              },
              onError: {
                target: 'writingReason',
                actions: [
                  { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
                  'reloadQueue',
                ],
              },
            },
          },
        },
      },
      file: {
        initial: 'idle',
        states: {
          idle: { on: { 'file.requested': 'loading' } },
          loading: {
            tags: ['loadingFile'],
            invoke: {
              id: 'loadFile',
              src: 'loadFile',
              input: ({ event }) =>
                event.type === 'file.requested'
                  ? { item: event.item, kind: event.kind }
                  : { item: null as Item, kind: '' },
              onDone: { target: 'idle', actions: { type: 'announceFile', params: ({ event }) => event.output } },
              onError: { target: 'idle', actions: 'failFile' },
            },
          },
        },
      },
    },
  });
}

export type AdminQueueMachine<Item, Decided> = ReturnType<typeof createAdminQueueMachine<Item, Decided>>;

/**
 * The back office's review queue as a chart (the flows viewer draws it; each queue of machines/admin/queues.ts is
 * this chart with its own calls): review, confirm or give a reason, decide, reload.
 */
export const adminQueueMachine = createAdminQueueMachine<{ id: number }, { id: number }>({
  id: 'adminQueue',
  fetchPage: async () => ({ items: [], page: 1, lastPage: 1 }),
  keyOf: (item) => item.id,
  approve: async (item) => item,
  reject: async (item) => item,
  announce: (decided) => `#${decided.id} decided`,
});
