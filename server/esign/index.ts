import { sandboxESign } from './sandbox';
import { type ZohoSignSettings, zohoESign } from './zoho';

export * from './port';
export { type SandboxESign, sandboxESign } from './sandbox';

const ZOHO_KEYS = [
  'ZOHO_SIGN_CLIENT_ID',
  'ZOHO_SIGN_CLIENT_SECRET',
  'ZOHO_SIGN_REFRESH_TOKEN',
  'ZOHO_SIGN_TEMPLATE_ID',
] as const;

/** The Zoho Sign settings when all four keys are set, null when none is; some but not all refuse to start. */
export function readZohoSettings(env: NodeJS.ProcessEnv = process.env): ZohoSignSettings | null {
  const given = ZOHO_KEYS.filter((k) => env[k]);
  if (given.length === 0) return null;
  const missing = ZOHO_KEYS.filter((k) => !env[k]);
  if (missing.length > 0) throw new Error(`Zoho Sign is half configured: ${missing.join(', ')} missing`);
  return {
    apiUrl: (env.ZOHO_SIGN_API_URL ?? 'https://sign.zoho.com/api/v1').replace(/\/$/, ''),
    accountsUrl: (env.ZOHO_ACCOUNTS_URL ?? 'https://accounts.zoho.com').replace(/\/$/, ''),
    clientId: env.ZOHO_SIGN_CLIENT_ID as string,
    clientSecret: env.ZOHO_SIGN_CLIENT_SECRET as string,
    refreshToken: env.ZOHO_SIGN_REFRESH_TOKEN as string,
    templateId: env.ZOHO_SIGN_TEMPLATE_ID as string,
  };
}

/** The adapter the environment chooses: Zoho Sign when configured, the local sandbox signer otherwise. */
export function esignFrom(env: NodeJS.ProcessEnv = process.env) {
  const zoho = readZohoSettings(env);
  return zoho ? zohoESign(zoho) : sandboxESign;
}
