import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { type BulkCheck, type BulkOutcome, bulkUploadMachine, TEMPLATE_FAILED } from './bulk-upload.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const file = new File(['a,b\n'], 'listings.xlsx');
const fixed = new File(['a,b\n'], 'listings-fixed.xlsx');
const created: BulkOutcome = { kind: 'created', created: 12, skipped: 2, leftOut: 1 };
const plan = (toCreate: number): BulkCheck => ({
  kind: 'preview',
  preview: {
    sha256: 'a'.repeat(64),
    rows_total: toCreate + 3,
    to_create: toCreate,
    to_skip: 2,
    to_refuse: 1,
    rows: [{ row: 2, action: 'skip', reasons: [] }],
  },
});
const previewed = plan(12);
const nothingToCreate = plan(0);
const rejected: BulkOutcome = {
  kind: 'rejected',
  message: 'The file has 2 rows with problems. Nothing was created.',
  rows: [
    { row: 3, column: 'price', value: '0', message: 'Enter a price above zero.' },
    { row: 5, column: 'ticket_type', value: 'Hologram', message: 'Choose one of the ticket types.' },
  ],
};
const tooBig = new ApiError(413, 'File size exceeds 5MB limit');

const events = [
  { type: 'file.chosen', file },
  { type: 'file.chosen', file: fixed },
  { type: 'file.cleared' },
  { type: 'upload.submitted' },
  { type: 'upload.progressed', fraction: 0.4 },
  { type: 'upload.progressed', fraction: 1 },
  { type: 'upload.cancelled' },
  { type: 'preview.confirmed' },
  { type: 'template.requested' },
  { type: 'xstate.done.actor.preview', output: previewed },
  { type: 'xstate.done.actor.preview', output: nothingToCreate },
  { type: 'xstate.done.actor.preview', output: rejected },
  { type: 'xstate.error.actor.preview', error: tooBig },
  { type: 'xstate.done.actor.upload', output: created },
  { type: 'xstate.done.actor.upload', output: rejected },
  { type: 'xstate.error.actor.upload', error: tooBig },
  { type: 'xstate.done.actor.downloadTemplate', output: new Blob(['xlsx']) },
  { type: 'xstate.error.actor.downloadTemplate', error: new ApiError(500, 'down') },
];

describe('bulk upload statechart, model-based', () => {
  const paths = modelPaths(bulkUploadMachine, {
    events,
    identity: ({ value, context }) => [
      value,
      context.file?.name ?? null,
      context.progress === null,
      context.preview?.to_create ?? null,
    ],
    invariant: 'the file, the progress, the report and the created count are what the state shows',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(bulkUploadMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['preview', 'upload', 'downloadTemplate'] as const);
      const actor = createActor(bulkUploadMachine.provide({ actors: control.actors }));
      const emitted: Array<{ type: string; message?: string; name?: string }> = [];
      actor.on('*', (e) => emitted.push(e));
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        const { context } = real;
        const upload = (real.value as { upload: unknown }).upload;
        // what each state promises the page
        if (upload === 'empty') expect(context.file).toBeNull();
        else expect(context.file).not.toBeNull();
        if (real.hasTag('busy')) {
          expect(context.progress).not.toBeNull();
          const sent = control.pending(real.matches({ upload: 'checking' }) ? 'preview' : 'upload');
          expect((sent?.input as { file: File } | undefined)?.file).toBe(context.file);
        } else expect(context.progress).toBeNull();
        if (upload === 'rejected') {
          expect(context.report).toEqual(rejected.kind === 'rejected' ? rejected.rows : []);
          expect(context.created).toBeNull();
        }
        if (upload === 'imported') {
          expect([context.created, context.skipped, context.leftOut]).toEqual([12, 2, 1]);
          expect(context.report).toEqual([]);
        }
        // the preview is shown while it stands, and the confirm sends the file with it
        if (upload === 'previewed') expect(context.preview).not.toBeNull();
        if (JSON.stringify(upload) === '{"importing":"sending"}') {
          expect((control.pending('upload')?.input as { preview: unknown } | undefined)?.preview).toEqual(
            context.preview,
          );
        }
        if (upload === 'previewed' && context.preview?.to_create === 0) {
          expect(real.can({ type: 'preview.confirmed' })).toBe(false);
        }
        if (upload === 'failed') expect(context.message).toBe('File size exceeds 5MB limit');
        // every toast is one the page means
        for (const e of emitted.filter((x) => x.type === 'notify'))
          expect([TEMPLATE_FAILED, 'File size exceeds 5MB limit']).toContain(e.message);
      });
      actor.stop();
      await flush();
    });
  }
});

describe('bulk upload statechart', () => {
  it('shows the progress as it grows, processing once every byte is out, and never goes back', async () => {
    const control = controllableActors(['preview', 'upload', 'downloadTemplate'] as const);
    const actor = createActor(bulkUploadMachine.provide({ actors: control.actors })).start();
    actor.send({ type: 'file.chosen', file });
    actor.send({ type: 'upload.submitted' });
    expect(actor.getSnapshot().context.progress).toBe(0);
    actor.send({ type: 'upload.progressed', fraction: 0.555 });
    expect(actor.getSnapshot().context.progress).toBe(55);
    actor.send({ type: 'upload.progressed', fraction: 0.2 });
    expect(actor.getSnapshot().context.progress).toBe(55);
    actor.send({ type: 'upload.progressed', fraction: 1 });
    expect(actor.getSnapshot().matches({ upload: { checking: 'processing' } })).toBe(true);
    await control.settle({ type: 'xstate.done.actor.preview', output: rejected });
    // the seller fixes the file and sends it again: the old report goes once the new file is accepted
    actor.send({ type: 'file.chosen', file: fixed });
    expect(actor.getSnapshot().context.report).toHaveLength(2);
    actor.send({ type: 'upload.submitted' });
    expect((control.pending('preview')?.input as { file: File } | undefined)?.file).toBe(fixed);
    await control.settle({ type: 'xstate.done.actor.preview', output: previewed });
    // nothing is sent for creation until the seller confirms the preview
    expect(control.pending('upload')).toBeUndefined();
    expect(actor.getSnapshot().context).toMatchObject({ report: [], progress: null, created: null });
    actor.send({ type: 'preview.confirmed' });
    expect((control.pending('upload')?.input as { file: File } | undefined)?.file).toBe(fixed);
    await control.settle({ type: 'xstate.done.actor.upload', output: created });
    expect(actor.getSnapshot().context).toMatchObject({ created: 12, report: [], progress: null, preview: null });
  });

  it('hands the template to the page to save', async () => {
    const control = controllableActors(['preview', 'upload', 'downloadTemplate'] as const);
    const actor = createActor(bulkUploadMachine.provide({ actors: control.actors })).start();
    const ready: unknown[] = [];
    actor.on('template.ready', (e) => ready.push(e.name));
    actor.send({ type: 'template.requested' });
    expect(actor.getSnapshot().hasTag('downloadingTemplate')).toBe(true);
    await control.settle({ type: 'xstate.done.actor.downloadTemplate', output: new Blob(['x']) });
    expect(ready).toEqual(['bulk-listing-template.xlsx']);
  });
});
