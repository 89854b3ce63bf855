import { type ESign, ESignUnavailable } from './port';

export interface ZohoSignSettings {
  /** Zoho Sign's API, e.g. https://sign.zoho.com/api/v1 (sign.zoho.eu for the EU data centre). */
  apiUrl: string;
  /** Zoho's accounts server that exchanges the refresh token, e.g. https://accounts.zoho.com. */
  accountsUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** The Zoho Sign template that holds the seller contract, with one signer action. */
  templateId: string;
  /** How long a call may take before it counts as unreachable. */
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

/**
 * The Zoho Sign adapter (API v1): an OAuth access token from the refresh token (kept until a minute before it
 * expires), a request from the contract template with one embedded signer (`templates/{id}/createdocument`,
 * quick-sent), the embedded signing URL (`requests/{id}/actions/{action}/embedtoken?host=`), the request's status
 * (`requests/{id}`, completed once signed) and the signed PDF (`requests/{id}/pdf`). Any failure to reach it, or
 * an answer without `status: success`, is ESignUnavailable (a 502 to the caller).
 */
export function zohoESign(settings: ZohoSignSettings, fetchImpl: typeof fetch = fetch): ESign {
  const timeoutMs = settings.timeoutMs ?? 15_000;
  let token: { value: string; until: number } | null = null;

  async function call(url: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new ESignUnavailable(`${url} could not be reached (${(error as Error).message})`);
    }
    if (!res.ok) throw new ESignUnavailable(`${url} answered ${res.status}`);
    return res;
  }

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const form = new URLSearchParams({
      refresh_token: settings.refreshToken,
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      grant_type: 'refresh_token',
    });
    const res = await call(`${settings.accountsUrl}/oauth/v2/token`, { method: 'POST', body: form });
    const body = (await res.json()) as { access_token?: string; expires_in?: number; error?: string };
    if (!body.access_token) throw new ESignUnavailable(`no access token (${body.error ?? 'no reason given'})`);
    token = { value: body.access_token, until: Date.now() + ((body.expires_in ?? 3600) - 60) * 1000 };
    return token.value;
  }

  async function api(path: string, init: RequestInit = {}): Promise<Response> {
    const auth = { Authorization: `Zoho-oauthtoken ${await accessToken()}` };
    return call(`${settings.apiUrl}${path}`, { ...init, headers: { ...auth, ...(init.headers ?? {}) } });
  }

  async function apiJson(path: string, init: RequestInit = {}): Promise<Json> {
    const body = (await (await api(path, init)).json()) as Json;
    if (body.status !== 'success') throw new ESignUnavailable(`${path}: ${String(body.message ?? 'failed')}`);
    return body;
  }

  return {
    provider: 'zoho',
    async create(_db, signer) {
      const template = (await apiJson(`/templates/${encodeURIComponent(settings.templateId)}`)) as {
        templates?: { actions?: { action_id: string; action_type: string }[] };
      };
      const action = template.templates?.actions?.find((a) => a.action_type === 'SIGN');
      if (!action) throw new ESignUnavailable(`template ${settings.templateId} has no signer`);
      const data = {
        templates: {
          field_data: { field_text_data: {}, field_boolean_data: {}, field_date_data: {} },
          actions: [
            {
              action_id: action.action_id,
              action_type: 'SIGN',
              recipient_name: signer.name,
              recipient_email: signer.email,
              verify_recipient: false,
              is_embedded: true,
            },
          ],
        },
      };
      const form = new URLSearchParams({ data: JSON.stringify(data), is_quicksend: 'true' });
      const created = (await apiJson(`/templates/${encodeURIComponent(settings.templateId)}/createdocument`, {
        method: 'POST',
        body: form,
      })) as { requests?: { request_id?: string; actions?: { action_id?: string }[] } };
      const requestId = created.requests?.request_id;
      const actionId = created.requests?.actions?.[0]?.action_id;
      if (!requestId || !actionId) throw new ESignUnavailable('createdocument answered no request or action id');
      return { requestId: String(requestId), actionId: String(actionId) };
    },
    async signUrl(requestId, actionId, host) {
      if (!actionId) throw new ESignUnavailable(`request ${requestId} has no signer action`);
      const body = (await apiJson(
        `/requests/${encodeURIComponent(requestId)}/actions/${encodeURIComponent(actionId)}/embedtoken?host=${encodeURIComponent(host)}`,
        { method: 'POST' },
      )) as { sign_url?: string };
      if (!body.sign_url?.startsWith('https://')) throw new ESignUnavailable('embedtoken answered no https sign_url');
      return body.sign_url;
    },
    async status(_db, requestId) {
      const body = (await apiJson(`/requests/${encodeURIComponent(requestId)}`)) as {
        requests?: {
          request_status?: string;
          actions?: { recipient_name?: string; action_status?: string }[];
          sign_submitted_time?: number;
          modified_time?: number;
        };
      };
      const request = body.requests;
      const signed = request?.request_status === 'completed';
      const when = request?.sign_submitted_time ?? request?.modified_time;
      return {
        signed,
        signerName: signed ? (request?.actions?.[0]?.recipient_name ?? null) : null,
        signedAt: signed && when ? new Date(when).toISOString() : null,
      };
    },
    async signedPdf(_db, requestId) {
      const res = await api(`/requests/${encodeURIComponent(requestId)}/pdf`);
      return Buffer.from(await res.arrayBuffer());
    },
  };
}
