/**
 * GET|POST /userinfo (OpenID Connect Core §5.3; authentication-api-wire-notes
 * §8) as a pipeline of named steps: read the bearer token, verify it, load the
 * user, answer the claims its scopes allow.
 *
 * The token may come in the Authorization header, or for POST in the
 * `access_token` body member (RFC 6750 §2.2). It must be an RS256 JWT signed
 * by a tenant key, issued by the tenant, with `https://{domain}/userinfo`
 * among its audiences: that is every token of a user grant that asked for
 * `openid`, and every no-audience user token. The `openid` scope itself is not
 * required on top of the audience.
 *
 * Failures are the service's non-JSON 401: body `Unauthorized` and
 * `WWW-Authenticate: Bearer realm="Users", error="invalid_token",
 * error_description="…"` (wire notes §1.4, §16.8). A request without any token
 * gets the challenge without an error code (RFC 6750 §3.1).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type JWTPayload } from 'jose';
import type { Tenant } from '../domain/tenants/tenant.js';
import { userClaims } from '../domain/tokens/id-token.js';
import type { UserRow } from '../domain/users/model.js';
import type { AppContext } from '../domain/context.js';
import { BearerRefusal } from './errors.js';
import { requireActiveUser } from '../domain/users/active-user.js';
import { verifyTenantJwt } from '../domain/tokens/verify.js';


function readBearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) throw new BearerRefusal('Bad authorization header');
    return match[1]!;
  }
  const body = request.body;
  if (request.method === 'POST' && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const token = (body as Record<string, unknown>).access_token;
    if (typeof token === 'string' && token !== '') return token;
  }
  throw new BearerRefusal();
}

const REFUSALS = { invalid: 'Invalid token', expired: 'The token has expired', audience: 'Invalid audience' } as const;

async function verifyUserinfoToken(ctx: AppContext, tenant: Tenant, token: string): Promise<JWTPayload> {
  // Every token the tenant issues expires: one without `exp` (or `sub`) is no token of this endpoint.
  const verified = await verifyTenantJwt(ctx, tenant, token, 'userinfo');
  if (!verified.ok) throw new BearerRefusal(REFUSALS[verified.failure]);
  return verified.payload;
}

const userRefusals = { missing: () => new BearerRefusal('The user does not exist'), blocked: () => new BearerRefusal('user is blocked') };

function claimsFor(user: UserRow, payload: JWTPayload): Record<string, unknown> {
  const scopes = new Set(typeof payload.scope === 'string' ? payload.scope.split(' ') : []);
  return { sub: user.user_id, ...userClaims(user, scopes) };
}

export function userinfoEndpoint(ctx: AppContext): RouteOptions {
  return {
    method: ['GET', 'POST'],
    url: '/userinfo',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const token = readBearerToken(request);
      const payload = await verifyUserinfoToken(ctx, request.tenant, token);
      const user = await requireActiveUser(ctx.stores.users, request.tenant.id, payload.sub!, userRefusals);
      return reply
        .header('Cache-Control', 'no-store')
        // Exactly `application/json`, as the token endpoint answers; a Buffer keeps Fastify from adding a charset.
        .header('Content-Type', 'application/json')
        .send(Buffer.from(JSON.stringify(claimsFor(user, payload))));
    },
  };
}
