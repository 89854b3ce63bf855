import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import type { ListingFile } from './listings-api';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';
import { ticketFilesMachine, ticketFilesProblem } from './ticket-files.machine';

const pdf = new File(['%PDF-1.4'], 'ticket-1.pdf');
const exe = new File(['MZ'], 'virus.exe');
const earlier: ListingFile = {
  file_id: 'a',
  name: 'old.pdf',
  kind: 'pdf',
  size: 10,
  created_at: '2026-01-01T00:00:00Z',
};
const after: ListingFile[] = [earlier, { ...earlier, file_id: 'b', name: 'ticket-1.pdf' }];
const full = new ApiError(409, 'A listing holds at most 20 files; this one has 20, so at most 0 more.');

const events = [
  { type: 'files.chosen', files: [pdf] },
  { type: 'files.chosen', files: [exe] },
  { type: 'files.chosen', files: [] },
  { type: 'upload.progressed', fraction: 0.5 },
  { type: 'message.dismissed' },
  { type: 'xstate.done.actor.upload', output: after },
  { type: 'xstate.error.actor.upload', error: full },
];

describe('ticket files statechart, model-based', () => {
  const paths = modelPaths(ticketFilesMachine, {
    events,
    input: { ticketId: 7, files: [earlier] },
    identity: ({ value, context }) => [value, context.files.length, context.message, context.progress === null],
    invariant: 'the files listed, the progress and the message are what the state shows',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(ticketFilesMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('refuses a wrong type, a file over 5 MB and more than 10 files with the spec texts', () => {
    expect(ticketFilesProblem([exe])).toBe('Invalid file type. Allowed types: pdf, jpg, jpeg, png');
    expect(ticketFilesProblem([{ name: 'big.PDF', size: 5 * 1024 * 1024 + 1 }])).toBe('File size exceeds 5MB limit');
    expect(ticketFilesProblem(Array.from({ length: 11 }, () => pdf))).toBe('Choose at most 10 files at once.');
    expect(ticketFilesProblem([pdf, new File(['x'], 'scan.JPG')])).toBeNull();
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['upload'] as const);
      const actor = createActor(ticketFilesMachine.provide({ actors: control.actors }), {
        input: { ticketId: 7, files: [earlier] },
      });
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        const { context } = real;
        if (real.matches('uploading')) {
          expect(context.progress).not.toBeNull();
          const pending = control.pending('upload')?.input as { ticketId: number; files: File[] } | undefined;
          expect(pending?.ticketId).toBe(7);
          expect(pending?.files).toEqual([pdf]);
        } else expect(context.progress).toBeNull();
        if (real.matches('refused'))
          expect(context.message).toBe('Invalid file type. Allowed types: pdf, jpg, jpeg, png');
        if (real.matches('failed')) expect(context.message).toBe(full.message);
        if (real.matches('idle')) expect(context.message).toBeNull();
        expect(context.files.length === 1 || context.files === after).toBe(true);
      });
      actor.stop();
      await flush();
    });
  }
});
