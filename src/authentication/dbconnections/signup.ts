/**
 * POST /dbconnections/signup (authentication-api-wire-notes §10): read the
 * body, check client, connection and password policy, create the user, mail
 * the verification link, answer the recorded shape.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { readSignupBody } from './body.js';
import type { DbConnectionsService } from './service.js';

export function signupEndpoint(service: DbConnectionsService): RouteOptions {
  return {
    method: 'POST',
    url: '/dbconnections/signup',
    // ./body.ts bounds every member, in the endpoint's own error shape.
    config: { ownParameterLimits: true },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const input = readSignupBody(request);
      const user = await service.signup(request.tenant, input, request);
      return reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(user);
    },
  };
}
