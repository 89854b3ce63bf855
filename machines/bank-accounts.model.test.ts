import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { type BankChange, bankAccountsMachine, type SettingsBankAccount } from './bank-accounts.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const account = { id: 5, holder_name: 'Sam Seller', iban_masked: 'GB•• •••• 5432' } as unknown as SettingsBankAccount;
const add: BankChange = {
  kind: 'add',
  form: {
    account_holder: 'Sam Seller',
    iban: 'GB82WEST12345698765432',
    swift: 'NWBKGB2L',
    password: 'x',
    make_default: true,
  },
};
const refused = new ApiError(422, 'Some fields are missing or invalid.', [
  { path: '/body/iban', message: 'Enter a valid IBAN' },
]);

const events = [
  { type: 'list.retried' },
  { type: 'add.opened' },
  { type: 'default.opened', id: 5 },
  { type: 'delete.opened', id: 5 },
  { type: 'change.submitted', change: add },
  { type: 'change.cancelled' },
  { type: 'xstate.done.actor.loadAccounts', output: [account] },
  { type: 'xstate.error.actor.loadAccounts', error: new Error('down') },
  { type: 'xstate.done.actor.applyChange', output: account },
  { type: 'xstate.error.actor.applyChange', error: refused },
];

describe('settings › bank accounts statechart, model-based', () => {
  afterEach(() => vi.restoreAllMocks());
  const paths = modelPaths(bankAccountsMachine, { events, settling: ['loadAccounts', 'applyChange'] });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(bankAccountsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      // failures are logged (spec section 8: payout calls only log); keep the test output clean
      vi.spyOn(console, 'error').mockImplementation(() => {});
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const control = controllableActors(['loadAccounts', 'applyChange'] as const);
      const toasts: string[] = [];
      const actor = createActor(bankAccountsMachine.provide({ actors: control.actors }));
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // a refused new account keeps its form open with the errors beside the fields; any other refusal or
          // success forgets the dialog's account
          if (real.matches('adding') && real.context.problem) {
            expect(real.context.fieldErrors.map((e: { path: string }) => e.path)).toEqual(['/body/iban']);
            expect(real.context.target).toBeNull();
          }
          if (real.matches('ready') && real.context.problem) expect(real.context.fieldErrors).toHaveLength(1);
          if (real.matches('saving')) expect(control.pending('applyChange')?.input).toBeDefined();
        },
      );
      actor.stop();
      await flush();
    });
  }
});
