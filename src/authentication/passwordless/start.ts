/**
 * POST /passwordless/start (wire notes §11), email connections: sends a
 * code (`send: "code"`) or a magic link (`send: "link"`, the default) to
 * `email`. The client authenticates as at the token endpoint (a confidential
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
import type { AppContext } from '../../domain/context.js';
import { startEmail } from '../../domain/passwordless/service.js';
import { takeSend } from '../abuse-limits.js';
import { authenticateClient, clientAuthenticationParameters } from '../client-auth/authenticate.js';
import { endUserIp } from '../end-user-ip.js';
import { PasswordlessError } from '../errors.js';
import { pick, readBody } from '../params.js';
import type { AuthenticationRegistries } from '../registries.js';
import { emailConnection } from './connection.js';

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

export function passwordlessStartEndpoint(ctx: AppContext, registries: Pick<AuthenticationRegistries, 'clientAuthMethods'>): RouteOptions {
  const authentication = clientAuthenticationParameters(registries.clientAuthMethods);
  return {
    method: 'POST',
    url: '/passwordless/start',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const params = pick(readBody(request), [...authentication, 'connection', 'email', 'phone_number', 'send'], (message) => new PasswordlessError('bad.request', message));
      if (!params.client_id) throw new PasswordlessError('bad.client_id', 'Missing required property: client_id');
      const client = await authenticateClient(registries.clientAuthMethods, ctx, tenant, request, params);
      const connection = await emailConnection(ctx, tenant, client.client.row.client_id, params.connection);
      if (!connection) throw new PasswordlessError('bad.connection', params.connection === 'sms' ? 'SMS connections are not supported by this server' : 'Connection does not exist');
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
