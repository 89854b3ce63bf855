import type { Router } from '../contract/router';
import { addTemplate, deleteTemplate, listTemplates, updateTemplate } from '../domain/listings/templates';
import { sellerIdOf } from '../domain/sales/totals';
import { HttpError, MESSAGES } from '../http/errors';
import { badFileName } from './wallet';

/**
 * Additional templates (issue 11, settings): a seller's reusable texts, with an optional file, that a listing
 * picks in Add Inventory. They belong to the seller the caller works for; another seller's id answers 404.
 */
export function additionalTemplateRoutes({ route }: Router) {
  route('/settings/additional-templates', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: { templates: await listTemplates(db, sellerIdOf(user)) } },
  }));

  route('/settings/additional-templates/add', 'post', async ({ user, body }, { db, clock }) => ({
    status: 200,
    body: {
      success: true,
      message: 'Template added.',
      data: await addTemplate(db, sellerIdOf(user), body, null, clock.now()),
    },
  }));

  route(
    '/settings/additional-templates/update/{template_id}',
    'post',
    async ({ user, params, body }, { db, clock }) => ({
      status: 200,
      body: {
        success: true,
        message: 'Template updated.',
        data: await updateTemplate(db, sellerIdOf(user), params.template_id, body, clock.now()),
      },
    }),
  );

  route('/settings/additional-templates/delete/{template_id}', 'post', async ({ user, params }, { db }) => ({
    status: 200,
    body: {
      success: true,
      message: 'Template deleted.',
      data: await deleteTemplate(db, sellerIdOf(user), params.template_id),
    },
  }));

  route('/api/additional-template', 'post', async ({ user, body, files }, { db, clock }) => {
    const file = files.file?.[0];
    if (file) {
      const problem = badFileName(file.clientName);
      if (problem) throw new HttpError(422, MESSAGES.validation, [{ path: '/body/file', message: problem }]);
    }
    const { name, content } = body as { name: string; content: string };
    return {
      status: 200,
      body: {
        success: true,
        message: 'Template added.',
        data: await addTemplate(db, sellerIdOf(user), { name, content }, file?.id ?? null, clock.now()),
      },
    };
  });
}
