/**
 * GET|POST /userinfo (OpenID Connect Core §5.3; authentication-api-wire-notes
 * §8) as a pipeline of named steps: read the access token, verify it, check
 * its sender constraint (DPoP, RFC 9449 §7), load the user, answer the claims
 * its scopes allow.
 *
 * The token may come in the Authorization header, for POST in the
 * `access_token` body member (RFC 6750 §2.2), or in the `access_token` query
 * parameter (RFC 6750 §2.3), which the service accepts and `passport-auth0`
 * uses. Exactly one of the three: a request presenting it in more than one
 * place is refused (RFC 6750 §2). No log line carries a request's query
 * string, so a token presented there is not logged. It must be an RS256 JWT signed
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
import { BearerRefusal } from './errors.js';
import { requireActiveUser } from '../domain/users/active-user.js';
import { verifyTenantJwt } from '../domain/tokens/verify.js';
import { confirmationOf } from '../domain/tokens/confirmation.js';
import { currentNonce, dpopHeader, DPOP_ALGS, verifyDpopProof, withNonce, type DpopContext } from './sender-constraint/dpop.js';
import { renderErrorsWith } from '../platform/http/error-rendering.js';
import type { UserStore } from '../domain/users/store.js';
import type { Keyring } from '../domain/keys/keyring.js';


interface PresentedToken {
  token: string;
  scheme: 'Bearer' | 'DPoP';
}

function readAccessToken(request: FastifyRequest): PresentedToken {
  const presented: PresentedToken[] = [];
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) throw new BearerRefusal('Bad authorization header');
    presented.push({ token: match[2]!, scheme: match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer' });
  }
  const body = request.body;
  if (request.method === 'POST' && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const token = Object.hasOwn(body, 'access_token') ? (body as Record<string, unknown>).access_token : undefined;
    if (typeof token === 'string' && token !== '') presented.push({ token, scheme: 'Bearer' });
  }
  const query = request.query as Record<string, unknown> | undefined;
  if (query !== undefined && query !== null && Object.hasOwn(query, 'access_token')) {
    const token = query.access_token;
    if (typeof token !== 'string') throw new BearerRefusal('The access_token query parameter must be given once');
    if (token !== '') presented.push({ token, scheme: 'Bearer' });
  }
  if (presented.length > 1) throw new BearerRefusal('The access token must be presented in one place only: the Authorization header, the body or the query');
  if (presented.length === 0) throw new BearerRefusal();
  return presented[0]!;
}

const REFUSALS = { invalid: 'Invalid token', expired: 'The token has expired', audience: 'Invalid audience' } as const;

/** What /userinfo touches. */
export interface UserinfoContext extends DpopContext {
  readonly keyring: Keyring;
  readonly stores: DpopContext['stores'] & { readonly users: UserStore };
}

async function verifyUserinfoToken(ctx: UserinfoContext, tenant: Tenant, token: string): Promise<JWTPayload> {
  // Every token the tenant issues expires: one without `exp` (or `sub`) is no token of this endpoint.
  const verified = await verifyTenantJwt(ctx, tenant, token, 'userinfo');
  if (!verified.ok) throw new BearerRefusal(REFUSALS[verified.failure]);
  return verified.payload;
}

/**
 * A DPoP-bound token (`cnf.jkt`) is accepted only with the DPoP scheme and a
 * proof by that key for this request, bound to the token by `ath`; a bearer
 * token is not accepted under the DPoP scheme (RFC 9449 §7).
 */
async function checkSenderConstraint(
  ctx: UserinfoContext,
  tenant: Tenant,
  request: FastifyRequest,
  reply: FastifyReply,
  presented: PresentedToken,
  payload: JWTPayload,
): Promise<void> {
  const confirmation = confirmationOf(payload);
  const certificate = confirmation?.['x5t#S256'];
  if (certificate !== undefined && request.edge?.thumbprint !== certificate) {
    throw new BearerRefusal('The token is bound to a client certificate, which the request did not present through the edge');
  }
  const bound = confirmation?.jkt;
  if (bound === undefined) {
    if (presented.scheme === 'DPoP') throw new BearerRefusal('The token is not bound to a DPoP key', { scheme: 'DPoP' });
    return;
  }
  const dpop = { scheme: 'DPoP' as const, algs: DPOP_ALGS };
  if (presented.scheme !== 'DPoP') throw new BearerRefusal('The token is bound to a DPoP key: present it with the DPoP scheme and a proof', dpop);
  // A refused proof (an OAuthError of ./sender-constraint/dpop.ts) is answered here as a DPoP challenge with the nonce to use (RFC 9449 §7.1).
  renderErrorsWith(request, (error, reply) =>
    new BearerRefusal(error.description, { ...dpop, error: error.error as 'invalid_dpop_proof' | 'use_dpop_nonce', nonce: currentNonce(ctx, tenant) }).respond(reply),
  );
  const proof = dpopHeader(request);
  if (proof === undefined) throw new BearerRefusal('A DPoP proof is required', dpop);
  const jkt = await verifyDpopProof(ctx, tenant, request, proof, { htu: `${tenant.issuer}userinfo`, accessToken: presented.token });
  if (jkt !== bound) throw new BearerRefusal('The DPoP proof is not by the key the token is bound to', { ...dpop, error: 'invalid_dpop_proof' });
  withNonce(ctx, tenant, reply);
}

const userRefusals = { missing: () => new BearerRefusal('The user does not exist'), blocked: () => new BearerRefusal('user is blocked') };

function claimsFor(user: UserRow, payload: JWTPayload): Record<string, unknown> {
  const scopes = new Set(typeof payload.scope === 'string' ? payload.scope.split(' ') : []);
  return { sub: user.user_id, ...userClaims(user, scopes) };
}

export function userinfoEndpoint(ctx: UserinfoContext): RouteOptions {
  return {
    method: ['GET', 'POST'],
    url: '/userinfo',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const presented = readAccessToken(request);
      const payload = await verifyUserinfoToken(ctx, request.tenant, presented.token);
      await checkSenderConstraint(ctx, request.tenant, request, reply, presented, payload);
      const user = await requireActiveUser(ctx.stores.users, request.tenant.id, payload.sub!, userRefusals);
      return reply
        .header('Cache-Control', 'no-store')
        // Exactly `application/json`, as the token endpoint answers; a Buffer keeps Fastify from adding a charset.
        .header('Content-Type', 'application/json')
        .send(Buffer.from(JSON.stringify(claimsFor(user, payload))));
    },
  };
}
