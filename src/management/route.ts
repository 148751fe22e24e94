import type { RouteOptions } from 'fastify';
import type { AppContext } from '../context.js';

/** A Management API operation: a Fastify route whose config names the scopes it accepts. */
export type ManagementRoute = RouteOptions & { config: { scopes: readonly string[] } };

/** One operation, built from the context and its area's service. */
export type ManagementRouteFactory<S> = (ctx: AppContext, service: S) => ManagementRoute;

/** `application/json` and form bodies, as the service's body-carrying operations accept. */
export const BODY_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;
