/**
 * Management API operations in the tenant log: every operation that changes
 * something (not GET or HEAD) is recorded once answered, `sapi` when it
 * succeeded and `fapi` when it was refused (authentication, scope,
 * validation, a missing object). Details name the method, the route, the
 * path and the status: never the body, which may carry secrets.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { IssuanceLookups } from '../domain/issuance/lookups.js';
import type { TenantLogs } from '../domain/logs/tenant-logs.js';

/** What logging a Management API operation touches. */
export interface ManagementLogContext {
  readonly logger: Logger;
  readonly lookups: IssuanceLookups;
  readonly tenantLogs: TenantLogs;
}

export function logManagementOperation(ctx: ManagementLogContext, request: FastifyRequest, reply: FastifyReply): void {
  if (!ctx.tenantLogs.enabled || request.method === 'GET' || request.method === 'HEAD' || request.routeOptions.config.scopes === undefined) return;
  // An unknown host was answered before any tenant was found.
  const tenant = request.tenant as typeof request.tenant | undefined;
  if (tenant === undefined) return;
  const principal = request.principal;
  const success = reply.statusCode < 400;
  const route = `/api/v2${request.routeOptions.url?.replace(/^\/api\/v2/, '') ?? ''}`;
  const record = (clientName: string | undefined) =>
    ctx.tenantLogs.record(tenant.id, {
      type: success ? 'sapi' : 'fapi',
      description: `${request.method} ${route}`,
      client_id: principal?.clientId,
      client_name: clientName,
      ip: request.ip,
      user_agent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
      hostname: tenant.customDomain ?? tenant.domain,
      ...((principal?.kind === 'user' || principal?.kind === 'operator') && { user_id: principal.sub }),
      audience: `https://${tenant.domain}/api/v2/`,
      scope: principal ? [...principal.scopes].join(' ') : undefined,
      details: {
        request: { method: request.method, path: request.url.split('?')[0], channel: 'api', auth: principal ? { subject: principal.sub, kind: principal.kind } : undefined },
        response: { statusCode: reply.statusCode },
      },
    });
  const clientId = principal?.clientId;
  if (clientId === undefined) return record(undefined);
  ctx.lookups.client(tenant.id, clientId).then(
    (client) => record(client?.row.name),
    (err: unknown) => {
      ctx.logger.warn({ err }, 'looking up the client of a Management API operation for the tenant log failed');
      record(undefined);
    },
  );
}
