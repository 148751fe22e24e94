/**
 * POST /guardian/api/enroll: a device answers a push enrolment (the QR code
 * of /mfa/associate with the `auth0` channel). `Authorization: Ticket
 * id="{enrollment_tx_id}"`; JSON body `{identifier?, name?,
 * push_credentials: {service: "APNS"|"GCM", token}, public_key: JWK}`.
 * 201 `{id, url, issuer, user_id}`: `id` is what the device's JWTs name as
 * `iss`. An unknown, expired or already used transaction is 401
 * `invalid_token`; a bad body 400 `invalid_request`.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { devicePublicKey, enrolPushDevice, PUSH_SERVICES, pushBaseUrl, type PushService, type PushContext } from '../../../domain/mfa/push.js';
import { totpIssuer } from '../../../domain/mfa/service.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import { authorizationOf, invalidToken } from './request.js';

const TOKEN = /^[A-Za-z0-9:_\-.]{8,512}$/;

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function deviceEnrollEndpoint(ctx: PushContext): RouteOptions {
  return {
    method: 'POST',
    url: '/guardian/api/enroll',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const ticket = authorizationOf(request, /^Ticket +id="([A-Za-z0-9_\-]{1,100})" *$/);
      if (ticket === undefined) throw invalidToken('Missing or bad authorization header');
      const body = record(request.body);
      if (!body) throw oauthErrors.invalidRequest('The body must be a JSON object');
      const credentials = record(body.push_credentials);
      const service = credentials?.service;
      if (!PUSH_SERVICES.includes(service as PushService)) throw oauthErrors.invalidRequest('push_credentials.service must be APNS or GCM');
      if (typeof credentials!.token !== 'string' || !TOKEN.test(credentials!.token)) throw oauthErrors.invalidRequest('push_credentials.token must be a device token');
      const name = body.name === undefined ? null : body.name;
      if (name !== null && (typeof name !== 'string' || name.length === 0 || name.length > 100)) throw oauthErrors.invalidRequest('name must be a string of at most 100 characters');
      const key = await devicePublicKey(body.public_key);
      if ('problem' in key) throw oauthErrors.invalidRequest(key.problem);
      const enrolled = await enrolPushDevice(ctx, tenant, ticket, { name, service: service as PushService, token: credentials!.token, publicKey: key.jwk });
      if (!enrolled) throw invalidToken('The enrollment transaction is invalid, expired or already used.');
      return reply.code(201).header('Cache-Control', 'no-store').send({ id: enrolled.id, url: pushBaseUrl(tenant), issuer: totpIssuer(tenant), user_id: enrolled.user_id });
    },
  };
}
