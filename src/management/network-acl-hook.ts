/**
 * The tenant's network ACLs on the Management API (rules of scope
 * `management` and `tenant`), checked before the token is: a blocked
 * request gets 403 in the Management error shape, a redirect rule 302 to its
 * URI. Evaluation: src/domain/network-acls/rules.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { aclRequest, networkAclsOf, type NetworkAclContext } from '../domain/network-acls/rules.js';
import { ManagementError } from '../platform/http/errors.js';

export function managementNetworkAclHook(ctx: NetworkAclContext) {
  const acls = networkAclsOf(ctx);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (!request.tenant) return undefined;
    const { decision, logged } = await acls.evaluate(request.tenant.id, aclRequest(request, 'management'));
    for (const acl of logged) request.log.info({ acl: acl.id, tenant: request.tenant.name }, 'network ACL matched (monitoring mode)');
    if (decision?.action === 'block') throw new ManagementError(403, 'Access denied by the tenant network access control list');
    // A hook that answers returns the reply, so that the route does not run.
    return decision?.action === 'redirect' ? reply.redirect(decision.redirectUri, 302) : undefined;
  };
}
