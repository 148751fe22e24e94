/** `client_secret_basic` (RFC 6749 §2.3.1): `Authorization: Basic base64(urlencode(id):urlencode(secret))`. */
import { oauthErrors } from '../../platform/http/errors.js';
import type { ClientAuthMethod } from './method.js';
import { verifySecret } from './secret.js';

function decodeFormComponent(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

export const clientSecretBasic: ClientAuthMethod = {
  name: 'client_secret_basic',
  parameters: [],
  confidential: true,
  advertised: true,
  detect(request) {
    const header = request.headers.authorization;
    if (!header || !/^basic\b/i.test(header)) return undefined;
    const match = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw oauthErrors.invalidRequest('Malformed HTTP Basic authorization header');
    return { method: 'client_secret_basic', clientId: decodeFormComponent(decoded.slice(0, colon)), secret: decodeFormComponent(decoded.slice(colon + 1)) };
  },
  verify: (_ctx, _tenant, client, credentials) => verifySecret(client, credentials),
};
