import * as v from 'valibot';
import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, messageOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import { addAdditionalTemplateBody } from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';
import { createListMachine } from './list.machine';
import { type AdditionalTemplate, FETCH_FAILED, loadTemplates } from './listings-api';
import { type NotifyEvent, notifyError } from './notify';

export type { AdditionalTemplate };

export const TEMPLATES_FAILED = FETCH_FAILED;
export const TEMPLATE_SAVED = 'Template saved';
export const TEMPLATE_DELETED = 'Template deleted';

/** Settings › Templates: the seller's templates on the shared list machine (one page: the server keeps 100). */
export const templatesListMachine = createListMachine<AdditionalTemplate, Record<string, never>>({
  id: 'templatesList',
  fetchPage: async (_, signal) => {
    const items = await loadTemplates(signal);
    return { items, page: 1, lastPage: 1, total: items.length };
  },
  keyOf: (t) => t.template_id,
  errorMessage: () => TEMPLATES_FAILED,
  toastsErrors: () => true,
});

const templateBody = addAdditionalTemplateBody(
  formMessages({
    name: { required: 'Enter a name.', maxLength: 'A name has at most 100 characters.' },
    content: { required: 'Enter the text.', maxLength: 'The text has at most 2,000 characters.' },
  }),
);

/**
 * The template form's checks: the contract's add body (name and text), plus the id of the template being
 * edited (null when adding), which decides the call and is not sent as a field.
 */
export const templateSchema = v.strictObject({
  ...templateBody.entries,
  template_id: v.nullable(v.number()),
});
export type TemplateValues = v.InferInput<typeof templateSchema>;
/** The name's and the text's length limits, from the contract. */
export const TEMPLATE_LIMITS = fieldLimits(templateBody);

export async function saveTemplate(
  { template_id, ...body }: v.InferOutput<typeof templateSchema>,
  signal: AbortSignal,
): Promise<AdditionalTemplate> {
  if (template_id === null) return unwrap(await api.POST('/settings/additional-templates/add', { body, signal }));
  return unwrap(
    await api.POST('/settings/additional-templates/update/{template_id}', {
      params: { path: { template_id } },
      body,
      signal,
    }),
  );
}

/** Adding or editing one template, on the shared form machine (the server's 422 under its fields). */
export const templateFormMachine = createFormMachine({
  id: 'templateForm',
  schema: templateSchema,
  submit: (values, signal) => saveTemplate(values, signal),
});

export const valuesOf = (t: AdditionalTemplate | null): TemplateValues =>
  t ? { name: t.name, content: t.content, template_id: t.template_id } : { name: '', content: '', template_id: null };

export interface TemplatesContext {
  /** The template being edited or deleted (null while adding or idle). */
  template: AdditionalTemplate | null;
}

export type TemplatesEvent =
  | { type: 'template.addRequested' }
  | { type: 'template.editRequested'; template: AdditionalTemplate }
  | { type: 'template.deleteRequested'; template: AdditionalTemplate }
  | { type: 'form.closed' }
  | { type: 'delete.confirmed' }
  | { type: 'delete.cancelled' };

/**
 * Settings › Templates (/settings/templates): the seller's additional templates, the reusable texts a listing
 * picks in Add Inventory. The list is the shared list machine (`templatesList`); adding and editing open the
 * shared form machine (`templateForm`) in a dialog; deleting asks first, and tells how many listings carry the
 * template. One change at a time; each saved change reloads the list.
 */
export const templatesMachine = setup({
  types: {
    context: {} as TemplatesContext,
    events: {} as TemplatesEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    templatesList: templatesListMachine,
    templateForm: templateFormMachine,
    deleteTemplate: fromPromise<unknown, { templateId: number }>(async ({ input, signal }) =>
      unwrap(
        await api.POST('/settings/additional-templates/delete/{template_id}', {
          params: { path: { template_id: input.templateId } },
          signal,
        }),
      ),
    ),
  },
  actions: {
    pick: assign({
      template: ({ event }) =>
        event.type === 'template.editRequested' || event.type === 'template.deleteRequested' ? event.template : null,
    }),
    forget: assign({ template: null }),
    // the list child as it runs (the test model has none to resolve a name against)
    reloadList: enqueueActions(({ enqueue, system }) => {
      const list = system.get('templatesList');
      if (list) enqueue.sendTo(list, { type: 'list.refreshed' });
    }),
    announceSaved: emit({ type: 'notify', level: 'success', message: TEMPLATE_SAVED }),
    announceDeleted: emit({ type: 'notify', level: 'success', message: TEMPLATE_DELETED }),
    announceFailure: emit((_, error: unknown) => notifyError(messageOf(error))),
  },
}).createMachine({
  id: 'templates',
  context: { template: null },
  invoke: { id: 'templatesList', systemId: 'templatesList', src: 'templatesList', input: { filters: {} } },
  initial: 'idle',
  states: {
    idle: {
      description: 'The list of templates, each with Edit and Delete, and Add template.',
      on: {
        'template.addRequested': { target: 'adding', actions: 'forget' },
        'template.editRequested': { target: 'editing', actions: 'pick' },
        'template.deleteRequested': { target: 'confirmingDelete', actions: 'pick' },
      },
    },
    adding: {
      description: 'The dialog of a new template: its name (unique for the seller) and its text.',
      invoke: {
        id: 'templateForm',
        src: 'templateForm',
        input: { values: valuesOf(null) },
        onDone: { target: 'idle', actions: ['announceSaved', 'reloadList'] },
      },
      on: { 'form.closed': 'idle' },
    },
    editing: {
      description: 'The dialog of an existing template; the listings that carry it show the new text.',
      invoke: {
        id: 'templateForm',
        src: 'templateForm',
        input: ({ context }) => ({ values: valuesOf(context.template) }),
        onDone: { target: 'idle', actions: ['announceSaved', 'forget', 'reloadList'] },
      },
      on: { 'form.closed': { target: 'idle', actions: 'forget' } },
    },
    confirmingDelete: {
      description: 'Delete? The listings that carry the template no longer will.',
      on: {
        'delete.confirmed': 'deleting',
        'delete.cancelled': { target: 'idle', actions: 'forget' },
      },
    },
    deleting: {
      tags: ['deleting'],
      invoke: {
        id: 'deleteTemplate',
        src: 'deleteTemplate',
        input: ({ context }) => ({ templateId: context.template?.template_id ?? 0 }),
        onDone: { target: 'idle', actions: ['announceDeleted', 'forget', 'reloadList'] },
        onError: {
          target: 'confirmingDelete',
          actions: { type: 'announceFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
  },
});
