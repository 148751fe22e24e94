/**
 * POST /dbconnections/change_password (authentication-api-wire-notes §10):
 * the same 200 `text/html` sentence whether or not the user exists, so the
 * endpoint does not reveal which addresses have accounts.
 *
 * Each (IP, email) pair has its own bucket, so the endpoint cannot be used to
 * flood one mailbox from one address: the service's published limit of 10 at
 * once, then 1 a minute (wire notes §1.5; CHANGE_PASSWORD_RATE_LIMIT). Beyond
 * it the answer is what the service answers for its per-endpoint limits, a 429
 * `too_many_requests` with `X-RateLimit-*` and `Retry-After`, and no mail; the
 * `X-RateLimit-*` headers of every answer describe this bucket, the narrower
 * of the two the request draws from. A 429 rather than a silent 200: the
 * notes record rate-limit headers on this endpoint and 429s for its limit,
 * and a refusal that is counted for unknown addresses exactly as for known
 * ones reveals no more than the 200 does, while a silent 200 would tell a
 * real user that mail is on its way when none is.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { oauthErrors } from '../../platform/http/errors.js';
import type { RateLimitDecision } from '../../platform/rate-limit/rate-limiter.js';
import { readChangePasswordBody } from './body.js';
import type { DbConnectionsService } from './service.js';

export const CHANGE_PASSWORD_ANSWER = "We've just sent you an email to reset your password.";

/** The pair's bucket: its headers on every answer, a 429 once it is empty. */
function applyPairLimit(reply: FastifyReply, decision: RateLimitDecision): void {
  reply.header('X-RateLimit-Limit', String(decision.limit));
  reply.header('X-RateLimit-Remaining', String(decision.remaining));
  reply.header('X-RateLimit-Reset', String(decision.resetAt));
  if (!decision.allowed) throw oauthErrors.tooManyRequests().withHeader('Retry-After', String(decision.retryAfter));
}

export function changePasswordEndpoint(service: DbConnectionsService): RouteOptions {
  return {
    method: 'POST',
    url: '/dbconnections/change_password',
    // ./body.ts bounds every member, in the endpoint's own error shape.
    config: { ownParameterLimits: true },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const input = readChangePasswordBody(request);
      applyPairLimit(reply, await service.takeChangePasswordRequest(request.tenant, request.ip, input.email));
      await service.changePassword(request.tenant, input, request);
      return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(CHANGE_PASSWORD_ANSWER);
    },
  };
}
