import type { RouteOptions } from 'fastify';
import type { AppContext } from '../context.js';
import type { ClientGrantService } from './client-grants/service.js';
import type { ResourceServerService } from './resource-servers/service.js';

/** A Management API operation: a Fastify route whose config names the scopes it accepts. */
export type ManagementRoute = RouteOptions & { config: { scopes: readonly string[] } };

export interface ManagementServices {
  resourceServers: ResourceServerService;
  clientGrants: ClientGrantService;
}

export type ManagementRouteFactory = (ctx: AppContext, services: ManagementServices) => ManagementRoute;

/** `application/json` and form bodies, as the service's body-carrying operations accept. */
export const BODY_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;
