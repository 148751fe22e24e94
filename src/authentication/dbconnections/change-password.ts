/**
 * POST /dbconnections/change_password (authentication-api-wire-notes §10):
 * the same 200 `text/html` sentence whether or not the user exists, so the
 * endpoint does not reveal which addresses have accounts.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { readChangePasswordBody } from './body.js';
import type { DbConnectionsService } from './service.js';

export const CHANGE_PASSWORD_ANSWER = "We've just sent you an email to reset your password.";

export function changePasswordEndpoint(service: DbConnectionsService): RouteOptions {
  return {
    method: 'POST',
    url: '/dbconnections/change_password',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const input = readChangePasswordBody(request);
      await service.changePassword(request.tenant, input);
      return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(CHANGE_PASSWORD_ANSWER);
    },
  };
}
