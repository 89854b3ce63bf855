import * as v from 'valibot';
import { assign, emit, fromPromise, setup } from 'xstate';
import { ApiError, type FieldError } from '../openapi/client';
import { type NotifyEvent, notifyError } from './notify';

/** A valibot schema that checks the whole form (a generated contract schema, or one built on it). */
export type FormSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;

/** The message of each field that has a problem, by its path (`email`, `address.city`); '' is the form. */
export type FieldErrors = Readonly<Record<string, string>>;

export interface FormOptions<Values, Output, Result> {
  /** The machine's id; a parent that started the form hears `xstate.done.actor.<id>` with the result. */
  id: string;
  /** What the form checks before it sends; derive it from the contract (openapi/valibot.ts). */
  schema: v.GenericSchema<Values, Output>;
  /** Sends the checked values. A rejection with an ApiError of status 422 puts its field errors under the fields. */
  submit: (values: Output, signal: AbortSignal) => Promise<Result>;
  /** Where this form's fields sit in the server's 422 pointers (default '/body', so '/body/email' is `email`). */
  pointerBase?: string;
  /** Whether a refusal that is not about fields is also toasted (default: shown above the form only). */
  toastsRefusal?: boolean;
}

export type FormValues<Schema extends FormSchema> = v.InferInput<Schema>;

export type FormEvent<Values> =
  | { type: 'field.changed'; field: Extract<keyof Values, string>; value: unknown }
  | { type: 'form.submitted' }
  | { type: 'form.reset' };

export type FormEmitted = { type: 'form.invalid'; field: string } | NotifyEvent;

export interface FormContext<Values, Output, Result> {
  initial: Values;
  values: Values;
  /** The checked values being sent (submitting), else null. */
  output: Output | null;
  /** What shows under each field: the form's own checks, then the server's 422 for fields left untouched. */
  errors: FieldErrors;
  /** The server's 422 field errors of the last submit, until their field changes. */
  serverErrors: FieldErrors;
  /** The server's message when it refused the form as a whole. */
  formError: string | null;
  result: Result | null;
}

/** A field's length limits as the schema states them, for the input's own `maxLength` and `minLength`. */
export interface FieldLimits {
  maxLength?: number;
  minLength?: number;
}

/**
 * The length limits of each top-level field of an object schema (the contract's, through openapi/valibot.ts),
 * so that an input's `maxLength` is the contract's number and not a second copy of it.
 */
export function fieldLimits(schema: unknown): Readonly<Record<string, FieldLimits>> {
  const entries = (schema as { entries?: Record<string, unknown> }).entries ?? {};
  const limits: Record<string, FieldLimits> = {};
  for (const [field, entry] of Object.entries(entries)) {
    // an optional field wraps its schema
    const inner = (entry as { wrapped?: unknown }).wrapped ?? entry;
    const found: FieldLimits = {};
    for (const action of (inner as { pipe?: ReadonlyArray<{ type?: string; requirement?: unknown }> }).pipe ?? []) {
      if (action.type === 'max_length' && typeof action.requirement === 'number') found.maxLength = action.requirement;
      if (action.type === 'min_length' && typeof action.requirement === 'number') found.minLength = action.requirement;
    }
    limits[field] = found;
  }
  return limits;
}

const pathOf = (issue: v.BaseIssue<unknown>) =>
  (issue.path ?? [])
    .map((item) => String(item.key))
    .filter((key) => key.length > 0)
    .join('.');

/** The first problem of each field (valibot's issues), by field path. */
export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = pathOf(issue);
    if (!(path in errors)) errors[path] = issue.message;
  }
  return errors;
}

/**
 * The server's 422 `errors` as field errors: `/body/email` becomes `email`, `/body/address/city`
 * `address.city`. A pointer outside the form's fields (the body as a whole, a query parameter) goes under ''.
 */
export function serverErrorsToFields(errors: readonly FieldError[], fields: readonly string[], base = '/body') {
  const out: Record<string, string> = {};
  for (const { path, message } of errors) {
    const inside = path === base || path.startsWith(`${base}/`) ? path.slice(base.length + 1) : null;
    const field = inside
      ?.split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .join('.');
    const key = field && fields.some((f) => field === f || field.startsWith(`${f}.`)) ? field : '';
    if (!(key in out)) out[key] = message;
  }
  return out;
}

const firstField = (errors: FieldErrors) => Object.keys(errors).find((key) => key !== '') ?? null;

/**
 * A form: editing (errors hidden until the first submit, then checked at every change), validating against
 * the contract-derived schema, submitting, failed (the server's 422 field errors under their fields, or its
 * message above the form) and succeeded (a final state whose output is the server's answer, so a parent
 * actor takes it from `xstate.done.actor.<id>`). A field change after a failure edits again; a second submit
 * while one is on its way is ignored.
 *
 * @example
 * const passwordForm = createFormMachine({
 *   id: 'passwordForm',
 *   schema: changePasswordBody(formMessages({ password: { required: 'Enter your new password.' } })),
 *   submit: async (body, signal) => unwrap(await api.POST('/auth/change-password', { body, signal })),
 * });
 * // a view: send({ type: 'field.changed', field: 'password', value }), send({ type: 'form.submitted' }),
 * // show state.context.errors.password, disable Submit while state.hasTag('submitting').
 */
export function createFormMachine<Values extends Record<string, unknown>, Output, Result>(
  options: FormOptions<Values, Output, Result>,
) {
  type Context = FormContext<Values, Output, Result>;
  // the actors' own types stay free of the form's type parameters: XState's config types cannot follow
  // them through two actors, so the values cross the actors as `unknown` and are typed again in context
  type Check = { success: true; output: unknown } | { success: false; errors: FieldErrors };

  const check = (values: Values): Check => {
    const result = v.safeParse(options.schema, values, { abortPipeEarly: true });
    return result.success
      ? { success: true, output: result.output }
      : { success: false, errors: issuesToErrors(result.issues) };
  };
  const fieldsOf = (values: Values) => Object.keys(values as Record<string, unknown>);
  const merge = (own: FieldErrors, server: FieldErrors): FieldErrors => ({ ...server, ...own });

  return setup({
    types: {
      context: {} as Context,
      input: {} as { values: Values },
      events: {} as FormEvent<Values>,
      emitted: {} as FormEmitted,
      output: {} as Result,
    },
    actors: {
      // an actor, so that a form can swap in a check that asks the server (the schema itself is synchronous)
      validate: fromPromise<Check, unknown>(async ({ input }) => check(input as Values)),
      submit: fromPromise<unknown, unknown>(({ input, signal }) => options.submit(input as Output, signal)),
    },
    guards: {
      isValid: (_, check: Check) => check.success,
      hasFieldErrors: (_, error: unknown) =>
        error instanceof ApiError && error.status === 422 && error.errors.length > 0,
    },
    actions: {
      changeField: assign(({ context, event }) => {
        if (event.type !== 'field.changed') return {};
        const { [event.field]: _dropped, ...serverErrors } = context.serverErrors;
        return { values: { ...context.values, [event.field]: event.value }, serverErrors, formError: null };
      }),
      recheck: assign(({ context }) => {
        const checked = check(context.values);
        return { errors: merge(checked.success ? {} : checked.errors, context.serverErrors) };
      }),
      storeOutput: assign((_, check: Check) => ({
        output: check.success ? (check.output as Output) : null,
        errors: {},
      })),
      storeErrors: assign(({ context }, check: Check) => ({
        errors: merge(check.success ? {} : check.errors, context.serverErrors),
      })),
      storeServerErrors: assign(({ context }, error: unknown) => {
        const fields = serverErrorsToFields(
          error instanceof ApiError ? error.errors : [],
          fieldsOf(context.values),
          options.pointerBase,
        );
        const { '': whole, ...serverErrors } = fields;
        return {
          serverErrors,
          errors: serverErrors,
          formError: whole ?? null,
          output: null,
        };
      }),
      storeRefusal: assign((_, error: unknown) => ({
        formError:
          error instanceof Error && error.message
            ? error.message
            : 'An unexpected error occurred. Please try again later.',
        output: null,
      })),
      announceFirstInvalid: emit(({ context }) => ({
        type: 'form.invalid' as const,
        field: firstField(context.errors) ?? '',
      })),
      toastRefusal: emit(({ context }) => notifyError(context.formError ?? '')),
      storeResult: assign((_, result: unknown) => ({ result: result as Result, output: null })),
      restart: assign(({ context }) => ({ values: context.initial, errors: {}, serverErrors: {}, formError: null })),
    },
  }).createMachine({
    id: options.id,
    context: ({ input }) => ({
      initial: input.values,
      values: input.values,
      output: null,
      errors: {},
      serverErrors: {},
      formError: null,
      result: null,
    }),
    initial: 'editing',
    states: {
      editing: {
        initial: 'pristine',
        states: {
          pristine: {
            description: 'Not submitted yet: problems stay hidden.',
            on: { 'field.changed': { actions: 'changeField' } },
          },
          checked: {
            description: 'Submitted once: every change is checked again and problems show under their fields.',
            on: { 'field.changed': { actions: ['changeField', 'recheck'] } },
          },
        },
        on: { 'form.submitted': 'validating' },
      },
      validating: {
        description: "The contract's constraints, before anything is sent.",
        tags: ['submitting'],
        invoke: {
          id: 'validate',
          src: 'validate',
          input: ({ context }: { context: Context }) => context.values,
          onDone: [
            {
              guard: { type: 'isValid', params: ({ event }: { event: { output: Check } }) => event.output },
              target: 'submitting',
              actions: { type: 'storeOutput', params: ({ event }: { event: { output: Check } }) => event.output },
            },
            {
              target: 'editing.checked',
              actions: [
                { type: 'storeErrors', params: ({ event }: { event: { output: Check } }) => event.output },
                'announceFirstInvalid',
              ],
            },
          ],
          onError: {
            target: 'failed.refused',
            actions: { type: 'storeRefusal', params: ({ event }: { event: { error: unknown } }) => event.error },
          },
        },
      },
      submitting: {
        tags: ['submitting'],
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }: { context: Context }) => context.output,
          onDone: {
            target: 'succeeded',
            actions: { type: 'storeResult', params: ({ event }: { event: { output: unknown } }) => event.output },
          },
          onError: [
            {
              guard: { type: 'hasFieldErrors', params: ({ event }: { event: { error: unknown } }) => event.error },
              target: 'failed.invalid',
              actions: [
                { type: 'storeServerErrors', params: ({ event }: { event: { error: unknown } }) => event.error },
                'announceFirstInvalid',
              ],
            },
            options.toastsRefusal
              ? {
                  target: 'failed.refused',
                  actions: [
                    { type: 'storeRefusal', params: ({ event }: { event: { error: unknown } }) => event.error },
                    'toastRefusal',
                  ],
                }
              : {
                  target: 'failed.refused',
                  actions: { type: 'storeRefusal', params: ({ event }: { event: { error: unknown } }) => event.error },
                },
          ],
        },
      },
      failed: {
        tags: ['error'],
        initial: 'refused',
        states: {
          invalid: { description: "The server's 422: its messages under the fields they name." },
          refused: {
            description: 'The server said no (wrong password, too many tries...): its message above the form.',
          },
        },
        on: {
          'field.changed': { target: 'editing.checked', actions: ['changeField', 'recheck'] },
          'form.submitted': 'validating',
        },
      },
      succeeded: {
        type: 'final',
        description: "Sent and accepted: the server's answer is the form's output.",
      },
    },
    on: { 'form.reset': { target: '.editing', actions: 'restart' } },
    output: ({ context }) => context.result as Result,
  });
}
