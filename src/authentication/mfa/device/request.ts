/**
 * What the endpoints of the push device API share (README "MFA by push
 * notification"): reading the device's JWT from `Authorization: Bearer` and
 * opening the transaction it names (src/domain/mfa/push.ts
 * `deviceTransaction`). Refusals: 401 `invalid_token` (missing, unreadable,
 * badly signed, another device's, wrong audience, expired), 404
 * `not_found` (no such live transaction).
 */
import type { FastifyRequest } from 'fastify';
import { deviceTransaction, type DeviceTransaction, type PushContext } from '../../../domain/mfa/push.js';
import { oauthErrors } from '../../../platform/http/errors.js';

export const invalidToken = (description = 'The device token is invalid.') => oauthErrors.invalidToken(description);

/** The credential of `Authorization: <scheme> …`, bounded. */
export function authorizationOf(request: FastifyRequest, scheme: RegExp): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined || header.length > 8300) return undefined;
  return scheme.exec(header)?.[1];
}

export async function deviceRequest(ctx: PushContext, request: FastifyRequest, audience: string): Promise<DeviceTransaction> {
  const jwt = authorizationOf(request, /^Bearer +([A-Za-z0-9\-_.]+) *$/i);
  if (jwt === undefined) throw invalidToken('Missing or bad authorization header');
  const opened = await deviceTransaction(ctx, request.tenant, jwt, audience);
  if (opened === 'not_found') throw oauthErrors.notFound('Transaction not found or expired.');
  if (opened === 'invalid_token') throw invalidToken();
  return opened;
}
