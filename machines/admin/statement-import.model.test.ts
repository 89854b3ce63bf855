import { describe, expect, it } from 'vitest';
import { ApiError } from '../../openapi/client';
import { modelPaths, replay, uncovered } from '../testing/model';
import { startWithStandIns } from '../testing/stand-ins';
import {
  BANK_LINES_LIST,
  type StatementImportContext,
  type StatementSummary,
  statementImportMachine,
} from './statement-import.machine';

const file = new File(['<Document/>'], 'camt053.xml', { type: 'application/xml' });
const summary: StatementSummary = {
  statement_id: 1,
  format: 'camt053',
  lines_total: 203,
  credit_lines: 200,
  credited: 184,
  to_review: 16,
  already_imported: 0,
  skipped_lines: 3,
};

const events = [
  { type: 'file.chosen', file },
  { type: 'file.chosen', file: null },
  { type: 'import.submitted' },
  { type: 'xstate.done.actor.importStatement', output: summary },
  {
    type: 'xstate.error.actor.importStatement',
    error: new ApiError(422, 'Some fields are missing or invalid.', [
      { path: '/body/file', message: 'This file is not a statement we can read.' },
    ]),
  },
];

const identity = ({ value, context }: { value: unknown; context: StatementImportContext }) => [
  value,
  context.file?.name ?? null,
  context.summary === null ? null : 'summary',
  context.problem,
];

describe('the bank statement import statechart, model-based', () => {
  const paths = modelPaths(statementImportMachine, {
    events,
    identity,
    invariant:
      'Import runs only with a file chosen; a refusal keeps the file and says why; an import shows its counts, announces them and reloads the queue once',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(statementImportMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = startWithStandIns(statementImportMachine, {
        settled: ['importStatement'],
        listening: { system: [BANK_LINES_LIST] },
      });
      let imports = 0;
      await replay(
        path,
        run.actor,
        async (e) => {
          if (e.type === 'xstate.done.actor.importStatement') imports += 1;
          return run.perform(e);
        },
        (real) => {
          expect(real.hasTag('submitting')).toBe(real.matches('importing'));
          expect(real.hasTag('error')).toBe(real.matches('refused'));
          expect(run.control.isPending('importStatement')).toBe(real.matches('importing'));
          // Import never runs without a file, and a refusal keeps the file chosen
          if (real.matches('importing') || real.matches('refused')) expect(real.context.file).not.toBeNull();
          if (real.matches('refused')) expect(real.context.problem).toBe('This file is not a statement we can read.');
          if (real.matches('imported')) {
            expect(real.context.summary).toEqual(summary);
            expect(real.context.file).toBeNull();
          }
          // each import announced once, with its counts, and the queue reloaded once
          const announced = run.emitted.filter((n) => n.type === 'notify');
          expect(announced).toHaveLength(imports);
          for (const n of announced) expect(n.message).toBe('Statement imported: 184 credited, 16 to review.');
          expect(run.heard(BANK_LINES_LIST).filter((h) => h.type === 'list.refreshed')).toHaveLength(imports);
        },
      );
      await run.stop();
    });
  }
});
