/**
 * The tenant's rate limit policies on the Authentication API
 * (`oauth_authentication_api`, consumer `client`; the policies and their
 * buckets: src/domain/rate-limit-policies/enforcement.ts), checked once the
 * body is read and before any handler runs. The client is the one the
 * request names: `client_id` in the query or the body, else the user of an
 * HTTP Basic `Authorization` header (client_secret_basic). A request naming
 * no client (JWKS, discovery, a client authenticating by assertion alone)
 * draws only from the tenant's bucket.
 *
 * Past the policy's limit: `block` answers 429 `too_many_requests` with
 * X-RateLimit-Limit/-Remaining/-Reset and Retry-After, as the tenant's own
 * bucket does (src/app/http.ts); `log` writes a line and lets the request
 * on; `redirect` sends a browser navigation (GET) to the policy's
 * `redirect_uri` with 302, and answers any other request as `block` (a
 * token request cannot follow a redirect). Within the limit the
 * X-RateLimit-* headers describe the policy's bucket, the narrower one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitPoliciesOf, type RateLimitPolicyContext } from '../domain/rate-limit-policies/enforcement.js';
import { oauthErrors } from '../platform/http/errors.js';

const CLIENT_ID_MAX = 256;

function textMember(container: unknown, name: string): string | undefined {
  if (typeof container !== 'object' || container === null) return undefined;
  const value = (container as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' && value.length <= CLIENT_ID_MAX ? value : undefined;
}

/** The client id of `Authorization: Basic base64(urlencode(id):urlencode(secret))`, if the header is one. */
function basicClientId(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    const id = decodeURIComponent(decoded.slice(0, colon));
    return id.length <= CLIENT_ID_MAX ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The client a request names, as the endpoints read it. */
export function requestClientId(request: Pick<FastifyRequest, 'query' | 'body' | 'headers'>): string | undefined {
  return textMember(request.query, 'client_id') ?? textMember(request.body, 'client_id') ?? basicClientId(request.headers.authorization);
}

export function rateLimitPolicyHook(ctx: RateLimitPolicyContext) {
  const policies = rateLimitPoliciesOf(ctx);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (!request.tenant) return undefined;
    const clientId = requestClientId(request);
    if (clientId === undefined) return undefined;
    const outcome = await policies.consume(request.tenant.id, clientId);
    if (!outcome) return undefined;
    const { decision, action, policy } = outcome;
    if (action === 'log') {
      if (!decision.allowed) request.log.warn({ policy: policy.id, client_id: clientId, tenant: request.tenant.name }, 'rate limit policy exceeded (log action)');
      return undefined;
    }
    reply.header('X-RateLimit-Limit', String(decision.limit));
    reply.header('X-RateLimit-Remaining', String(decision.remaining));
    reply.header('X-RateLimit-Reset', String(decision.resetAt));
    if (decision.allowed) return undefined;
    // A hook that answers returns the reply, so that the route does not run.
    if (action === 'redirect' && request.method === 'GET' && outcome.redirectUri) return reply.redirect(outcome.redirectUri, 302);
    throw oauthErrors.tooManyRequests().withHeader('Retry-After', String(decision.retryAfter));
  };
}
