import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdditionalTemplate } from '../../../machines/templates.machine';
import { renderSignedIn } from '../../app/testing/render-signed-in';
import { fakeApi, reply } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import TemplatesPage from './templates-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();
const WAIT = { timeout: 8000 };

const template = (id: number, name: string, listings = 0): AdditionalTemplate => ({
  template_id: id,
  name,
  content: `${name}: the text`,
  file: null,
  listings_count: listings,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
});

function seller() {
  fakeProfile({ permissions: ['settings'] });
}

function renderPage() {
  return renderSignedIn(<TemplatesPage />, { path: '/settings/templates', now: NOW });
}

describe('Settings › Templates', () => {
  let templates: AdditionalTemplate[];
  beforeEach(() => {
    fakeApi.reset();
    seller();
    templates = [];
    fakeApi.on('GET /settings/additional-templates', () => ({ templates }));
  });
  afterEach(() => fakeApi.reset());

  it('starts empty, adds a template (the server’s 422 under its field first) and lists it', async () => {
    const user = userEvent.setup();
    let tries = 0;
    fakeApi.on('POST /settings/additional-templates/add', ({ body }) => {
      tries++;
      if (tries === 1) {
        return reply(422, {
          success: false,
          message: 'Validation failed',
          errors: [{ path: '/body/name', message: 'You already have a template with this name.' }],
        });
      }
      const added = template(5, (body as { name: string }).name);
      templates = [added];
      return added;
    });
    renderPage();
    expect(await screen.findByText(/^No templates yet/, {}, WAIT)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add template' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Collection point');
    await user.type(within(dialog).getByRole('textbox', { name: /^Text/ }), 'Gate B.');
    await user.click(save);
    expect(await within(dialog).findByText('You already have a template with this name.')).toBeVisible();
    // the add call sends the name and the text only (no id)
    const adds = fakeApi.calls.filter((c) => c.path === '/settings/additional-templates/add');
    expect(adds[0]?.body).toEqual({ name: 'Collection point', content: 'Gate B.' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const list = await screen.findByRole('list', { name: 'Templates' }, WAIT);
    expect(within(list).getByRole('listitem', { name: 'Collection point' })).toHaveTextContent('0 listings carry it');
    expect(screen.queryByRole('dialog', { name: 'Add template' })).toBeNull();
  });

  it('edits a template through its update call, and deletes one after saying how many listings carry it', async () => {
    const user = userEvent.setup();
    templates = [template(3, 'Away section', 2), template(4, 'Collection point')];
    fakeApi.on('POST /settings/additional-templates/update/{template_id}', ({ body }) => {
      const changed = { ...template(3, 'Away section', 2), ...(body as object) };
      templates = [changed, template(4, 'Collection point')];
      return changed;
    });
    fakeApi.on('POST /settings/additional-templates/delete/{template_id}', () => {
      templates = [template(4, 'Collection point')];
      return { template_id: 3 };
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Templates' }, WAIT);
    await user.click(within(list).getByRole('button', { name: 'Edit Away section' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit template' });
    const text = within(dialog).getByRole('textbox', { name: /^Text/ });
    expect(text).toHaveValue('Away section: the text');
    await user.clear(text);
    await user.type(text, 'No home colours.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fakeApi.calls.find((c) => c.path.includes('/update/'))?.body).toEqual({
        name: 'Away section',
        content: 'No home colours.',
      }),
    );
    const edited = await screen.findByText('No home colours.', {}, WAIT);
    expect(edited).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Delete Away section' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete template' });
    expect(confirm).toHaveTextContent('2 listings carry it; they will no longer.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Away section' })).toBeNull(), WAIT);
    expect(screen.getByRole('listitem', { name: 'Collection point' })).toBeVisible();
  });

  it('says when the templates did not load, and Retry loads them', async () => {
    const user = userEvent.setup();
    let fail = true;
    fakeApi.on('GET /settings/additional-templates', () =>
      fail ? reply(500, { success: false, message: 'down' }) : { templates: [template(4, 'Collection point')] },
    );
    renderPage();
    const alert = await screen.findByRole('alert', {}, WAIT);
    expect(alert).toHaveTextContent('Failed to fetch data');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: 'Collection point' }, WAIT)).toBeVisible();
  });
});
