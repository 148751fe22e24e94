/**
 * POST /passwordless/start (wire notes §11): for an email connection sends
 * a code (`send: "code"`) or a magic link (`send: "link"`, the default) to
 * `email`; for an sms connection texts a code to `phone_number` through the
 * tenant's Twilio provider (`{_id, phone_number, phone_verified}`;
 * `bad.phone_number`, and `sms_provider_error` when the provider is not
 * configured or refuses). The client authenticates as at the token endpoint (a confidential
 * client with its credentials, a public one with client_id alone). The 200
 * body is the service's `{_id, email, email_verified}` (`_id` names this
 * request), the same whether or not the address has an account.
 *
 * - refusals in the service's dotted shape: `bad.connection` (unknown, not
 *   email, or not enabled for the client), `bad.email`, `bad.send`,
 *   `bad.authParams`;
 * - limits (each code costs mailbox trust, ../abuse-limits.ts): per client
 *   IP 50 an hour (the service's figure, wire notes §1.5) and per address 10
 *   an hour; past either, 429 `too_many_requests` with Retry-After.
 *
 * The link goes to /passwordless/verify_redirect with the code and
 * `authParams` (`redirect_uri`, `response_type`, `scope`, `state`, `nonce`,
 * `audience`...), which are checked there as /authorize checks them.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { E164, SMS_STRATEGY } from '../../domain/passwordless/options.js';
import { startEmail } from '../../domain/passwordless/service.js';
import { OAuthError } from '../../platform/http/errors.js';
import type { AuthenticatedClient } from '../client-auth/method.js';
import { takeSend, type AbuseLimitContext } from '../abuse-limits.js';
import { authenticateClient, clientAuthenticationParameters, type ClientAuthenticationContext } from '../client-auth/authenticate.js';
import { endUserIp } from '../end-user-ip.js';
import { PasswordlessError } from '../errors.js';
import { pick, readBody, type Params } from '../params.js';
import type { AuthenticationRegistries } from '../registries.js';
import { passwordlessConnection, type PasswordlessConnectionContext } from './connection.js';
import { textPasswordlessCode, type PasswordlessSmsContext } from './sms.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
/** authParams members carried by the link, as auth0.js sends them. */
const AUTH_PARAMS = ['redirect_uri', 'response_type', 'response_mode', 'scope', 'state', 'nonce', 'audience', 'code_challenge', 'code_challenge_method', 'prompt', 'max_age', 'acr_values'];

function authParamsOf(body: unknown): Record<string, string> {
  const value = (body as Record<string, unknown> | null)?.authParams;
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new PasswordlessError('bad.authParams', 'authParams must be an object');
  const params: Record<string, string> = {};
  for (const [name, member] of Object.entries(value)) {
    if (!AUTH_PARAMS.includes(name)) continue;
    if (typeof member !== 'string' || member.length > 2048) throw new PasswordlessError('bad.authParams', `authParams.${name} must be a string of at most 2048 characters`);
    params[name] = member;
  }
  return params;
}

/** What POST /passwordless/start touches. */
export interface PasswordlessStartContext extends AbuseLimitContext, PasswordlessSmsContext, ClientAuthenticationContext, PasswordlessConnectionContext {
  readonly stores: PasswordlessSmsContext['stores'] & ClientAuthenticationContext['stores'] & PasswordlessConnectionContext['stores'];
}

export function passwordlessStartEndpoint(ctx: PasswordlessStartContext, registries: Pick<AuthenticationRegistries, 'clientAuthMethods'>): RouteOptions {
  const authentication = clientAuthenticationParameters(registries.clientAuthMethods);

  /** An sms connection: a code texted to `phone_number` (E.164) through the tenant's Twilio provider. */
  const startBySms = async (request: FastifyRequest, reply: FastifyReply, client: AuthenticatedClient, connection: ConnectionRow, params: Params) => {
    const { tenant } = request;
    const phoneNumber = params.phone_number ?? '';
    if (!E164.test(phoneNumber)) throw new PasswordlessError('bad.phone_number', 'String does not match pattern: ^\\+[0-9]{1,15}$');
    if ((params.send ?? 'code') !== 'code') throw new PasswordlessError('bad.send', 'send must be "code" for sms connections');
    authParamsOf(request.body);
    // Each text costs money: limited per client IP and per number (../abuse-limits.ts).
    await takeSend(ctx, tenant, 'passwordless_start', endUserIp(request, client), phoneNumber);
    try {
      await textPasswordlessCode(ctx, tenant, connection, { id: client.client.row.client_id, name: client.client.row.name }, phoneNumber);
    } catch (error) {
      // Phone provider protection's wait (429) is not the provider's error: it goes out as it is.
      if (!(error instanceof OAuthError) || error.statusCode === 429) throw error;
      throw new PasswordlessError('sms_provider_error', error.statusCode === 502 ? 'The text message could not be sent.' : error.description);
    }
    return reply.header('Cache-Control', 'no-store').send({ _id: randomBytes(12).toString('hex'), phone_number: phoneNumber, phone_verified: true });
  };

  return {
    method: 'POST',
    url: '/passwordless/start',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const params = pick(readBody(request), [...authentication, 'connection', 'email', 'phone_number', 'send'], (message) => new PasswordlessError('bad.request', message));
      if (!params.client_id) throw new PasswordlessError('bad.client_id', 'Missing required property: client_id');
      const client = await authenticateClient(registries.clientAuthMethods, ctx, tenant, request, params);
      const connection = await passwordlessConnection(ctx, tenant, client.client.row.client_id, params.connection);
      if (!connection) throw new PasswordlessError('bad.connection', 'Connection does not exist');
      if (connection.strategy === SMS_STRATEGY) return startBySms(request, reply, client, connection, params);
      const email = params.email ?? '';
      if (!EMAIL.test(email)) throw new PasswordlessError('bad.email', 'Invalid email address');
      const send = params.send ?? 'link';
      if (send !== 'link' && send !== 'code') throw new PasswordlessError('bad.send', 'send must be "link" or "code"');
      const authParams = authParamsOf(request.body);
      await takeSend(ctx, tenant, 'passwordless_start', endUserIp(request, client), email);

      await startEmail(ctx, {
        tenant,
        connection,
        client: { id: client.client.row.client_id, name: client.client.row.name },
        email,
        send,
        link: (code) =>
          `${tenant.issuer}passwordless/verify_redirect?${new URLSearchParams({
            ...authParams,
            client_id: client.client.row.client_id,
            connection: connection.name,
            email,
            verification_code: code,
          })}`,
      });
      return reply.header('Cache-Control', 'no-store').send({ _id: randomBytes(12).toString('hex'), email, email_verified: true });
    },
  };
}
