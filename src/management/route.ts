import type { FastifyRequest, RouteOptions } from 'fastify';
import type { AppContext } from '../domain/context.js';

/** A Management API operation: a Fastify route whose config names the scopes it accepts. */
export type ManagementRoute = RouteOptions & { config: { scopes: readonly string[] } };

/** One operation, built from the context and its area's service. */
export type ManagementRouteFactory<S> = (ctx: AppContext, service: S) => ManagementRoute;

/** `application/json` and form bodies, as the service's body-carrying operations accept. */
export const BODY_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/**
 * preValidation of form bodies whose `member` is a list of ids: `a=x&a=y`
 * parses to an array but a lone `a=x` to a string; it means a one-item array.
 * JSON bodies are left alone, so `{"a":"x"}` is still refused as not an array.
 */
export function formListAsArray(member: string): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const contentType = request.headers['content-type'] ?? '';
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) return;
    const body = request.body as Record<string, unknown> | null | undefined;
    if (body && typeof body[member] === 'string') body[member] = [body[member]];
  };
}
