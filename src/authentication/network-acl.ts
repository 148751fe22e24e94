/**
 * The tenant's network ACLs on the Authentication API and the hosted pages
 * (rules of scope `authentication`, `tenant`, and `dynamic_client_registration`
 * for /oidc/register), checked once the tenant is known and before any
 * handler runs. The address is the end user's as the request gives it
 * (`request.ip`: the TCP peer, or `X-Forwarded-For` behind the proxies
 * GATEHOUSE_TRUST_PROXY names); unlike ./end-user-ip.ts, the token
 * endpoint's `auth0-forwarded-for` is not read, as the service's Tenant ACL
 * does not read it. A blocked request gets 403 `access_denied`; a redirect
 * rule sends 302 to its URI; a `log` rule writes a line and lets the request
 * on. Evaluation: src/domain/network-acls/rules.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { aclRequest, networkAclsOf, type NetworkAclContext } from '../domain/network-acls/rules.js';
import { oauthErrors } from '../platform/http/errors.js';

export const BLOCKED_DESCRIPTION = 'Access denied by the tenant network access control list';

export function networkAclHook(ctx: NetworkAclContext) {
  const acls = networkAclsOf(ctx);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (!request.tenant) return undefined;
    const scope = request.url.startsWith('/oidc/register') ? 'dynamic_client_registration' : 'authentication';
    const { decision, logged } = await acls.evaluate(request.tenant.id, aclRequest(request, scope));
    for (const acl of logged) request.log.info({ acl: acl.id, tenant: request.tenant.name }, 'network ACL matched (monitoring mode)');
    if (decision?.action === 'block') throw oauthErrors.accessDenied(BLOCKED_DESCRIPTION);
    // A hook that answers returns the reply, so that the route does not run.
    return decision?.action === 'redirect' ? reply.redirect(decision.redirectUri, 302) : undefined;
  };
}
