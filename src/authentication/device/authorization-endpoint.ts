/**
 * POST /oauth/device/code (RFC 8628 §3.1-3.2; authentication-api-wire-notes
 * §12): the stages of the authorization-request table marked DA
 * (../authorize/stages.ts: read the body, authenticate the client with the
 * registry's methods (a public client by client_id), check that it may use
 * the device_code grant and that the audience is an API of the tenant), then
 * keep the request and answer with its codes:
 *
 * `{device_code, user_code, verification_uri, verification_uri_complete,
 * expires_in, interval}`, the user code `XXXX-XXXX`, `expires_in` the
 * tenant's `device_code` lifetime (900 s), `interval` 5 s.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Stores } from '../../domain/stores.js';
import { newUserCode, normalizeUserCode } from '../../domain/device-codes/codes.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import type { DeviceCodeRow } from '../../domain/rows.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { responseSupport } from '../authorize/request.js';
import { authorizationPipeline, DA, type StageContext } from '../authorize/stages.js';
import type { AuthenticatedClient } from '../client-auth/method.js';
import type { Params } from '../params.js';
import type { AuthenticationRegistries } from '../registries.js';

/** Seconds between polls (wire notes §12). */
export const DEVICE_POLL_INTERVAL = 5;

/** Keeps the request under fresh codes (a new pair on the rare collision of a user code). */
/** What /oauth/device/code touches: the stages' context and the device codes it keeps. */
export interface DeviceAuthorizationContext extends StageContext {
  readonly stores: StageContext['stores'] & Pick<Stores, 'deviceCodes'>;
}

async function keepRequest(ctx: DeviceAuthorizationContext, tenant: Tenant, client: AuthenticatedClient, params: Params, audience: string | undefined) {
  const now = ctx.now();
  const lifetime = lifetimeOf(tenant, 'device_code');
  for (let attempt = 0; ; attempt++) {
    const deviceCode = newSecret();
    const userCode = newUserCode();
    const row: DeviceCodeRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('dev'),
      device_code_hash: secretHash(deviceCode),
      user_code_hash: secretHash(normalizeUserCode(userCode)!),
      client_id: client.client.row.client_id,
      scope: params.scope ?? null,
      audience: audience ?? null,
      status: 'pending',
      user_id: null,
      session_id: null,
      auth_time: null,
      organization_id: null,
      interval: DEVICE_POLL_INTERVAL,
      created_at: isoAt(now),
      expires_at: isoAt(now + lifetime * 1000),
      last_polled_at: null,
      expiry_reported: 0,
      used_at: null,
    };
    try {
      await ctx.stores.deviceCodes.insert(row);
      return { deviceCode, userCode, lifetime };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

export function deviceAuthorizationEndpoint(ctx: DeviceAuthorizationContext, registries: AuthenticationRegistries): RouteOptions {
  const run = authorizationPipeline(DA, { ctx, clientAuthMethods: registries.clientAuthMethods, responses: responseSupport(registries) });
  return {
    method: 'POST',
    url: '/oauth/device/code',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const { authenticated, params, audience } = await run(request, reply);
      const { deviceCode, userCode, lifetime } = await keepRequest(ctx, tenant, authenticated!, params, audience);
      const verification = `${tenant.issuer}activate`;
      return reply
        .header('Cache-Control', 'no-store')
        .send({
          device_code: deviceCode,
          user_code: userCode,
          verification_uri: verification,
          verification_uri_complete: `${verification}?user_code=${userCode}`,
          expires_in: lifetime,
          interval: DEVICE_POLL_INTERVAL,
        });
    },
  };
}
