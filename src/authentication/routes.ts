/**
 * The Authentication API route table (tenant root), registered from this one list.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { tokenEndpoint } from './token/endpoint.js';
import { jwksEndpoint } from './well-known/jwks.js';
import { openidConfigurationEndpoint } from './well-known/openid-configuration.js';

export function authenticationRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    for (const route of [openidConfigurationEndpoint(), jwksEndpoint(ctx), tokenEndpoint(ctx)]) app.route(route);
  };
}
