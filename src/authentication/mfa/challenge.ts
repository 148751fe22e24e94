/**
 * POST /mfa/challenge (wire notes §13): the client (authenticated as at the
 * token endpoint) asks to challenge one of the user's confirmed
 * authenticators for the login of `mfa_token`:
 *
 * - `challenge_type` a space-separated list of `otp` and `oob`;
 *   `authenticator_id` picks one (it must be the user's), else the first of
 *   a requested type; `oob_channel` narrows oob to `email` or `sms`;
 * - otp: `{challenge_type: "otp"}`, the user types a code from their app;
 * - oob (email, SMS): the binding code is sent, `{challenge_type: "oob",
 *   oob_code, binding_method: "prompt"}`;
 * - oob (push, channel `auth0`): a transaction is pushed to the device,
 *   `{challenge_type: "oob", oob_code}`, polled with the mfa-oob grant.
 *
 * A user with no confirmed second factor: 400 `association_required`; no
 * authenticator of a requested type: 400 `unsupported_challenge_type`. Codes
 * sent are limited per client IP and per recipient (429).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import { storedIdOf } from '../../domain/mfa/model.js';
import { authenticatorApiId, factorOf } from '../../domain/mfa/factors/registry.js';
import { startPushChallenge } from '../../domain/mfa/push.js';
import { secondFactors, startOobChallenge, usableAuthenticators } from '../../domain/mfa/service.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { takeSend, type AbuseLimitContext } from '../abuse-limits.js';
import { authenticateClient, clientAuthenticationParameters, type ClientAuthenticationContext } from '../client-auth/authenticate.js';
import { endUserIp } from '../end-user-ip.js';
import { pick, readBody, requireParams } from '../params.js';
import type { AuthenticationRegistries } from '../registries.js';
import { openMfaLogin, type MfaGrantContext } from '../token/mfa-grant.js';
import { bindingCodeSender, type CodeDeliveryContext } from './delivery.js';
import { pushSender, type PushDeliveryContext } from './push-delivery.js';

const CHALLENGE_TYPES = new Set(['otp', 'oob']);

/** What /mfa/challenge touches: client authentication, the mfa_token's login, the user's authenticators, sending a code or a push, the send limits. */
export interface MfaChallengeContext extends ClientAuthenticationContext, MfaGrantContext, PushDeliveryContext, CodeDeliveryContext, AbuseLimitContext {
  readonly lookups: IssuanceLookups;
  readonly stores: ClientAuthenticationContext['stores'] & MfaGrantContext['stores'] & PushDeliveryContext['stores'] & CodeDeliveryContext['stores'];
}

export function challengeEndpoint(ctx: MfaChallengeContext, registries: Pick<AuthenticationRegistries, 'clientAuthMethods'>): RouteOptions {
  const authentication = clientAuthenticationParameters(registries.clientAuthMethods);
  return {
    method: 'POST',
    url: '/mfa/challenge',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const params = pick(readBody(request), [...authentication, 'mfa_token', 'challenge_type', 'authenticator_id', 'oob_channel']);
      requireParams(params, 'mfa_token');
      const client = await authenticateClient(registries.clientAuthMethods, ctx, tenant, request, params);
      const { user } = await openMfaLogin(ctx, tenant, client, params.mfa_token!);

      const wanted = (params.challenge_type ?? 'otp oob').split(' ').filter((t) => t !== '');
      const unknown = wanted.find((t) => !CHALLENGE_TYPES.has(t));
      if (unknown !== undefined || wanted.length === 0) throw oauthErrors.unsupportedChallengeType(`Unsupported challenge type: ${unknown ?? ''}`);
      const enrolled = secondFactors(await usableAuthenticators(ctx, tenant.id, user.user_id));
      if (enrolled.length === 0) throw oauthErrors.associationRequired('User is not enrolled. You can use /mfa/associate endpoint to enroll the first authenticator.');

      const candidates = enrolled.filter((a) => {
        const api = factorOf(a)?.api;
        if (!api || !wanted.includes(api.challengeType)) return false;
        if (api.challengeType === 'oob' && params.oob_channel !== undefined && params.oob_channel !== api.oobChannel) return false;
        return params.authenticator_id === undefined || storedIdOf(params.authenticator_id) === a.id;
      });
      const authenticator = candidates[0];
      if (!authenticator) {
        if (params.authenticator_id !== undefined && !enrolled.some((a) => authenticatorApiId(a) === params.authenticator_id || a.id === params.authenticator_id)) {
          throw oauthErrors.invalidRequest('Unknown authenticator_id');
        }
        throw oauthErrors.unsupportedChallengeType('User does not have an enrolled authenticator of the requested challenge type.');
      }
      reply.header('Cache-Control', 'no-store');
      const kind = factorOf(authenticator)!.challenge;
      if (kind === 'code') return { challenge_type: 'otp' };
      // Each code or notification sent costs mailbox trust, money or the user's patience: limited per client IP and per recipient (../abuse-limits.ts).
      await takeSend(ctx, tenant, 'mfa_challenge', endUserIp(request, client), authenticator.email ?? authenticator.phone_number ?? authenticator.id);
      if (kind === 'push') {
        const oobCode = await startPushChallenge(ctx, tenant, authenticator, client.client.row.client_id, pushSender(ctx, tenant, authenticator, { clientName: client.client.row.name }));
        return { challenge_type: 'oob', oob_code: oobCode };
      }
      const oobCode = await startOobChallenge(ctx, tenant, authenticator, client.client.row.client_id, bindingCodeSender(ctx, tenant, authenticator));
      return { challenge_type: 'oob', oob_code: oobCode, binding_method: 'prompt' };
    },
  };
}
