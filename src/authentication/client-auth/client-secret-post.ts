/** `client_secret_post` (RFC 6749 §2.3.1): `client_id` and `client_secret` in the body (JSON or form). */
import { oauthErrors } from '../../platform/http/errors.js';
import type { ClientAuthMethod } from './method.js';
import { verifySecret } from './secret.js';

export const clientSecretPost: ClientAuthMethod = {
  name: 'client_secret_post',
  parameters: ['client_secret'],
  confidential: true,
  advertised: true,
  detect(_request, params) {
    if (params.client_secret === undefined) return undefined;
    if (!params.client_id) throw oauthErrors.invalidRequest('Missing required parameter: client_id');
    return { method: 'client_secret_post', clientId: params.client_id, secret: params.client_secret };
  },
  verify: (_ctx, _tenant, client, credentials) => verifySecret(client, credentials),
};
