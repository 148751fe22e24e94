import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { TwilioBody, TwilioReadResponse, TwilioResponse } from './schema.js';

/** The factor's two names in the service's document: `sms` (older) and `phone`; one configuration. */
const urlOf = (factor: 'sms' | 'phone') => `/guardian/factors/${factor}/providers/twilio`;

/** GET /api/v2/guardian/factors/{sms|phone}/providers/twilio → 200 `{from, messaging_service_sid, sid}`; never the auth token. */
const getTwilio = (factor: 'sms' | 'phone'): ManagementRouteFactory<GuardianMfaService> => (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: urlOf(factor),
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: TwilioReadResponse } },
  handler: async (request) => mfa.twilio(request.tenant),
});

/** PUT …/providers/twilio → 200 echoing the body; replaces the configuration (the auth token sealed). */
const setTwilio = (factor: 'sms' | 'phone'): ManagementRouteFactory<GuardianMfaService> => (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url: urlOf(factor),
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: TwilioBody, response: { 200: TwilioResponse } },
  handler: async (request) => mfa.setTwilio(request.tenant, request.body),
});

export const getTwilioProvider = getTwilio('sms');
export const setTwilioProvider = setTwilio('sms');
export const getPhoneTwilioProvider = getTwilio('phone');
export const setPhoneTwilioProvider = setTwilio('phone');
