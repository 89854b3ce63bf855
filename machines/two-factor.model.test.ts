import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';
import {
  type TwoFactorContext,
  type TwoFactorEnabled,
  type TwoFactorSetup,
  type TwoFactorStatus,
  twoFactorMachine,
} from './two-factor.machine';

const off: TwoFactorStatus = { enabled: false, enabled_at: null, recovery_codes_left: 0 };
const on: TwoFactorStatus = { enabled: true, enabled_at: '2026-11-23T06:00:00.000Z', recovery_codes_left: 10 };
const pending: TwoFactorSetup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_uri: 'otpauth://totp/SB%20Portal:sam?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  qr_svg: '<svg></svg>',
};
const codes = Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cccc-dd${String(i).padStart(2, '2')}`);
const enabled: TwoFactorEnabled = { status: on, recovery_codes: codes };

const events = [
  { type: 'xstate.done.actor.loadStatus', output: off },
  { type: 'xstate.done.actor.loadStatus', output: on },
  { type: 'xstate.error.actor.loadStatus', error: new ApiError(0, 'Failed to load two-factor authentication.') },
  { type: 'retry' },
  { type: 'setup.requested' },
  { type: 'xstate.done.actor.startSetup', output: pending },
  { type: 'xstate.error.actor.startSetup', error: new ApiError(409, 'Two-factor authentication is already on.') },
  { type: 'setup.cancelled' },
  { type: 'xstate.done.actor.enableForm', output: enabled },
  { type: 'codes.saved' },
  { type: 'disable.requested' },
  { type: 'disable.byCode' },
  { type: 'disable.byPassword' },
  { type: 'disable.cancelled' },
  { type: 'xstate.done.actor.disableByPassword', output: off },
  { type: 'xstate.done.actor.disableByCode', output: off },
];
const ACTORS = ['loadStatus', 'startSetup', 'enableForm', 'disableByPassword', 'disableByCode'] as const;

describe('two-factor settings statechart, model-based', () => {
  const identity = ({ value, context }: { value: unknown; context: TwoFactorContext }) => [
    value,
    context.status?.enabled,
    context.setup?.secret,
    context.recoveryCodes?.length,
    context.error,
  ];
  const paths = modelPaths(twoFactorMachine, { events, identity });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(twoFactorMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(ACTORS);
      const actor = createActor(twoFactorMachine.provide({ actors: control.actors }));
      const toasts: string[] = [];
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        // the QR code and secret show only while the first code is due
        if (real.matches('confirming')) {
          expect(real.context.setup).toEqual(pending);
          expect(control.pending('enableForm')?.input).toEqual({ values: { code: '' } });
        } else expect(real.context.setup).toBeNull();
        // the recovery codes are held only until 'I saved them'
        if (real.matches('showingCodes')) {
          expect(real.context.recoveryCodes).toEqual(codes);
          expect(real.context.status?.enabled).toBe(true);
        } else expect(real.context.recoveryCodes).toBeNull();
        if (real.matches('on')) expect(real.context.status?.enabled).toBe(true);
        if (real.matches('off')) expect(real.context.status?.enabled).toBe(false);
        if (real.matches({ disabling: 'byPassword' }))
          expect(control.pending('disableByPassword')?.input).toEqual({ values: { password: '' } });
        if (real.matches({ disabling: 'byCode' }))
          expect(control.pending('disableByCode')?.input).toEqual({ values: { code: '' } });
        if (real.matches('failed')) expect(real.context.error).toBe('Failed to load two-factor authentication.');
      });
      const last = path.steps.at(-1)?.event.type;
      if (last === 'xstate.error.actor.startSetup')
        expect(toasts.at(-1)).toBe('Two-factor authentication is already on.');
      if (last === 'xstate.done.actor.enableForm') expect(toasts.at(-1)).toBe('Two-factor authentication is on.');
      actor.stop();
      await flush();
    });
  }
});
