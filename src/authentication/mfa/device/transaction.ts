/**
 * GET /guardian/api/transactions/{id}: the device reads what it is asked
 * before answering (`Authorization: Bearer` a JWT signed by its key, `sub`
 * the transaction id, `aud` `{base_url}/api/transactions`). 200
 * `{transaction_id, status, client_name, expires_at}`.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { pushBaseUrl } from '../../../domain/mfa/push.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import { deviceRequest } from './request.js';
import type { IssuanceLookups } from '../../../domain/issuance/lookups.js';
import type { PushContext } from '../../../domain/mfa/push.js';

/** What a device's pending transaction touches. */
export interface DeviceTransactionContext extends PushContext {
  readonly lookups: IssuanceLookups;
}

export function deviceTransactionEndpoint(ctx: DeviceTransactionContext): RouteOptions {
  return {
    method: 'GET',
    url: '/guardian/api/transactions/:id',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const { id } = request.params as { id: string };
      const transaction = await deviceRequest(ctx, request, `${pushBaseUrl(tenant)}/api/transactions`);
      if (transaction.claims.sub !== id) throw oauthErrors.notFound('Transaction not found or expired.');
      const client = await ctx.lookups.client(tenant.id, transaction.challenge.client_id);
      return reply.header('Cache-Control', 'no-store').send({
        transaction_id: id,
        status: transaction.challenge.status,
        client_name: client?.row.name ?? null,
        expires_at: transaction.challenge.expires_at,
      });
    },
  };
}
