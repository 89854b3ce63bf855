import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  PARTNER_LOAD_ERROR,
  PARTNER_SAVED,
  type PartnerSettings,
  partnerSettingsMachine,
  valuesOf,
} from './partner-settings.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const stored: PartnerSettings = {
  api_access: false,
  webhook_url: null,
  notification_email: null,
  updated_at: null,
};
const saved: PartnerSettings = {
  api_access: true,
  webhook_url: 'https://hooks.example.com/sb',
  notification_email: 'partners@example.com',
  updated_at: '2026-11-23T06:00:00.000Z',
};

const events = [
  { type: 'retry' },
  { type: 'xstate.done.actor.loadSettings', output: stored },
  { type: 'xstate.error.actor.loadSettings', error: new ApiError(500, PARTNER_LOAD_ERROR) },
  { type: 'xstate.done.actor.partnerSettingsForm', output: saved },
];

describe('settings › partner settings statechart, model-based', () => {
  const paths = modelPaths(partnerSettingsMachine, {
    events,
    identity: ({ value, context }) => [value, context.settings?.updated_at ?? null],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(partnerSettingsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('the form starts from the settings as stored', () => {
    expect(valuesOf(saved)).toEqual({
      api_access: true,
      webhook_url: 'https://hooks.example.com/sb',
      notification_email: 'partners@example.com',
    });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['loadSettings', 'partnerSettingsForm'] as const);
      const toasts: string[] = [];
      const actor = createActor(partnerSettingsMachine.provide({ actors: control.actors }));
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // the form opens with what the server stored last
          if (real.matches('editing')) {
            expect(control.pending('partnerSettingsForm')?.input).toEqual({
              values: valuesOf(real.context.settings as PartnerSettings),
            });
          }
          if (real.matches('failed')) expect(toasts).toContain(PARTNER_LOAD_ERROR);
          if (real.context.settings?.updated_at) expect(toasts).toContain(PARTNER_SAVED);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
