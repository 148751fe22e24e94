import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { TwilioBody, TwilioReadResponse, TwilioResponse } from './schema.js';

const url = '/guardian/factors/sms/providers/twilio';

/** GET /api/v2/guardian/factors/sms/providers/twilio → 200 `{from, messaging_service_sid, sid}`; never the auth token. */
export const getTwilioProvider: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url,
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: TwilioReadResponse } },
  handler: async (request) => mfa.twilio(request.tenant),
});

/** PUT …/providers/twilio → 200 echoing the body; replaces the configuration (the auth token sealed). */
export const setTwilioProvider: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url,
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: TwilioBody, response: { 200: TwilioResponse } },
  handler: async (request) => mfa.setTwilio(request.tenant, request.body),
});
