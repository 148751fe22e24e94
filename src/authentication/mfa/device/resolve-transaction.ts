/**
 * POST /guardian/api/resolve-transaction: the device approves or denies a
 * login transaction. `Authorization: Bearer` a JWT signed by its enrolled
 * key: `iss` the enrolment id, `sub` the transaction id, `aud`
 * `{base_url}/api/resolve-transaction`, `iat`, `exp`,
 * `auth0_guardian_method: "push"` and `auth0_guardian_accepted` (boolean).
 * 204 once recorded; 409 when the transaction was already answered.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { pushBaseUrl, resolvePushTransaction } from '../../../domain/mfa/push.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import { deviceRequest, invalidToken } from './request.js';
import type { PushContext } from '../../../domain/mfa/push.js';

export function resolveTransactionEndpoint(ctx: PushContext): RouteOptions {
  return {
    method: 'POST',
    url: '/guardian/api/resolve-transaction',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const transaction = await deviceRequest(ctx, request, `${pushBaseUrl(tenant)}/api/resolve-transaction`);
      const { auth0_guardian_method: method, auth0_guardian_accepted: accepted } = transaction.claims;
      if (method !== 'push' || typeof accepted !== 'boolean') throw invalidToken('The token must carry auth0_guardian_method "push" and auth0_guardian_accepted.');
      if (!(await resolvePushTransaction(ctx, tenant, transaction, accepted))) throw oauthErrors.invalidRequest('The transaction was already answered.', 409);
      return reply.code(204).send();
    },
  };
}
