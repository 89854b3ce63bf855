import { describe, expect, it } from 'vitest';
import { ApiError } from '../openapi/client';
import { type AccountErasure, accountDataMachine, EXPORT_FAILED } from './account-data.machine';
import { modelPaths, replay, uncovered } from './testing/model';
import { startWithStandIns } from './testing/stand-ins';

const free: AccountErasure = { status: 'none', requested_at: null, rejection_reason: null, blockers: [] };
const blocked: AccountErasure = { ...free, blockers: ['Your SB Pay wallet holds 12.00 GBP.'] };
const asked: AccountErasure = { ...free, status: 'requested', requested_at: '2026-11-28T10:00:00.000Z' };
const file = new Blob(['PK'], { type: 'application/zip' });

const events = [
  { type: 'export.requested' },
  { type: 'download.progressed', received: 1024, rows: 12 },
  { type: 'download.finished', file, name: 'sb-portal-data-2026-11-28.zip' },
  { type: 'download.failed', message: EXPORT_FAILED },
  { type: 'erasure.retried' },
  { type: 'erasure.started' },
  { type: 'password.changed', password: 'Demo1234!' },
  { type: 'password.changed', password: '' },
  { type: 'erasure.confirmed' },
  { type: 'erasure.cancelled' },
  { type: 'xstate.done.actor.loadErasure', output: free },
  { type: 'xstate.done.actor.loadErasure', output: blocked },
  { type: 'xstate.error.actor.loadErasure', error: new Error('offline') },
  { type: 'xstate.done.actor.requestErasure', output: asked },
  { type: 'xstate.error.actor.requestErasure', error: new ApiError(422, 'The password is incorrect.') },
];

const start = () =>
  startWithStandIns(accountDataMachine, {
    settled: ['loadErasure', 'requestErasure'],
    listening: { children: ['download'] },
  });

describe('account data statechart, model-based', () => {
  const paths = modelPaths(accountDataMachine, {
    events,
    invariant:
      'the progress shown is what arrived; a saved file is handed to the page once; erasure is asked only when nothing blocks it, with the password',
    identity: (s) => [
      s.value,
      s.context.password.length > 0,
      s.context.erasure?.blockers.length ?? -1,
      s.context.erasure?.status,
    ],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(accountDataMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = start();
      let finished = 0;
      await replay(
        path,
        run.actor,
        (event) => {
          if (event.type === 'download.finished') finished++;
          return run.perform(event);
        },
        (real) => {
          const { context } = real;
          expect(real.hasTag('downloading')).toBe(real.matches({ export: 'downloading' }));
          if (real.matches({ export: 'failed' })) expect(context.exportProblem).toBe(EXPORT_FAILED);
          expect(run.emitted.filter((e) => e.type === 'file.ready')).toHaveLength(finished);
          if (real.matches({ erasure: 'sending' }))
            expect(run.control.pending('requestErasure')?.input).toEqual({ password: 'Demo1234!' });
          if (real.matches({ erasure: 'confirming' }) || real.matches({ erasure: 'sending' })) {
            expect(context.erasure?.blockers).toEqual([]);
            expect(context.erasure?.status).not.toBe('requested');
          }
        },
      );
      await run.stop();
    });
  }

  it('shows the bytes received while the zip arrives', async () => {
    const run = start();
    run.actor.send({ type: 'export.requested' });
    run.actor.send({ type: 'download.progressed', received: 2048, rows: 40 });
    expect(run.actor.getSnapshot().context).toMatchObject({ received: 2048, rows: 40 });
    await run.stop();
  });
});
