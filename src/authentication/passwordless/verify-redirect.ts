/**
 * GET /passwordless/verify_redirect (wire notes §11): the magic link of
 * /passwordless/start, and auth0.js's verification URL. Its query is an
 * /authorize request (client_id, redirect_uri, response_type, scope, state,
 * nonce…) plus `connection`, `email` and `verification_code`:
 *
 * - the client and redirect_uri are checked first, as at /authorize (a
 *   failure is a page, never a redirect), then the rest of the request;
 * - the code must be right for that address and client, unexpired and
 *   unused; it is spent here (a second visit of the link is refused);
 * - a wrong code, or an unknown address under `disable_signup`, goes back
 *   to the application as `access_denied`;
 * - otherwise the user (created at the first login) gets a session and the
 *   interaction steps go on from the login (MFA, consent), ending with the
 *   authorization response.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { passwordlessUser, verifyEmailCode } from '../../domain/passwordless/service.js';
import { isActive } from '../../domain/users/active-user.js';
import { authorizeRequestReader } from '../authorize/endpoint.js';
import type { AuthenticationRegistries } from '../registries.js';
import { bindBrowser } from '../cookies.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { runInteraction } from '../interaction/policy.js';
import type { StepDeps } from '../interaction/step.js';
import { emailConnection } from './connection.js';

export function verifyRedirectEndpoint(deps: StepDeps, registries: AuthenticationRegistries): RouteOptions {
  const { ctx } = deps;
  const readAuthorizeRequest = authorizeRequestReader(deps, registries, ['email', 'verification_code']);
  return {
    method: 'GET',
    url: '/passwordless/verify_redirect',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const { params, client, authorize } = await readAuthorizeRequest(request, reply);
      const connection = await emailConnection(ctx, tenant, client.row.client_id, params.connection);
      if (!connection) throw oauthErrors.invalidRequest('Connection does not exist');
      const email = params.email ?? '';
      const refused = () => oauthErrors.accessDenied('Wrong email or verification code.');
      if (!(await verifyEmailCode(ctx, tenant, connection, client.row.client_id, email, params.verification_code ?? ''))) throw refused();
      const user = await passwordlessUser(ctx, tenant, connection, email);
      if (!user) throw refused();
      if (!isActive(user)) throw oauthErrors.accessDenied('user is blocked');
      const authenticated = await deps.sessions.start(tenant, user, reply);
      return runInteraction(deps, reply, { tenant, client, request: authorize, browser: bindBrowser(request, reply), completed: [], authenticated });
    },
  };
}
