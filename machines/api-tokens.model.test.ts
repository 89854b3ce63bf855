import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { type ApiToken, type ApiTokenForm, apiTokensMachine } from './api-tokens.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const token = { id: 3, name: 'POS', token_hint: 'abcd', scopes: ['listings'], status: 'active' } as unknown as ApiToken;
const form: ApiTokenForm = { name: 'POS', scopes: ['listings'], expires_in_days: 30 };
const refused = new ApiError(422, 'Some fields are missing or invalid.', [{ path: '/body/name', message: 'is empty' }]);

const events = [
  { type: 'list.retried' },
  { type: 'create.opened' },
  { type: 'create.submitted', form },
  { type: 'revoke.opened', id: 3 },
  { type: 'revoke.confirmed' },
  { type: 'change.cancelled' },
  { type: 'token.dismissed' },
  { type: 'xstate.done.actor.loadTokens', output: [token] },
  { type: 'xstate.error.actor.loadTokens', error: new Error('down') },
  { type: 'xstate.done.actor.createToken', output: { token: 'sbk_secret', api_token: token } },
  { type: 'xstate.error.actor.createToken', error: refused },
  { type: 'xstate.done.actor.revokeToken', output: token },
  { type: 'xstate.error.actor.revokeToken', error: new ApiError(404, 'No such API token.') },
];

describe('settings › API tokens statechart, model-based', () => {
  const actorsOf = ['loadTokens', 'createToken', 'revokeToken'] as const;
  const paths = modelPaths(apiTokensMachine, { events, settling: [...actorsOf] });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(apiTokensMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(actorsOf);
      const actor = createActor(apiTokensMachine.provide({ actors: control.actors }));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // the token is shown only while its dialog is open, and forgotten after
          if (real.matches('showingToken')) expect(real.context.shown).toBe('sbk_secret');
          else expect(real.context.shown).toBeNull();
          if (real.matches('creating') && real.context.problem) expect(real.context.fieldErrors).toHaveLength(1);
          if (real.matches('revoking')) expect(control.pending('revokeToken')?.input).toBe(3);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
