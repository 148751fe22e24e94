/**
 * credentials-exchange (v2), actions-wire-notes §2.4: runs for
 * client_credentials before the access token is issued. Custom claims of the
 * access token, `access.deny(code, reason)` with the codes the service
 * allows.
 */
import { setClaim } from '../claims.js';
import { ActionCommandError, stringArg, type TriggerModule } from './trigger.js';
import type { EventRequest } from './event-parts.js';

export interface CredentialsExchangeInput {
  tenant: { id: string };
  client: { client_id: string; name: string; metadata: Record<string, unknown> };
  resourceServer: { identifier: string; system: boolean };
  scope: string[];
  requestedScopes: string[];
  request: EventRequest;
  organization?: { id: string; name: string; display_name?: string; metadata: Record<string, unknown> };
}

export interface CredentialsExchangeOutcome {
  accessTokenClaims: Record<string, unknown>;
  deny?: { code: 'invalid_scope' | 'invalid_request' | 'server_error'; reason: string };
}

const DENY_CODES = new Set(['invalid_scope', 'invalid_request', 'server_error']);

export const credentialsExchange: TriggerModule<CredentialsExchangeInput, CredentialsExchangeOutcome> = {
  id: 'credentials-exchange',
  version: 'v2',
  handler: 'onExecuteCredentialsExchange',
  blocking: true,
  methods: ['access.deny', 'accessToken.setCustomClaim'],

  event: (input) => ({
    accessToken: { customClaims: {}, scope: input.scope },
    client: input.client,
    resource_server: { identifier: input.resourceServer.identifier },
    request: input.request,
    transaction: { requested_scopes: input.requestedScopes },
    ...(input.organization && { organization: input.organization }),
    tenant: { id: input.tenant.id },
  }),

  start: () => ({ accessTokenClaims: {} }),

  apply(outcome, { method, args }, input) {
    if (method === 'accessToken.setCustomClaim') return setClaim(outcome.accessTokenClaims, args[0], args[1], { namespacedOnly: input.resourceServer.system });
    const code = stringArg(args[0], 'The deny code', 64);
    if (!DENY_CODES.has(code)) throw new ActionCommandError(`api.access.deny: the code must be one of invalid_scope, invalid_request, server_error (got "${code}").`);
    outcome.deny = { code: code as 'invalid_scope', reason: typeof args[1] === 'string' ? args[1].slice(0, 1024) : 'Access denied' };
  },

  stops: (outcome) => outcome.deny !== undefined,
};
