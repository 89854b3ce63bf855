import type { components } from '../../openapi/schema';
import type { Router } from '../contract/router';

/** The support popup's content (the header's bot icon): the one place these values live. */
export const SUPPORT_INFO: components['schemas']['SupportInfoResponse']['data'] = {
  title: 'Need help?',
  sub_title: 'Our seller support team is here 7 days a week.',
  phone: '+44 20 3808 0000',
  email: 'support@sbportal.example',
};

export function uiSettingsRoutes({ route }: Router) {
  route('/ui-settings/support-info', 'get', () => ({ status: 200, body: { success: true, data: SUPPORT_INFO } }));
}
