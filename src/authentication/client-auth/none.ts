/**
 * `none`: a public client names itself with `client_id` alone (SPAs and native
 * apps). Detected last: any explicit credential wins. Verified by the client
 * being registered for it (authenticate.ts); there is nothing else to check.
 */
import type { ClientAuthMethod } from './method.js';

export const none: ClientAuthMethod = {
  name: 'none',
  parameters: [],
  confidential: false,
  advertised: false,
  detect(_request, params) {
    return params.client_id ? { method: 'none', clientId: params.client_id } : undefined;
  },
  verify: async () => undefined,
};
