import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { SmsTemplatesBody } from './schema.js';

/** The factor's two names in the service's document: `sms` (older) and `phone`; one set of templates. */
const urlOf = (factor: 'sms' | 'phone') => `/guardian/factors/${factor}/templates`;

/** GET /api/v2/guardian/factors/{sms|phone}/templates → 200 `{enrollment_message, verification_message}` (the service's defaults until set). */
const getTemplates = (factor: 'sms' | 'phone'): ManagementRouteFactory<GuardianMfaService> => (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: urlOf(factor),
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: SmsTemplatesBody } },
  handler: async (request) => mfa.smsTemplates(request.tenant),
});

/** PUT …/templates → 200 the templates; Liquid templates with `code` and `tenant.friendly_name`, checked before they are kept. */
const setTemplates = (factor: 'sms' | 'phone'): ManagementRouteFactory<GuardianMfaService> => (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url: urlOf(factor),
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SmsTemplatesBody, response: { 200: SmsTemplatesBody } },
  handler: async (request) => mfa.setSmsTemplates(request.tenant, request.body),
});

export const getSmsTemplates = getTemplates('sms');
export const setSmsTemplates = setTemplates('sms');
export const getPhoneTemplates = getTemplates('phone');
export const setPhoneTemplates = setTemplates('phone');
